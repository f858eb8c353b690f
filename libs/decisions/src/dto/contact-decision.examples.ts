import type { BodyExamples } from '@app/shared';
import type { ContactDecisionsRequestDto } from './contact-decision.dto';

/*
 * Request-body examples of POST /{clientId}/ContactDecisions (the OpenAPI document's
 * `examples`; test/openapi-examples.e2e-spec.ts sends each). They ask about the full profile
 * example (PROFILE_CREATE_EXAMPLES in @app/profiles) on the programs of the example
 * configuration (EXAMPLE_CONFIGURATION in @app/shared).
 */
export const CONTACT_DECISIONS_EXAMPLES: BodyExamples<ContactDecisionsRequestDto> = {
  threeWays: {
    summary:
      'A profile by id, a profile by alternate id and a bare email address, on the Newsletter and Offers programs',
    value: {
      Questions: [
        { ProfileId: 1, ChannelId: 'Email', ProgramId: '1', FilterId: '1' },
        { AlternateIdType: 'CRM', AlternateId: 'C-1001', ChannelId: 'Text/SMS', ProgramId: '1' },
        {
          EmailAddress: 'ann.lee@example.com',
          ChannelId: 'Email',
          ProgramId: '2',
          ConsentType: 'Marketing',
        },
      ],
    },
  },
};
