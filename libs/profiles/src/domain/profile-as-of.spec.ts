import {
  fakeConsentHistory,
  fakePreferenceHistory,
  OWN_FIELDS_CREATE_BODY,
  historyEntry,
  historyRecorder,
  profileAt,
  T1,
  T2,
} from '../testing';
import type { CurrentNames } from './current-names';
import { earliestInstant, profileDataAsOf } from './profile-as-of';
import type { ProfileData } from './profile-data.schema';
import type { ProfileHistory } from './profile-history.schema';
import { ProfileRules } from './profile-rules';
import type { Profile } from './profile.schema';

type Item = Record<string, any>;

const T3 = '2026-03-01T00:00:00.000Z';
const T4 = '2026-04-01T00:00:00.000Z';
const at = (iso: string, ms = 0) => new Date(Date.parse(iso) + ms);

const PREFERENCES = fakePreferenceHistory('preference');
const CONSENTS = fakeConsentHistory('consent');

const record = historyRecorder(new ProfileRules([CONSENTS, PREFERENCES]));

const CREATE_BODY = {
  ...OWN_FIELDS_CREATE_BODY,
  Groups: [{ GroupType: 'Household', GroupName: 'H1' }],
  AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'A1' }],
  ProfilePreferences: [{ ProgramId: 'P1', ChannelId: 'Email', FilterId: 'F0', PreferenceType: 1 }],
  Addresses: [{ AddressType: 'Home', Address1: '1 Main St', PostalCode: '12345', City: 'X' }],
};

/** A merge naming only what it changes: stored stamps then agree with history's. */
const MERGE_BODY = {
  CustomFields: [{ Name: 'Tier', Value: 'Platinum' }],
  Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }],
  Emails: [
    {
      EmailAddress: 'ann@example.com',
      EmailPreferences: [
        {
          ProgramId: 'P1',
          ChannelId: 'Email',
          FilterId: 'F1',
          PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }],
        },
      ],
    },
    { EmailAddress: 'work@example.com', EmailAddressType: 'Personal' },
  ],
};

/**
 * What GET would show of stored data, compared here without the mapper (domain specs do
 * not import mapping/): inactive elements and derived keys left out, and what history
 * does not hold (groups, tags, alternate ids).
 */
function visible(data: ProfileData | undefined, options: { stamps?: boolean } = {}): unknown {
  const strip = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value))
      return value.filter((item: Item) => item?.IsActive !== false).map((item) => strip(item));
    if (value === null || typeof value !== 'object') return value;
    const result: Item = {};
    for (const [field, inner] of Object.entries(value)) {
      if (field === 'Key' && key !== 'PreferenceAttributes') continue;
      if (['Groups', 'ProfileTags', 'AlternateIds'].includes(field)) continue;
      if (
        options.stamps === false &&
        ['LastModifiedDate', 'ModifiedDate', 'ModifiedBy'].includes(field)
      )
        continue;
      const kept = field === 'PreferenceAttributes' ? inner : strip(inner, field);
      if (Array.isArray(kept) && !kept.length) continue;
      result[field] = kept;
    }
    return result;
  };
  return strip(JSON.parse(JSON.stringify(data ?? null)));
}

function rebuilt(entries: ProfileHistory[], instant: Date, names?: CurrentNames): ProfileData {
  const result = profileDataAsOf(entries, instant, names);
  if (result.status !== 'rebuilt') throw new Error(`not rebuilt: ${JSON.stringify(result)}`);
  return result.data;
}

/** create (T1), merge (T2), then an overwrite that drops the work email and the phone (T3). */
function threeWrites() {
  const created = record(profileAt(undefined, 0), CREATE_BODY, 'create', 1, T1);
  const merged = record(created.after, MERGE_BODY, 'merge', 2, T2);
  const overwriteBody = JSON.parse(JSON.stringify(CREATE_BODY)) as Item;
  delete overwriteBody.PhoneNumbers;
  overwriteBody.CustomerName = { FirstName: 'Anne', LastName: 'Lee' };
  const overwritten = record(merged.after, overwriteBody, 'overwrite', 3, T3);
  return {
    states: [created.after, merged.after, overwritten.after] as Profile[],
    entries: [...created.entries, ...merged.entries, ...overwritten.entries],
  };
}

