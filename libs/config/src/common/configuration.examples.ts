import type { BodyExamples } from '@app/shared';
import type { ConsentTypeListDto, ConsentVersionDto } from '../consent-types/dto/consent-type.dto';
import type {
  CreateCustomFieldsDto,
  CreateDateTimeFieldsDto,
  CreateNumericFieldsDto,
  CreateSelectListFieldsDto,
  CreateTextFieldsDto,
} from '../custom-fields/dto/custom-field.dto';
import type { PicklistListDto } from '../picklists/dto/picklist.dto';
import type { CustomPropertiesChangeDto } from '../programs/dto/custom-properties-request.dto';
import type { ProgramGroupListDto } from '../programs/dto/program-group.dto';
import type {
  FilterListDto,
  ProgramListDto,
  RequiredPreferenceConsentListDto,
} from '../programs/dto/program.dto';
import type { TypeKind } from '../types/domain/type-kind';
import type { TypeEntryDto, TypeListDto } from '../types/dto/type-entry.dto';
import type { PatchOperationDto } from './patch-operation.dto';

/*
 * Request-body examples of the Configuration API (the document's `examples`; the e2e test
 * test/openapi-examples.e2e-spec.ts posts each one). They create names the example
 * configuration (EXAMPLE_CONFIGURATION in @app/shared) does not have yet, and refer to the
 * names it has.
 */

/** A new entry per type kind, with an English and a French display name. */
const NEW_TYPES: Record<TypeKind, { TypeName: string; en: string; fr: string; about: string }> = {
  AddressTypes: {
    TypeName: 'Business',
    en: 'Business address',
    fr: 'Adresse professionnelle',
    about: 'Where the person works',
  },
  AlternateIdTypes: {
    TypeName: 'WebShop',
    en: 'Web shop account',
    fr: 'Compte boutique en ligne',
    about: 'The account number of the web shop',
  },
  CustomerTypes: {
    TypeName: 'Employee',
    en: 'Employee',
    fr: 'Employé',
    about: 'A member of staff',
  },
  GroupTypes: {
    TypeName: 'Company',
    en: 'Company',
    fr: 'Entreprise',
    about: 'People of one business customer',
  },
  EmailTypes: { TypeName: 'Work', en: 'Work email', fr: 'Courriel professionnel', about: '' },
  PhoneTypes: { TypeName: 'Landline', en: 'Landline', fr: 'Téléphone fixe', about: '' },
};

/** POST /{clientId}/<Kind>: one new entry of the kind. */
export function typeCreateExamples(kind: TypeKind): BodyExamples<TypeListDto> {
  const type = NEW_TYPES[kind];
  const entry: TypeEntryDto = {
    TypeName: type.TypeName,
    LocalizedFields: [
      { Locale: 'en-us', Name: type.en, ...(type.about ? { Description: type.about } : {}) },
      { Locale: 'fr-fr', Name: type.fr },
    ],
    IsActive: true,
    IsDefault: false,
  };
  return {
    [`new${type.TypeName}`]: {
      summary: `A new ${type.TypeName} entry, named in English and French`,
      value: { [kind]: [entry] },
    },
  };
}

/** PATCH /{clientId}/<Kind>/{typeId}: a display name and a description. */
export function typePatchExamples(kind: TypeKind): BodyExamples<PatchOperationDto[]> {
  const type = NEW_TYPES[kind];
  return {
    renameDisplayName: {
      summary: 'Change the English display name and set its description',
      value: [
        { op: 'replace', path: '/LocalizedFields/0/Name', value: `${type.en} (primary)` },
        { op: 'add', path: '/LocalizedFields/0/Description', value: `${type.en}, as first given` },
      ],
    },
  };
}

