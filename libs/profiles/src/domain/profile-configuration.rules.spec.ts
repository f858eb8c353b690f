import { applyProfileWrite } from './apply-profile-write';
import { checkAgainstConfiguration } from './profile-configuration.rules';
import { ProfileRules } from './profile-rules';
import type { ProfileRuleModule } from './profile-rules.port';

/** Profiles alone: the rule modules (consents, preferences) have their own specs. */
const NO_RULES = new ProfileRules([]);
import type { ProfileTypeKind, ProfileVocabulary } from './profile-vocabulary';
import { EMAIL_PROGRAM_VOCABULARY } from '../testing';

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
    consentTypesWithAttributes: () => [],
    // One program and Email filter; preference.rules.spec.ts covers the preference rules.
    ...EMAIL_PROGRAM_VOCABULARY,
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
    expect(checkAgainstConfiguration(valid, vocabulary(), NO_RULES, 'create')).toEqual([]);
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
      NO_RULES,
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

  it('names a consent version the type does not have, in a merge too', () => {
    const body = {
      Consents: [{ ConsentType: 'Marketing', ConsentVersion: '9.9', ConsentStatus: 1 }],
    };
    const current = applyProfileWrite(undefined, valid, 'overwrite', {
      at: '2026-01-01T00:00:00.000Z',
      userId: 'u',
    });
    expect(checkAgainstConfiguration(body, vocabulary(), NO_RULES, 'merge', current)).toEqual([
      'Consents[0].ConsentVersion (value "9.9") names no version of consent type "Marketing" of this account',
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
        NO_RULES,
        'merge',
        current,
      ),
    ).toEqual([
      'CustomFields[0]: Value "Bronze" is not in the picklist of "Tier"',
      'CustomFields[1]: "signupsource" cannot be changed once set (value "phone")',
    ]);
  });

  it('requires the required custom fields on create and overwrite, not on merge', () => {
    expect(
      checkAgainstConfiguration({ CustomerType: 'Customer' }, vocabulary(), NO_RULES, 'create'),
    ).toEqual(['CustomFields: the required custom field "SignupSource" has no value']);
    expect(
      checkAgainstConfiguration({ CustomerType: 'Customer' }, vocabulary(), NO_RULES, 'merge'),
    ).toEqual([]);
  });

  it('applies the update rule of a field an overwrite removes', () => {
    const current = applyProfileWrite(undefined, valid, 'overwrite', { at: 't', userId: 'u' });
    expect(
      checkAgainstConfiguration(
        { CustomerType: 'Customer' },
        vocabulary(),
        NO_RULES,
        'overwrite',
        current,
      ),
    ).toEqual([
      'CustomFields (omitted "SignupSource"): "SignupSource" cannot be changed once set (value null)',
      'CustomFields: the required custom field "SignupSource" has no value',
    ]);
  });

  it('hands the rule modules the body and the stored profile under current consent type names, and reports their problems', () => {
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
    const seen: string[] = [];
    // A fake rule module: what the port hands it, and what it answers, is all Profiles knows.
    const recorder: ProfileRuleModule = {
      name: 'recorder',
      problems: (body, _vocabulary, kind, current) => {
        const names = (consents: unknown) =>
          (consents as { ConsentType: string }[]).map((c) => c.ConsentType).join();
        seen.push(`${kind}: body ${names(body.Consents)}, stored ${names(current?.Consents)}`);
        return ['Consents[0]: refused by the recorder'];
      },
    };
    const revoke = { Consents: [{ ConsentType: 'promotions', ConsentStatus: 3 }] };
    expect(
      checkAgainstConfiguration(
        revoke,
        vocabulary(),
        new ProfileRules([recorder]),
        'merge',
        stored,
      ),
    ).toEqual(['Consents[0]: refused by the recorder']);
    expect(seen).toEqual(['merge: body Marketing, stored Marketing']);
  });
});
