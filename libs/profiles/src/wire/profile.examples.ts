import type { BodyExamples } from '@app/shared';
import type { ErasedIdentifierCheckDto, EraseProfileDto } from '../erasure/data-subject.dto';
import type { MergeProfileDto } from '../merge/merge-profile.dto';
import type {
  ProfilePatchOperationDto,
  ProfilePatchRequestDto,
} from '../intake/patch-operation.dto';
import type { ProfileDto } from './profile.dto';
import type { RenameGroupDto } from '../intake/tags-groups/rename-group.dto';

/*
 * Request-body examples of the Data API (the OpenAPI document's `examples`; the e2e test
 * test/openapi-examples.e2e-spec.ts posts each one). They name the example configuration
 * (EXAMPLE_CONFIGURATION in @app/shared): customer type Customer, alternate id type CRM,
 * program 1 Newsletter with its filters 1 to 5, program 2 Offers with filter 6, ...
 */

/** When the person gave the consents of the examples (a past time: consent dates may not lie ahead). */
const CONSENT_DATE = '2025-03-14T09:30:00Z';

/**
 * A full profile: names, contact elements with their consents and preferences, alternate
 * ids, custom fields, a group, a tag, a profile-level consent and preference. Its CRM id is
 * C-1001; the other examples (merge, archive, decisions) refer to what it holds.
 */
export const FULL_PROFILE: ProfileDto = {
  CustomerType: 'Customer',
  DefaultLocale: 'en-us',
  RegistrationConfirmed: true,
  CustomerName: { Prefix: 'Ms', FirstName: 'Ann', MiddleName: 'Marie', LastName: 'Lee' },
  AlternateIds: [
    { AlternateIdType: 'CRM', AlternateId: 'C-1001' },
    { AlternateIdType: 'Loyalty', AlternateId: 'L-55501' },
  ],
  Emails: [
    {
      EmailAddressType: 'Personal',
      EmailAddress: 'ann.lee@example.com',
      IsDefault: true,
      Consents: [
        {
          ConsentType: 'Email',
          ConsentVersion: '1.0',
          Locale: 'en-us',
          ConsentStatus: 1,
          ConsentDate: CONSENT_DATE,
          SourceId: 'web-signup',
        },
        {
          ConsentType: 'Marketing',
          ConsentVersion: '1.0',
          Locale: 'en-us',
          ConsentStatus: 1,
          ConsentDate: CONSENT_DATE,
          SourceId: 'web-signup',
        },
      ],
      EmailPreferences: [
        {
          ProgramId: '1',
          ChannelId: 'Email',
          FilterId: '1',
          FrequencyId: 'Weekly',
          PreferenceType: 1,
          SourceId: 'web-signup',
          PreferenceAttributes: [{ Key: 'Topic', Value: 'Running' }],
        },
        {
          ProgramId: '2',
          ChannelId: 'Email',
          FilterId: '6',
          PreferenceType: 1,
          SourceId: 'web-signup',
          ConsentAssociations: [
            { ConsentType: 'Marketing', ConsentVersion: '1.0', Locale: 'en-us', IsActive: true },
          ],
        },
      ],
    },
  ],
  PhoneNumbers: [
    {
      PhoneType: 'Mobile',
      PhoneNumber: '+1 (555) 010-2030',
      IsMobile: true,
      IsDefault: true,
      Consents: [
        {
          ConsentType: 'Sms',
          ConsentVersion: '1.0',
          Locale: 'en-us',
          ConsentStatus: 2,
          ConsentDate: CONSENT_DATE,
          ReasonCode: 'Declined at signup',
        },
      ],
      PhonePreferences: [
        {
          ProgramId: '1',
          ChannelId: 'Text/SMS',
          FilterId: '2',
          PreferenceType: 2,
          ReasonCode: 'No text messages',
        },
      ],
    },
  ],
  Addresses: [
    {
      AddressType: 'Home',
      IsDefault: true,
      Address1: '12 Harbour Street',
      Address2: 'Apt 4',
      City: 'Portland',
      StateProvince: 'ME',
      PostalCode: '04101',
      Country: 'United States',
      CountryCode_Alpha2: 'US',
      CountryCode_Alpha3: 'USA',
      CountryCode_Numeric: '840',
      Consents: [
        {
          ConsentType: 'Mail',
          ConsentVersion: '1.0',
          Locale: 'en-us',
          ConsentStatus: 1,
          ConsentDate: CONSENT_DATE,
        },
      ],
      AddressPreferences: [{ ProgramId: '1', ChannelId: 'Mail', FilterId: '4', PreferenceType: 1 }],
    },
  ],
  CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
  Groups: [{ GroupType: 'Household', GroupName: 'Lee household', IsPrimary: true }],
  ProfileTags: [{ Name: 'vip' }],
  Consents: [
    {
      ConsentType: 'Terms',
      ConsentVersion: '1.0',
      Locale: 'en-us',
      ConsentStatus: 1,
      ConsentDate: CONSENT_DATE,
      SourceId: 'web-signup',
    },
  ],
  ProfilePreferences: [
    {
      ProgramId: '1',
      ChannelId: 'Solicit',
      FilterId: '5',
      PreferenceType: 1,
      PreferenceAttributes: [{ Key: 'Purpose', Value: 'App notifications' }],
    },
  ],
};

