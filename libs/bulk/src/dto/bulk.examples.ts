import type { BodyExamples } from '@app/shared';
import type { ProfileDto } from '@app/profiles';
import type { ExportSegmentDto, InitiateBulkExportDto } from './bulk-export.dto';
import type { InitiateBulkImportDto } from './bulk-import.dto';

/*
 * Request-body examples of the Connectivity (Bulk) API (the OpenAPI document's `examples`;
 * test/openapi-examples.e2e-spec.ts sends each). Records are matched by the alternate id
 * type CRM of the example configuration (EXAMPLE_CONFIGURATION in @app/shared).
 */
export const INITIATE_IMPORT_EXAMPLES: BodyExamples<InitiateBulkImportDto> = {
  nightlyCrmSync: {
    summary: 'Records matched by their CRM id, merged into the profiles (contacts replaced)',
    value: {
      Name: 'Nightly CRM sync',
      MatchCriteria: 'AlternateIdType',
      MatchValue: 'CRM',
      Operation: 'Add',
      DataStageDuration: 3,
      AllowPriorConsents: false,
      RefreshContacts: true,
    },
  },
};

/** Two import records: profiles in the shape of the Data API's writes, each with its CRM id. */
export const IMPORT_RECORDS: ProfileDto[] = [
  {
    CustomerType: 'Customer',
    CustomerName: { FirstName: 'Lena', LastName: 'Park' },
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'C-3001' }],
    Emails: [
      {
        EmailAddressType: 'Personal',
        EmailAddress: 'lena.park@example.com',
        EmailPreferences: [
          {
            ProgramId: '1',
            ChannelId: 'Email',
            FilterId: '1',
            FrequencyId: 'Monthly',
            PreferenceType: 1,
          },
        ],
      },
    ],
    CustomFields: [{ Name: 'Tier', Value: 'Silver' }],
  },
  {
    CustomerType: 'Prospect',
    CustomerName: { FirstName: 'Omar', LastName: 'Haddad' },
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'C-3002' }],
    PhoneNumbers: [{ PhoneType: 'Mobile', PhoneNumber: '+1 555 010 7788', IsMobile: true }],
    Consents: [
      {
        ConsentType: 'Terms',
        ConsentVersion: '1.0',
        Locale: 'en-us',
        ConsentStatus: 1,
        ConsentDate: '2025-05-02T08:00:00Z',
      },
    ],
  },
];

export const STAGE_RECORDS_EXAMPLES: BodyExamples<ProfileDto[]> = {
  twoRecords: {
    summary: 'Two profile records, each holding its CRM id (the MatchValue of the import)',
    value: IMPORT_RECORDS,
  },
};

/** The same records as newline-delimited JSON (application/x-ndjson). */
export const STAGE_RECORDS_NDJSON = IMPORT_RECORDS.map((record) => JSON.stringify(record)).join(
  '\n',
);

export const INITIATE_EXPORT_EXAMPLES: BodyExamples<InitiateBulkExportDto> = {
  byCrmId: {
    summary: 'Profiles holding a CRM id, saved since the start of 2025; each row keyed by that id',
    value: {
      SegmentName: 'crm-weekly',
      MatchCriteria: 'AlternateID',
      MatchType: 'CRM',
      LastDateTime: '2025-01-01T00:00:00Z',
    },
  },
  everyProfile: { summary: 'Every active profile of the account', value: {} },
};

export const EXPORT_SEGMENT_EXAMPLES: BodyExamples<ExportSegmentDto> = {
  since: {
    summary: 'Profiles saved since the start of 2025',
    value: { LastDateTime: '2025-01-01T00:00:00Z' },
  },
};