export const CONSENT_TYPE_CREATE_EXAMPLES: BodyExamples<ConsentTypeListDto> = {
  profileAndChannelConsents: {
    summary:
      'A profile-level consent type (no channel) with an attribute, and one bound to the Phone channel',
    value: {
      ConsentTypes: [
        {
          TypeName: 'Profiling',
          IsActive: true,
          IsDefault: false,
          LocalizedFields: [
            {
              Locale: 'en-us',
              Name: 'Personalised offers',
              Description: 'Offers chosen from the purchase history',
            },
          ],
          Attributes: [{ Key: 'LegalBasis', Value: 'GDPR Art. 6(1)(a)' }],
          Versions: [
            {
              ConsentVersion: '1.0',
              ExpirationInDays: 730,
              LocalizedFields: [
                {
                  Locale: 'en-us',
                  Name: 'Personalised offers 1.0',
                  ConsentLanguage:
                    'I agree that my purchase history is used to choose the offers I receive.',
                },
                {
                  Locale: 'fr-fr',
                  Name: 'Offres personnalisées 1.0',
                  ConsentLanguage:
                    "J'accepte que mon historique d'achats serve à choisir les offres que je reçois.",
                },
              ],
            },
          ],
        },
        {
          TypeName: 'Calls',
          ChannelId: 'Phone',
          LocalizedFields: [{ Locale: 'en-us', Name: 'Phone calls' }],
          Versions: [
            {
              ConsentVersion: '1.0',
              LocalizedFields: [
                {
                  Locale: 'en-us',
                  Name: 'Phone calls 1.0',
                  ConsentLanguage: 'You may call me about my orders and offers.',
                },
              ],
            },
          ],
        },
      ],
    },
  },
};

export const CONSENT_TYPE_PATCH_EXAMPLES: BodyExamples<PatchOperationDto[]> = {
  describeAndDeactivate: {
    summary: 'Describe the type in English and deactivate it',
    value: [
      {
        op: 'add',
        path: '/LocalizedFields/0/Description',
        value: 'Offers chosen from the purchase history',
      },
      { op: 'replace', path: '/IsActive', value: false },
    ],
  },
};

export const CONSENT_VERSION_EXAMPLES: BodyExamples<ConsentVersionDto> = {
  newVersion: {
    summary: 'Publish version 2.0 with new consent language (consents then expire after a year)',
    value: {
      ConsentVersion: '2.0',
      ExpirationInDays: 365,
      IsActive: true,
      LocalizedFields: [
        {
          Locale: 'en-us',
          Name: 'Version 2.0',
          ConsentLanguage:
            'I agree that my purchase history and my visits to the shop are used to choose my offers.',
        },
      ],
    },
  },
};

export const TEXT_FIELDS_EXAMPLES: BodyExamples<CreateTextFieldsDto> = {
  loyaltyNumber: {
    summary: 'A text field checked by a regular expression, written only while blank',
    value: {
      TextFields: [
        {
          Name: 'LoyaltyNumber',
          LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Loyalty card number' }],
          Description: 'The number printed on the loyalty card',
          MinLength: 8,
          MaxLength: 12,
          ValidationRegex: '^LC[0-9]{6,10}$',
          UpdateRuleId: 2,
          DisplayOrder: 10,
        },
      ],
    },
  },
};

export const NUMERIC_FIELDS_EXAMPLES: BodyExamples<CreateNumericFieldsDto> = {
  lifetimeValue: {
    summary: 'A numeric field with bounds and two decimals',
    value: {
      NumericFields: [
        {
          Name: 'LifetimeValue',
          LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Lifetime value (USD)' }],
          MinValue: 0,
          MaxValue: 1000000,
          DecimalPlaces: 2,
          DefaultValue: 0,
          UpdateRuleId: 1,
        },
      ],
    },
  },
};

export const DATE_TIME_FIELDS_EXAMPLES: BodyExamples<CreateDateTimeFieldsDto> = {
  memberSince: {
    summary: 'A date field that is never changed once written',
    value: {
      DateTimeFields: [
        {
          Name: 'MemberSince',
          LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Member since' }],
          MinDate: '2000-01-01',
          MaxDate: '2100-12-31',
          UpdateRuleId: 5,
        },
      ],
    },
  },
};

export const SELECT_LIST_FIELDS_EXAMPLES: BodyExamples<CreateSelectListFieldsDto> = {
  interests: {
    summary: 'A multi-select field on picklist 1 (the picklist of the Picklists example)',
    value: {
      SelectListFields: [
        {
          Name: 'Interests',
          LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Interests' }],
          PicklistId: 1,
          DisplayType: 'MultiSelect',
          DefaultState: 'Unchecked',
        },
      ],
    },
  },
};