/** A minimal profile: what a create needs, and an email. */
const MINIMAL_PROFILE: ProfileDto = {
  CustomerType: 'Prospect',
  CustomerName: { FirstName: 'Sam', LastName: 'Ortiz' },
  Emails: [{ EmailAddressType: 'Personal', EmailAddress: 'sam.ortiz@example.com' }],
};

export const PROFILE_CREATE_EXAMPLES: BodyExamples<ProfileDto> = {
  fullProfile: {
    summary:
      'A full profile: contact elements with consents and preferences, alternate ids, custom fields, group, tag',
    value: FULL_PROFILE,
  },
  minimalProfile: {
    summary: 'The least a new profile needs: its customer type',
    value: MINIMAL_PROFILE,
  },
};

/** POST by id or by alternate id (a merge): only what the body names changes. */
export const PROFILE_MERGE_EXAMPLES: BodyExamples<ProfileDto> = {
  changeSomeFields: {
    summary:
      'Change the first name, the newsletter frequency of an email and a custom field; the rest is kept',
    value: {
      CustomerName: { FirstName: 'Annie' },
      Emails: [
        {
          EmailAddress: 'ann.lee@example.com',
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
      CustomFields: [{ Name: 'Tier', Value: 'Platinum' }],
    },
  },
  revokeConsent: {
    summary: 'Revoke the Marketing consent of an email (status 3 Revoked)',
    value: {
      Emails: [
        {
          EmailAddress: 'ann.lee@example.com',
          Consents: [
            {
              ConsentType: 'Marketing',
              ConsentVersion: '1.0',
              Locale: 'en-us',
              ConsentStatus: 3,
              ConsentDate: '2025-06-01T12:00:00Z',
              ReasonCode: 'Unsubscribed by phone',
            },
          ],
        },
      ],
    },
  },
};

/** PUT by id or by alternate id: the body is the whole profile. */
export const PROFILE_OVERWRITE_EXAMPLES: BodyExamples<ProfileDto> = {
  fullProfile: {
    summary: 'The whole profile: what the body leaves out is removed',
    value: FULL_PROFILE,
  },
};

/** POST by alternate id: an upsert (created when no profile holds the pair of the query). */
export const PROFILE_UPSERT_EXAMPLES: BodyExamples<ProfileDto> = {
  fullProfile: {
    summary: 'Created with this body when no profile holds the alternate id, else merged into it',
    value: FULL_PROFILE,
  },
};

const PATCH_OPERATIONS: ProfilePatchOperationDto[] = [
  { op: 'replace', path: '/CustomerName/LastName', value: 'Lee-Smith' },
  {
    op: 'add',
    path: '/PhoneNumbers/-',
    value: { PhoneType: 'Mobile', PhoneNumber: '+1 555 010 4040', IsMobile: true },
  },
  { op: 'add', path: '/ProfileTags/-', value: { Name: 'newsletter' } },
];

export const PROFILE_PATCH_EXAMPLES: BodyExamples<ProfilePatchOperationDto[]> = {
  nameAndPhone: {
    summary: 'Change the last name, add a phone number and a tag',
    value: PATCH_OPERATIONS,
  },
};

export const PROFILE_ALTERNATE_ID_PATCH_EXAMPLES: BodyExamples<ProfilePatchRequestDto> = {
  nameAndPhone: {
    summary: 'Change the last name, add a phone number and a tag',
    value: { Operations: PATCH_OPERATIONS },
  },
};

export const PROFILE_MERGE_REQUEST_EXAMPLES: BodyExamples<MergeProfileDto> = {
  byAlternateId: {
    summary: 'Absorb the profile holding the CRM id C-2002 (a duplicate of the survivor)',
    value: {
      AbsorbedAlternateIdType: 'CRM',
      AbsorbedAlternateId: 'C-2002',
      ReasonCode: 'Duplicate signup',
    },
  },
};

export const ERASURE_EXAMPLES: BodyExamples<EraseProfileDto> = {
  rightToErasure: {
    summary: 'Erase on a request under GDPR Article 17, with the ticket for the audit trail',
    value: { ReasonCode: 'GDPR-ART17', Note: 'Ticket 4711' },
  },
};

export const ERASED_IDENTIFIER_CHECK_EXAMPLES: BodyExamples<ErasedIdentifierCheckDto> = {
  beforeImport: {
    summary: 'Check identifiers of a record before importing it',
    value: {
      Emails: ['ann.lee@example.com'],
      PhoneNumbers: ['+1 (555) 010-2030'],
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'C-1001' }],
      Names: [{ FirstName: 'Ann', LastName: 'Lee' }],
    },
  },
};

export const RENAME_GROUP_EXAMPLES: BodyExamples<RenameGroupDto> = {
  rename: {
    summary: 'Rename the group Lee household of the group type in the path',
    value: { OldGroupName: 'Lee household', NewGroupName: 'Lee family', AllowMerge: false },
  },
};
