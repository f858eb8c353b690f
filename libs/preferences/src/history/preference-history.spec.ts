import {
  normaliseScope,
  type ProfileHistory,
  ProfileRules,
  type ProfileView,
  type StoredConsentAssociation,
  type StoredPreference,
} from '@app/profiles';
import {
  HISTORY_CREATE_BODY,
  historyEntry,
  historyRecorder,
  historySummary as summary,
  profileAt,
  restatedOnSparselyStored,
  T1,
  T2,
} from '@app/profiles/testing';
import { PREFERENCE_PROFILE_RULES } from '../profile-rules/preference-profile-rules';
import { PREFERENCE_HISTORY, PREFERENCE_HISTORY_CATEGORY } from './preference-history';

/** The preference a preference entry holds. */
const itemOf = (entry: ProfileHistory) => entry.snapshot as StoredPreference;

const apply = historyRecorder(new ProfileRules([PREFERENCE_PROFILE_RULES]));

const created = () => apply(profileAt(undefined, 0), HISTORY_CREATE_BODY, 'create', 1, T1);

const preferences = (entries: ProfileHistory[]) =>
  entries.filter((entry) => entry.category === PREFERENCE_HISTORY_CATEGORY);

describe('preference history: what a write records', () => {
  it("records the preferences of a create after the profile's own entries, of the profile then of each contact", () => {
    const { entries } = created();
    expect(summary(entries)).toEqual([
      ['standard', undefined, undefined, true],
      ['contact', 'Emails', undefined, true],
      ['contact', 'PhoneNumbers', undefined, true],
      ['preference', 'ProfilePreferences', undefined, true],
      ['preference', 'EmailPreferences', 'Emails', true],
    ]);
    expect(entries.map((entry) => entry._id)).toEqual(entries.map((_, n) => `c1|7|1|${n}`));
    expect(entries.map((entry) => entry.n)).toEqual([0, 1, 2, 3, 4]);
  });

  it('names the container of contact preferences, and the filter of preferences', () => {
    const { entries } = created();
    const preference = entries.find((entry) => entry.list === 'EmailPreferences')!;
    expect(preference.container).toEqual({
      list: 'Emails',
      fields: { EmailAddress: 'Ann@Example.com', EmailAddressType: 'Personal' },
    });
    expect(preference.filterKey).toBe('f1');
    expect(itemOf(preference).PreferenceAttributes).toEqual([{ Key: 'Topic', Value: 'Sports' }]);
    expect(itemOf(preference).ConsentAssociations).toMatchObject([
      { ConsentType: 'Email', ConsentVersion: '1.0' },
    ]);
    const profilePreference = entries.find((entry) => entry.list === 'ProfilePreferences')!;
    expect(profilePreference.container).toBeUndefined();
    expect(profilePreference.filterKey).toBe('weekly');
  });

  it('records a preference change inside it (attributes, associations) as a change', () => {
    const { after } = created();
    const emailPreference = (extra: object) => ({
      Emails: [
        {
          EmailAddress: 'Ann@Example.com',
          EmailPreferences: [{ ProgramId: 'P1', ChannelId: 'Email', FilterId: 'F1', ...extra }],
        },
      ],
    });
    const attributes = apply(
      after,
      emailPreference({ PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }] }),
      'merge',
      2,
      T2,
    );
    expect(summary(attributes.entries)).toEqual([
      ['preference', 'EmailPreferences', 'Emails', true],
    ]);
    expect(itemOf(attributes.entries[0]).PreferenceAttributes).toEqual([
      { Key: 'Topic', Value: 'News' },
    ]);
    expect(itemOf(attributes.entries[0]).LastModifiedDate).toBe(T2);

    const associations = apply(
      attributes.after,
      emailPreference({ ConsentAssociations: [{ ConsentType: 'Email', ConsentVersion: '2.0' }] }),
      'merge',
      3,
      T2,
    );
    expect(summary(associations.entries)).toEqual([
      ['preference', 'EmailPreferences', 'Emails', true],
    ]);
    expect(itemOf(associations.entries[0]).ConsentAssociations).toMatchObject([
      { ConsentType: 'Email', ConsentVersion: '2.0' },
    ]);
  });

  it('records no preference when none changed (a consent change is not one)', () => {
    const { after } = created();
    const { entries } = apply(
      after,
      {
        Consents: [{ ConsentType: 'Terms', ConsentStatus: 2 }],
        Emails: [
          {
            EmailAddress: 'Ann@Example.com',
            Consents: [{ ConsentType: 'Email', ConsentStatus: 3 }],
          },
        ],
      },
      'merge',
      2,
      T2,
    );
    expect(preferences(entries)).toEqual([]);
  });

  it('records the preferences of a removed contact element as inactive, inside it', () => {
    const { after } = created();
    const body = JSON.parse(JSON.stringify(HISTORY_CREATE_BODY)) as Record<string, any>;
    delete body.Emails; // removed with its preference
    const { entries } = apply(after, body, 'overwrite', 2, T2);
    expect(summary(entries)).toEqual([
      ['contact', 'Emails', undefined, false],
      ['preference', 'EmailPreferences', 'Emails', false],
    ]);
    const [, preference] = entries;
    expect(itemOf(preference).LastModifiedDate).toBe(T2);
    expect(itemOf(preference).ProgramId).toBe('P1');
    expect(preference.container?.fields.EmailAddress).toBe('Ann@Example.com');
    expect(preference.filterKey).toBe('f1');
  });

  it('sees no change where the stored document spells "nothing" differently', () => {
    const { after } = created();
    expect(restatedOnSparselyStored(apply, after)).toEqual([]);
  });
});

