import type { ExampleObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/*
 * Request-body examples of the OpenAPI document (the `examples` of a media type, shown by
 * Swagger UI's example picker and sent by the contract run's examples phase). Each lib keeps
 * its examples in a module of its own next to its DTOs, so the document and the tests that
 * post them (test/openapi-examples.e2e-spec.ts) use the same objects.
 */

/** One named example: what it shows (`summary`) and the body. */
export interface BodyExample<T> extends ExampleObject {
  summary: string;
  value: T;
}

/** The named examples of one request body, by example name. */
export type BodyExamples<T> = Record<string, BodyExample<T>>;

/**
 * The configuration the examples assume (the client's configuration names and the ids its
 * programs and filters get when created in this order), stated in the document's description.
 * test/harness/configuration.ts (configureTestTenant) creates exactly this configuration.
 */
export const EXAMPLE_CONFIGURATION =
  'The request examples assume a client configured as the test suites configure theirs (test/harness/configuration.ts): ' +
  'customer types Customer and Prospect; address type Home; alternate id types CRM and Loyalty; group type Household; ' +
  'email type Personal; phone type Mobile; consent types Terms, Mail, Email, Sms and Marketing, each with version 1.0 ' +
  '(en-us); the text custom field Tier; program 1 Newsletter with filters 1 (Email, frequencies Weekly and Monthly), ' +
  '2 (Text/SMS), 3 (Phone), 4 (Mail) and 5 (Solicit), each with the preference attributes Topic, Purpose and Region; ' +
  'program 2 Offers with filter 6 (Email, requires the Marketing consent); program 3 Do not contact (DNC) with ' +
  'filters 7 (Email) and 8 (Phone). Examples that create configuration use names this configuration does not have yet. ' +
  'Ids in paths and bodies (a profile id, an access token) stand for ones the client has.';
