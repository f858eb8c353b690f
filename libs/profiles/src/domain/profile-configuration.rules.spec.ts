import { applyProfileWrite } from './profile-merge';
import { checkAgainstConfiguration } from './profile-configuration.rules';
import type { ProfileTypeKind, ProfileVocabulary } from './profile-vocabulary';

/** A small in-memory vocabulary: the rules are pure, the real one comes from the configuration module. */
function vocabulary(): ProfileVocabulary {
  const types: Record<string, { IsActive: boolean }> = {
    'CustomerTypes:customer': { IsActive: true },
    'CustomerTypes:old': { IsActive: false },
    'AddressTypes:home': { IsActive: true },
    'AlternateIdTypes:crm': { IsActive: true },
    'GroupTypes:household': { IsActive: true },
    'EmailTypes:personal': { IsActive: true },
    'PhoneTypes:mobile': { IsActive: true },
  };
  const fields: Record<
    string,
    { IsActive: boolean; rule: 'always' | 'never'; required?: boolean }
  > = {
    tier: { IsActive: true, rule: 'always' },
    signupsource: { IsActive: true, rule: 'never', required: true },
    legacy: { IsActive: false, rule: 'always' },
  };
  return {
    type: (kind: ProfileTypeKind, name: string) => types[`${kind}:${name.toLowerCase()}`],
    // "Marketing" was called "Promotions" before a rename.
    renamedConsentTypes: true,
    consentTypeName: (name: string) =>
      ['marketing', 'promotions'].includes(name.toLowerCase()) ? 'Marketing' : undefined,
    consentType: (name: string) =>
      ['marketing', 'promotions'].includes(name.toLowerCase())
        ? {
            IsActive: true,
            Versions: [
              { ConsentVersion: '1.0', IsActive: true },
              { ConsentVersion: '0.9', IsActive: false },
            ],
          }
        : undefined,
    customField: (name: string) => fields[name.toLowerCase()],
    checkCustomFieldValue: (name, newValue, currentValue) => {
      if (
        name.toLowerCase() === 'tier' &&
        newValue !== null &&
        !['Gold', 'Silver'].includes(newValue)
      ) {
        return `Value ${JSON.stringify(newValue)} is not in the picklist of "${name}"`;
      }
      if (
        fields[name.toLowerCase()]?.rule === 'never' &&
        currentValue &&
        newValue !== currentValue
      ) {
        return `"${name}" cannot be changed once set (value ${JSON.stringify(newValue)})`;
      }
      return null;
    },
    requiredCustomFields: () => ['SignupSource'],
    // One program and Email filter; preference.rules.spec.ts covers the preference rules.
    program: (id) => (id === 1 ? { IsActive: true } : undefined),
    filter: (id) =>
      id === 10
        ? {
            ProgramId: 1,
            FilterId: 10,
            ChannelId: 'Email',
            IsActive: true,
            FrequencyIds: [],
            RequiredConsentTypes: [],
            RequiredAttributes: [],
          }
        : undefined,
    channel: (value) => (value.toLowerCase() === 'email' ? 'Email' : undefined),
  };
}

const valid = {
  CustomerType: 'Customer',
  CustomFields: [{ Name: 'SignupSource', Value: 'web' }],
  Addresses: [{ AddressType: 'HOME' }],
  AlternateIds: [{ AlternateIdType: 'crm', AlternateId: 'x' }],
  Groups: [{ GroupType: 'Household', GroupName: 'a' }],
  Emails: [
    {
      EmailAddress: 'a@b.io',
      EmailAddressType: 'Personal',
      Consents: [{ ConsentType: 'Marketing', ConsentVersion: '1.0' }],
    },
  ],
  PhoneNumbers: [{ PhoneNumber: '1', PhoneType: 'Mobile' }],
};

