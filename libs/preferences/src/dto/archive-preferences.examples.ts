import type { BodyExamples } from '@app/shared';
import type { ArchivePreferencesDto } from './archive-preferences.dto';

/*
 * Request-body examples of PUT .../Profile/Preferences/{profileId}/Archive (the OpenAPI
 * document's `examples`; test/openapi-examples.e2e-spec.ts sends each). They select
 * preferences of the full profile example (PROFILE_CREATE_EXAMPLES in @app/profiles).
 */
export const ARCHIVE_PREFERENCES_EXAMPLES: BodyExamples<ArchivePreferencesDto> = {
  someFilters: {
    summary:
      'Archive the Offers preference (filter 6) of one email and every preference of the mobile phones',
    value: {
      Reason_Code: 'Customer request',
      Emails: [{ EmailAddress: 'ann.lee@example.com', FilterId: '6' }],
      PhoneNumbers: [{ PhoneType: 'Mobile', Reason_Code: 'Phone number given up' }],
      ProfilePreferences: [{ ProgramId: '1', FilterId: '5' }],
    },
  },
  everything: {
    summary: 'Archive every preference of the profile and of all its contact elements',
    value: { GlobalDeactivate: true, Reason_Code: 'Account closed' },
  },
};