export const CUSTOM_FIELDS_EXAMPLES: BodyExamples<CreateCustomFieldsDto> = {
  oneOfEachType: {
    summary: 'A field of each of the four types in one request',
    value: {
      TextFields: [
        {
          Name: 'PreferredStore',
          LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Preferred store' }],
          MaxLength: 100,
        },
      ],
      NumericFields: [
        {
          Name: 'HouseholdSize',
          LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Household size' }],
          MinValue: 1,
          MaxValue: 20,
          DecimalPlaces: 0,
        },
      ],
      DateTimeFields: [
        {
          Name: 'Birthday',
          LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Birthday' }],
          MinDate: '1900-01-01',
        },
      ],
      SelectListFields: [
        {
          Name: 'FavouriteSport',
          LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Favourite sport' }],
          PicklistId: 1,
          DisplayType: 'SingleSelect',
        },
      ],
    },
  },
};

export const CUSTOM_FIELD_PATCH_EXAMPLES: BodyExamples<PatchOperationDto[]> = {
  displayNameAndOrder: {
    summary: 'Change the English display name and the display order',
    value: [
      { op: 'replace', path: '/LocalizedDisplayNames/0/Name', value: 'Loyalty card' },
      { op: 'add', path: '/DisplayOrder', value: 20 },
    ],
  },
};

export const PICKLIST_EXAMPLES: BodyExamples<PicklistListDto> = {
  sports: {
    summary: 'A picklist of three options (the values a SelectList custom field stores)',
    value: {
      Picklists: [
        {
          Name: 'Sports',
          Description: 'Sports a customer is interested in',
          FieldSelectOptions: [
            {
              Value: 'RUNNING',
              DisplayOrder: 1,
              LocalizedNames: [
                { Locale: 'en-us', Name: 'Running' },
                { Locale: 'fr-fr', Name: 'Course à pied' },
              ],
            },
            {
              Value: 'CYCLING',
              DisplayOrder: 2,
              LocalizedNames: [
                { Locale: 'en-us', Name: 'Cycling' },
                { Locale: 'fr-fr', Name: 'Cyclisme' },
              ],
            },
            {
              Value: 'HIKING',
              DisplayOrder: 3,
              LocalizedNames: [
                { Locale: 'en-us', Name: 'Hiking' },
                { Locale: 'fr-fr', Name: 'Randonnée' },
              ],
            },
          ],
        },
      ],
    },
  },
};

export const PICKLIST_PATCH_EXAMPLES: BodyExamples<PatchOperationDto[]> = {
  retireOption: {
    summary:
      'Retire the third option (an inactive option is refused as a new value) and describe the picklist',
    value: [
      { op: 'add', path: '/FieldSelectOptions/2/IsActive', value: false },
      { op: 'add', path: '/Description', value: 'Sports a customer is interested in (2026 list)' },
    ],
  },
};

export const PROGRAM_CREATE_EXAMPLES: BodyExamples<ProgramListDto> = {
  programWithFilters: {
    summary:
      'A marketing program with an email filter (frequencies, attributes, a required consent, expirations) and a text filter',
    value: {
      Programs: [
        {
          Name: 'Loyalty club',
          Description: 'News and offers of the loyalty club',
          ProgramType: 'Marketing',
          IsActive: true,
          CustomProperties: [{ Key: 'Jurisdiction', Value: 'EU' }],
          Locales: [
            {
              ID: 'en-us',
              DisplayTags: [
                { Key: 'Title', Value: 'Loyalty club' },
                { Key: 'Subtitle', Value: 'Members-only news and offers' },
              ],
            },
          ],
          Filters: [
            {
              Name: 'Club news by email',
              Description: 'The club newsletter',
              ChannelID: 'Email',
              DefaultLocaleID: 'en-us',
              DefaultPreferenceValue: 1,
              OptInCustomerExpirationDays: 730,
              OptOutCustomerExpirationDays: 0,
              OptInNonCustomerExpirationDays: 365,
              OptOutNonCustomerExpirationDays: 0,
              FrequencyLocales: [
                {
                  ID: 'en-us',
                  Frequencies: [
                    { ID: 'Weekly', DisplayName: 'Every week', IsDefault: true, DisplayOrder: 1 },
                    { ID: 'Monthly', DisplayName: 'Once a month', DisplayOrder: 2 },
                  ],
                },
              ],
              PreferenceAttributes: [
                { ID: 'Source', DisplayOrder: 1 },
                { ID: 'Topic', DisplayOrder: 2 },
              ],
              RequiredPreferenceConsents: [{ TypeName: 'Marketing', DisplayOrder: 1 }],
            },
            {
              Name: 'Club offers by text',
              ChannelID: 'Text/SMS',
              RequiredPreferenceConsents: [{ TypeName: 'Sms', DisplayOrder: 1 }],
            },
          ],
        },
      ],
    },
  },
};