const entry = (fields: Partial<ProfileHistory>) =>
  historyEntry(PREFERENCE_HISTORY_CATEGORY, fields);

const everything: ProfileView = { implied: true };

describe('PREFERENCE_HISTORY.canSee', () => {
  const scoped: ProfileView = {
    implied: false,
    scope: normaliseScope({
      customFields: ['Tier'],
      programs: ['P1'],
      consents: 'read',
      preferences: 'read',
    }),
  };
  const preference = (ProgramId: string) =>
    entry({ snapshot: { ProgramId, MatchType: 'Implied' } as StoredPreference });

  it('applies the user group scope to preferences by program, never to implied', () => {
    expect(PREFERENCE_HISTORY.canSee(scoped, preference('P1'))).toBe(true);
    expect(PREFERENCE_HISTORY.canSee(scoped, preference('P2'))).toBe(false);
    expect(PREFERENCE_HISTORY.canSee(everything, preference('P2'))).toBe(true);
  });

  it('shows none to a group without access to preferences', () => {
    const none: ProfileView = {
      implied: true,
      scope: normaliseScope({ consents: 'read', preferences: 'none' }),
    };
    expect(PREFERENCE_HISTORY.canSee(none, preference('P1'))).toBe(false);
  });
});

describe('PREFERENCE_HISTORY.toEntry', () => {
  it('shows a removed preference as inactive, inside its phone', () => {
    const part = PREFERENCE_HISTORY.toEntry(
      entry({
        list: 'PhonePreferences',
        container: { list: 'PhoneNumbers', fields: { PhoneNumber: '555', PhoneType: 'Mobile' } },
        snapshot: { ProgramId: 'P1', FilterId: 'F1', IsActive: false, LastModifiedDate: T1 },
      }),
      everything,
    );
    expect(part).toEqual({
      PhoneNumbers: [
        {
          PhoneNumber: '555',
          PhoneType: 'Mobile',
          PhonePreferences: [
            {
              ProgramId: 'P1',
              FilterId: 'F1',
              LastModifiedDate: T1,
              ConsentAssociations: [],
              PreferenceAttributes: [],
              IsActive: false,
            },
          ],
        },
      ],
    });
  });

  it("shows a profile's preference alone in its list, with the associations the view may see", () => {
    const view: ProfileView = {
      implied: false,
      scope: normaliseScope({ consentTypes: ['Email'], consents: 'read', preferences: 'read' }),
    };
    const part = PREFERENCE_HISTORY.toEntry(
      entry({
        list: 'ProfilePreferences',
        snapshot: {
          ProgramId: 'P1',
          ChannelId: 'Email',
          FilterId: 'Weekly',
          PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }],
          ConsentAssociations: [
            { ConsentType: 'Email', ConsentVersion: '1.0', IsActive: false },
            // Stored before IsActive was set on associations: read as active.
            { ConsentType: 'Hidden', ConsentVersion: '1.0' } as StoredConsentAssociation,
          ],
          Key: 'p1|email|weekly',
          IsActive: true,
        } as StoredPreference,
      }),
      view,
    );
    expect(part).toEqual({
      ProfilePreferences: [
        {
          ProgramId: 'P1',
          ChannelId: 'Email',
          FilterId: 'Weekly',
          ConsentAssociations: [{ ConsentType: 'Email', ConsentVersion: '1.0', IsActive: false }],
          PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }],
          IsActive: true,
        },
      ],
    });
  });
});