describe('checkAgainstConfiguration', () => {
  it('accepts a body that names only active configuration, case-insensitively', () => {
    expect(checkAgainstConfiguration(valid, vocabulary(), 'create')).toEqual([]);
  });

  it('names each unknown or inactive entry with its path and value', () => {
    const problems = checkAgainstConfiguration(
      {
        CustomerType: 'Old',
        CustomFields: [
          { Name: 'SignupSource', Value: 'web' },
          { Name: 'Legacy', Value: 'x' },
          { Name: 'Nope', Value: 'y' },
        ],
        Addresses: [{ AddressType: 'Work' }],
        Emails: [
          {
            EmailAddress: 'a@b.io',
            Consents: [{ ConsentType: 'Marketing', ConsentVersion: '0.9' }, { ConsentType: 'Sms' }],
            EmailPreferences: [
              {
                ProgramId: '1',
                ChannelId: 'Email',
                FilterId: '10',
                ConsentAssociations: [{ ConsentType: 'Marketing', ConsentVersion: '2.0' }],
              },
            ],
          },
        ],
      },
      vocabulary(),
      'create',
    );
    expect(problems).toEqual([
      'CustomerType (value "Old") is an inactive customer type',
      'Addresses[0].AddressType (value "Work") names no address type of this account',
      'Emails[0].Consents[0].ConsentVersion (value "0.9") is an inactive version of consent type "Marketing"',
      'Emails[0].Consents[1].ConsentType (value "Sms") names no consent type of this account',
      'Emails[0].EmailPreferences[0].ConsentAssociations[0].ConsentVersion (value "2.0") names no version of consent type "Marketing" of this account',
      'CustomFields[1].Name (value "Legacy") is an inactive custom field',
      'CustomFields[2].Name (value "Nope") names no custom field of this account',
    ]);
  });

  it('checks custom field values and update rules against the stored value', () => {
    const current = applyProfileWrite(undefined, valid, 'overwrite', { at: 't', userId: 'u' });
    expect(
      checkAgainstConfiguration(
        {
          CustomFields: [
            { Name: 'Tier', Value: 'Bronze' },
            { Name: 'signupsource', Value: 'phone' },
          ],
        },
        vocabulary(),
        'merge',
        current,
      ),
    ).toEqual([
      'CustomFields[0]: Value "Bronze" is not in the picklist of "Tier"',
      'CustomFields[1]: "signupsource" cannot be changed once set (value "phone")',
    ]);
  });

  it('requires the required custom fields on create and overwrite, not on merge', () => {
    expect(checkAgainstConfiguration({ CustomerType: 'Customer' }, vocabulary(), 'create')).toEqual(
      ['CustomFields: the required custom field "SignupSource" has no value'],
    );
    expect(checkAgainstConfiguration({ CustomerType: 'Customer' }, vocabulary(), 'merge')).toEqual(
      [],
    );
  });

  it('applies the update rule of a field an overwrite removes', () => {
    const current = applyProfileWrite(undefined, valid, 'overwrite', { at: 't', userId: 'u' });
    expect(
      checkAgainstConfiguration({ CustomerType: 'Customer' }, vocabulary(), 'overwrite', current),
    ).toEqual([
      'CustomFields (omitted "SignupSource"): "SignupSource" cannot be changed once set (value null)',
      'CustomFields: the required custom field "SignupSource" has no value',
    ]);
  });

  it('matches a consent stored under a former consent type name with the current name', () => {
    const ctx = { at: 't', userId: 'u' };
    const stored = applyProfileWrite(
      undefined,
      {
        ...valid,
        Consents: [{ ConsentType: 'Promotions', ConsentVersion: '1.0', ConsentStatus: 1 }],
      },
      'overwrite',
      ctx,
    );
    const revoke = { Consents: [{ ConsentType: 'Marketing', ConsentStatus: 3 }] };
    expect(checkAgainstConfiguration(revoke, vocabulary(), 'merge', stored)).toEqual([]);
    // The same revoke of a type never granted is refused: the match above is what allows it.
    const unrelated = applyProfileWrite(undefined, valid, 'overwrite', ctx);
    expect(checkAgainstConfiguration(revoke, vocabulary(), 'merge', unrelated)).toEqual([
      expect.stringContaining('never granted'),
    ]);
  });
});
