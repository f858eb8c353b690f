import type { BodyExamples } from '@app/shared';
import type { EventSubscriptionBodyDto } from './event-subscription.dto';

/*
 * Request-body examples of the event subscriptions (the OpenAPI document's `examples`;
 * test/openapi-examples.e2e-spec.ts sends each). They name the example configuration
 * (EXAMPLE_CONFIGURATION in @app/shared): filters 1 and 6, the consent types Marketing and
 * Email, the alternate id type CRM, the custom field Tier.
 */

/** A CRM's subscription: every profile event, some consent and preference events, contacts. */
const CRM_SYNC: EventSubscriptionBodyDto = {
  Name: 'CRM sync',
  Description: 'Keeps the CRM in step with profiles, consents and preferences',
  LocaleID: 'en-us',
  Url: 'https://hooks.example.com/pcp/events',
  Subscriptions: [
    { Entity: 'Profile', EventType: '*' },
    { Entity: 'Consent', EventType: 'consent.updated', ConsentTypes: ['Marketing', 'Email'] },
    { Entity: 'Preference', EventType: 'preference.added', Filters: ['1', '6'] },
    { Entity: 'Contacts', EventType: 'contacts.email.updated', ContactTypes: ['Email'] },
    { Entity: 'CustomField', EventType: 'customfield.updated', CustomFields: ['Tier'] },
  ],
  State: 'Paused',
  ExcludeData: false,
  DeliverPausedEvents: true,
  AlternateIdType: 'CRM',
  DeliveryFormat: 'Standard',
};

export const EVENT_SUBSCRIPTION_CREATE_EXAMPLES: BodyExamples<EventSubscriptionBodyDto> = {
  crmSync: {
    summary:
      'Profile, consent, preference, email and custom field events for a CRM, paused until its endpoint is ready',
    value: CRM_SYNC,
  },
  cloudEvents: {
    summary: 'Every preference event as CloudEvents, without the profile data',
    value: {
      Name: 'Analytics feed',
      Url: 'https://events.example.net/ingest',
      Subscriptions: [{ Entity: 'Preference', EventType: '*', Filters: ['AllFilters'] }],
      State: 'Active',
      ExcludeData: true,
      DeliveryFormat: 'CloudEvents',
    },
  },
};

export const EVENT_SUBSCRIPTION_UPDATE_EXAMPLES: BodyExamples<EventSubscriptionBodyDto> = {
  activate: {
    summary:
      'The whole subscription again, now Active (the events of the paused period are delivered)',
    value: { ...CRM_SYNC, State: 'Active' },
  },
};