export const FILTER_CREATE_EXAMPLES: BodyExamples<FilterListDto> = {
  mailFilter: {
    summary: 'Add a Mail filter to the program',
    value: {
      Filters: [
        {
          Name: 'Club catalogue by post',
          ChannelID: 'Mail',
          DefaultPreferenceValue: 2,
          Locales: [{ ID: 'en-us', DisplayTags: [{ Key: 'Title', Value: 'Printed catalogue' }] }],
        },
      ],
    },
  },
};

export const PROGRAM_PATCH_EXAMPLES: BodyExamples<PatchOperationDto[]> = {
  describeAndTag: {
    summary: 'Set the description and add a custom property',
    value: [
      { op: 'add', path: '/Description', value: 'News and offers for loyalty club members' },
      { op: 'add', path: '/CustomProperties/-', value: { Key: 'Brand', Value: 'Acme Outdoor' } },
    ],
  },
};

export const FILTER_PATCH_EXAMPLES: BodyExamples<PatchOperationDto[]> = {
  expiration: {
    summary: "Describe the filter and let a customer's opt-in expire after a year",
    value: [
      { op: 'add', path: '/Description', value: 'The weekly club newsletter' },
      { op: 'add', path: '/OptInCustomerExpirationDays', value: 365 },
    ],
  },
};

export const PROGRAM_GROUP_CREATE_EXAMPLES: BodyExamples<ProgramGroupListDto> = {
  marketingGroup: {
    summary: 'A group of programs 1 and 2 (Newsletter and Offers)',
    value: {
      ProgramGroups: [
        {
          Name: 'Marketing communications',
          Description: 'Everything a customer may receive for marketing',
          ProgramIds: [1, 2],
          CustomProperties: [{ Key: 'Region', Value: 'EMEA' }],
        },
      ],
    },
  },
};

export const PROGRAM_GROUP_PATCH_EXAMPLES: BodyExamples<PatchOperationDto[]> = {
  describe: {
    summary: 'Set the description and add a custom property',
    value: [
      { op: 'add', path: '/Description', value: 'Marketing programs of the EMEA region' },
      { op: 'add', path: '/CustomProperties/-', value: { Key: 'Owner', Value: 'CRM team' } },
    ],
  },
};

export const REQUIRED_CONSENTS_EXAMPLES: BodyExamples<RequiredPreferenceConsentListDto> = {
  marketingAndEmail: {
    summary: 'Require the Marketing and Email consents for preferences on the filter',
    value: {
      RequiredPreferenceConsents: [
        { TypeName: 'Marketing', DisplayOrder: 1 },
        { TypeName: 'Email', DisplayOrder: 2 },
      ],
    },
  },
};

export const CUSTOM_PROPERTIES_EXAMPLES: BodyExamples<CustomPropertiesChangeDto[]> = {
  jurisdiction: {
    summary: 'Set the Jurisdiction of entry 1 (replacing a value it has) and add a key',
    value: [
      {
        ID: 1,
        CustomProperties: [
          { Key: 'Jurisdiction', Value: 'EU', OverwriteExisting: true },
          { Key: 'ReviewedBy', Value: 'Legal' },
        ],
      },
    ],
  },
};