describe('profileDataAsOf', () => {
  it('rebuilds the stored data after each write, stamps included, from its acceptance on', () => {
    const { states, entries } = threeWrites();
    expect(visible(rebuilt(entries, at(T1)))).toEqual(visible(states[0].data));
    expect(visible(rebuilt(entries, at(T2, -1)))).toEqual(visible(states[0].data));
    expect(visible(rebuilt(entries, at(T2)))).toEqual(visible(states[1].data));
    expect(visible(rebuilt(entries, at(T3, -1)))).toEqual(visible(states[1].data));
    // The merge changed the email's preference and consent containers' content in place.
    const email = rebuilt(entries, at(T2)).Emails[0];
    expect(email.EmailPreferences[0].PreferenceAttributes).toEqual([
      { Key: 'Topic', Value: 'News' },
    ]);
    expect(email.Consents).toHaveLength(1);
  });

  it('after an overwrite: the same content, stamps of items it restated unchanged excepted', () => {
    const { states, entries } = threeWrites();
    const asOf = rebuilt(entries, at(T4));
    expect(visible(asOf, { stamps: false })).toEqual(visible(states[2].data, { stamps: false }));
    // Removed elements stay, inactive (the mapper leaves them out), nested ones too.
    const work = asOf.Emails.find((email) => email.EmailAddress === 'work@example.com');
    expect(work?.IsActive).toBe(false);
    expect(asOf.PhoneNumbers[0].IsActive).toBe(false);
    // The overwrite restamped the unchanged c1; history dates it by its last change.
    const c1 = (data: ProfileData) => data.CustomFields.find((field) => field.Name === 'c1');
    expect(c1(states[2].data!)?.Edited.ModifiedDate).toBe(T3);
    expect(c1(asOf)?.Edited.ModifiedDate).toBe(T1);
  });

  it("dates the profile's own Edited by its creation and the last replayed write", () => {
    const { entries } = threeWrites();
    expect(rebuilt(entries, at(T2)).Edited).toEqual({
      CreateDate: T1,
      CreatedBy: 'alice',
      ModifiedDate: T2,
      ModifiedBy: 'bob',
    });
  });

  it('names the last writer its stamps named when the last write left no Edited stamp', () => {
    const created = record(profileAt(undefined, 0), CREATE_BODY, 'create', 1, T1);
    const preferenceOnly = record(
      created.after,
      {
        ProfilePreferences: [
          { ProgramId: 'P1', ChannelId: 'Email', FilterId: 'F0', PreferenceType: 2 },
        ],
      },
      'merge',
      2,
      T2,
    );
    expect(preferenceOnly.entries.map((entry) => entry.category)).toEqual(['preference']);
    const edited = rebuilt([...created.entries, ...preferenceOnly.entries], at(T2)).Edited;
    expect(edited).toEqual({
      CreateDate: T1,
      CreatedBy: 'alice',
      ModifiedDate: T2,
      ModifiedBy: 'alice',
    });
  });

  it('leaves out what history does not hold: groups, tags, alternate ids', () => {
    const { entries } = threeWrites();
    const data = rebuilt(entries, at(T1));
    expect(data.Groups).toEqual([]);
    expect(data.ProfileTags).toEqual([]);
    expect(data.AlternateIds).toEqual([]);
  });

  it('refuses an instant before the first write, naming it; knows no history at all', () => {
    const { entries } = threeWrites();
    expect(profileDataAsOf(entries, at(T1, -1))).toEqual({ status: 'before', earliest: T1 });
    expect(profileDataAsOf([], at(T1))).toEqual({ status: 'empty' });
    expect(earliestInstant([...entries].reverse())).toBe(T1);
    expect(earliestInstant([])).toBeUndefined();
  });

  it('refuses a history that does not begin with a creation', () => {
    const { entries } = threeWrites();
    const withoutCreate = entries.filter((entry) => entry.seq > 1);
    expect(profileDataAsOf(withoutCreate, at(T4))).toEqual({ status: 'incomplete', earliest: T2 });
  });

  it('replays in sequence order whatever order entries come in, fields it does not know ignored', () => {
    const { states, entries } = threeWrites();
    const decorated: ProfileHistory[] = entries
      .map((entry, n) => ({ ...entry, hash: `h${n}`, prevHash: null, historyRef: 'x' }))
      .reverse();
    decorated.push(
      historyEntry('somethingNew', { seq: 2, n: 99, modifiedAt: T2, list: 'Groups', snapshot: {} }),
      historyEntry('somethingNew', {
        seq: 2,
        n: 98,
        modifiedAt: T2,
        snapshot: { IsActive: false },
      }),
    );
    expect(visible(rebuilt(decorated, at(T2)))).toEqual(visible(states[1].data));
  });

  it('stops at the first write accepted after the instant (a state the profile really had)', () => {
    const { entries } = threeWrites();
    // Write 3 accepted (by another process's clock) before write 2.
    const skewed = entries.map((entry) =>
      entry.seq === 3 ? { ...entry, modifiedAt: '2026-01-15T00:00:00.000Z' } : entry,
    );
    const result = profileDataAsOf(skewed, new Date('2026-01-20T00:00:00.000Z'));
    expect(result).toMatchObject({ status: 'rebuilt', seq: 1, at: T1 });
  });

  it('matches a consent stored under a former type name with entries under the current one', () => {
    const created = record(profileAt(undefined, 0), CREATE_BODY, 'create', 1, T1);
    const renamed = record(
      created.after,
      { Consents: [{ ConsentType: 'Conditions', ConsentVersion: '1.0', ConsentStatus: 3 }] },
      'merge',
      2,
      T2,
    );
    const names: CurrentNames = {
      renamedConsentTypes: true,
      consentTypeName: (name) => (/^(terms|conditions)$/i.test(name) ? 'Conditions' : name),
    };
    const entries = [...created.entries, ...renamed.entries];
    expect(rebuilt(entries, at(T2), names).Consents.map((c) => c.ConsentType)).toEqual([
      'Conditions',
    ]);
    // Without the names, the two are different consents.
    expect(rebuilt(entries, at(T2)).Consents.map((c) => c.ConsentType)).toEqual([
      'Terms',
      'Conditions',
    ]);
  });

  it('puts a nested item whose contact element history never had into a stand-in element', () => {
    const { entries } = threeWrites();
    const orphan = historyEntry('consent', {
      seq: 2,
      n: 50,
      modifiedAt: T2,
      list: 'Consents',
      container: { list: 'PhoneNumbers', fields: { PhoneNumber: '555-0199', PhoneType: 'Mobile' } },
      snapshot: { ConsentType: 'Sms', ConsentStatus: 1, IsActive: true },
    });
    const phones = rebuilt([...entries, orphan], at(T2)).PhoneNumbers;
    expect(phones[1]).toMatchObject({
      PhoneNumber: '555-0199',
      PhoneNumberNumeric: 5550199,
      Consents: [{ ConsentType: 'Sms', Key: 'sms' }],
    });
  });
});
