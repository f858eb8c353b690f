import {
  fakeConsentHistory,
  fakeHistoryModule,
  fakePreferenceHistory,
  OWN_FIELDS_CREATE_BODY,
  historyEntry,
  historyRecorder,
  historySummary as summary,
  historyWrite,
  profileAt,
  restatedOnSparselyStored,
  T1,
  T2,
} from '../testing';
import { emailRule, preferenceRule } from './element-rules';
import { compareHistoryEntries, historyEntries, type HistoryEntry } from './profile-history';
import type { ProfileData, StoredConsent, StoredPreference } from './profile-data.schema';
import type {
  EmailSnapshot,
  HistoryContainer,
  HistorySnapshot,
  ProfileHistory,
  StandardSnapshot,
} from './profile-history.schema';

/** Any field an entry's item may have (the spec reads them by kind it knows). */
const itemOf = (entry: ProfileHistory) =>
  entry.snapshot as Partial<StandardSnapshot & EmailSnapshot & StoredPreference>;
import { ProfileRules } from './profile-rules';
import { contactPreferences } from './profile-shape';
import type { HistoryChange, HistoryDiff } from './profile-rules.port';
import type { Profile } from './profile.schema';

/** Preferences (a contact's with its filter key) and consents, as the real modules record them. */
const FAKE_PREFERENCES = fakePreferenceHistory('fakePreference', { filterKeys: true });
const FAKE_CONSENTS = fakeConsentHistory('fakeConsent');

const RULES = new ProfileRules([FAKE_PREFERENCES, FAKE_CONSENTS]);

const apply = historyRecorder(RULES);

const created = (rules = RULES) =>
  historyRecorder(rules)(profileAt(undefined, 0), OWN_FIELDS_CREATE_BODY, 'create', 1, T1);

/** The container naming the email of OWN_FIELDS_CREATE_BODY. */
const ANN_EMAIL: HistoryContainer = {
  list: 'Emails',
  fields: { EmailAddress: 'Ann@Example.com', EmailAddressType: 'Personal' },
};

/** What a module's history rule was handed, one call per write. */
interface Handed {
  before: ProfileData | undefined;
  after: ProfileData;
  diff: HistoryDiff;
}

/** A fake module that keeps what it is handed and records what `record` makes of it. */
function spyModule(record: (handed: Handed) => HistoryChange[] = () => []) {
  const calls: Handed[] = [];
  const module = fakeHistoryModule('spy', (before, after, diff) => {
    calls.push({ before, after, diff });
    return record({ before, after, diff });
  });
  return { module, calls };
}

/** The entries a create of OWN_FIELDS_CREATE_BODY records of the profile's own categories, in order. */
const OWN_CREATE_ENTRIES = [
  ['standard', undefined, undefined, true],
  ['customField', 'CustomFields', undefined, true],
  ['customField', 'CustomFields', undefined, true],
  ['contact', 'Emails', undefined, true],
  ['contact', 'PhoneNumbers', undefined, true],
];

describe('historyEntries', () => {
  it('records everything of a create as first entries, in a fixed order with write ids', () => {
    const { entries } = created();
    expect(summary(entries)).toEqual([
      ...OWN_CREATE_ENTRIES,
      ['fakePreference', 'ProfilePreferences', undefined, true],
      ['fakePreference', 'EmailPreferences', 'Emails', true],
      ['fakeConsent', 'Consents', undefined, true],
      ['fakeConsent', 'Consents', 'Emails', true],
    ]);
    expect(entries.map((entry) => entry._id)).toEqual(entries.map((_, n) => `c1|7|1|${n}`));
    expect(entries.map((entry) => entry.n)).toEqual(entries.map((_, n) => n));
    for (const entry of entries) {
      expect(entry).toMatchObject({ clientId: 'c1', profileId: 7, seq: 1, modifiedAt: T1 });
    }
  });

  it('records its own categories only without rule modules', () => {
    const { entries } = created(new ProfileRules([]));
    expect(summary(entries)).toEqual(OWN_CREATE_ENTRIES);
  });

  it("appends the modules' entries after its own, in the modules' order, with increasing n", () => {
    const { entries } = created(new ProfileRules([FAKE_CONSENTS, FAKE_PREFERENCES]));
    expect(summary(entries).slice(5)).toEqual([
      ['fakeConsent', 'Consents', undefined, true],
      ['fakeConsent', 'Consents', 'Emails', true],
      ['fakePreference', 'ProfilePreferences', undefined, true],
      ['fakePreference', 'EmailPreferences', 'Emails', true],
    ]);
    expect(entries.map((entry) => entry.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(entries.map((entry) => entry._id)).toEqual(entries.map((_, n) => `c1|7|1|${n}`));
  });

  it('keeps the standard fields with Edited, and contacts without their nested lists', () => {
    const { entries } = created();
    expect(entries[0].snapshot).toEqual({
      IsActive: true,
      CustomerType: 'Customer',
      PreserveConsents: true,
      PreservePreferences: true,
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      Edited: { CreateDate: T1, CreatedBy: 'alice', ModifiedDate: T1, ModifiedBy: 'alice' },
    });
    const email = entries.find((entry) => entry.list === 'Emails')!;
    expect(email.snapshot).not.toHaveProperty('EmailPreferences');
    expect(email.snapshot).not.toHaveProperty('Consents');
    expect(email.snapshot).not.toHaveProperty('Key');
    expect(itemOf(email).EmailAddress).toBe('Ann@Example.com');
  });

  it("hands the modules the data and every contact element's pair, named by its container", () => {
    const spy = spyModule();
    const { after } = created(new ProfileRules([spy.module]));
    expect(spy.calls).toHaveLength(1);
    const [create] = spy.calls;
    // A create: nothing before; the data after as stored.
    expect(create.before).toBeUndefined();
    expect(create.after).toEqual(after.data);
    // Each pair of a create: the element added (nothing before), named by its container.
    const added = (preferences: string, container: HistoryContainer, element: unknown) => [
      { list: container.list, preferences, container, after: element },
      undefined,
    ];
    expect(create.diff.contacts.map(({ before, ...pair }) => [pair, before])).toEqual([
      added('EmailPreferences', ANN_EMAIL, after.data!.Emails[0]),
      added(
        'PhonePreferences',
        {
          list: 'PhoneNumbers',
          fields: { PhoneNumber: '+1 (555) 010-2030', PhoneType: 'Mobile' },
        },
        after.data!.PhoneNumbers[0],
      ),
    ]);

    // A write removing the email: its pair has no after, and is named as it was.
    const body = JSON.parse(JSON.stringify(OWN_FIELDS_CREATE_BODY)) as Record<string, any>;
    delete body.Emails;
    const next = historyRecorder(new ProfileRules([spy.module]))(after, body, 'overwrite', 2, T2);
    expect(spy.calls).toHaveLength(2);
    const removal = spy.calls[1];
    expect(removal.before).toEqual(after.data);
    expect(removal.after).toEqual(next.after.data);
    const email = removal.diff.contacts.find((pair) => pair.list === 'Emails')!;
    expect(email.before).toEqual(after.data!.Emails[0]);
    expect(email.after).toBeUndefined();
    expect(email.container).toEqual(ANN_EMAIL);
  });

  it('keeps what a module says of its change: list, container and filter key', () => {
    const { entries } = created();
    const preference = entries.find((entry) => entry.list === 'EmailPreferences')!;
    expect(preference).toMatchObject({
      category: 'fakePreference',
      container: ANN_EMAIL,
      filterKey: 'filter:F1',
    });
    expect(itemOf(preference).PreferenceAttributes).toEqual([{ Key: 'Topic', Value: 'Sports' }]);
    const profilePreference = entries.find((entry) => entry.list === 'ProfilePreferences')!;
    expect(profilePreference).not.toHaveProperty('container');
    expect(profilePreference).not.toHaveProperty('filterKey');
  });

  it('records only what a merge changed', () => {
    const { after } = created();
    const { entries } = apply(
      after,
      {
        CustomerName: { FirstName: 'Anne' },
        // Named again with the same value: touched, not changed.
        CustomFields: [
          { Name: 'Tier', Value: 'Platinum' },
          { Name: 'c1', Value: 'x' },
        ],
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
    expect(summary(entries)).toEqual([
      ['standard', undefined, undefined, true],
      ['customField', 'CustomFields', undefined, true],
      ['fakeConsent', 'Consents', 'Emails', true],
    ]);
    expect(itemOf(entries[0]).CustomerName).toEqual({ FirstName: 'Anne', LastName: 'Lee' });
    expect(entries[1].snapshot).toMatchObject({ Name: 'Tier', Value: 'Platinum' });
    expect(itemOf(entries[1]).Edited?.ModifiedDate).toBe(T2);
    expect(entries[2].snapshot).toMatchObject({ ConsentType: 'Email', ConsentStatus: 3 });
    expect(entries.map((entry) => entry._id)).toEqual(['c1|7|2|0', 'c1|7|2|1', 'c1|7|2|2']);
  });

  it("compares an item's nested lists only when a module asks for it whole", () => {
    const { after } = created();
    const spy = spyModule();
    const { entries } = historyRecorder(new ProfileRules([spy.module]))(
      after,
      {
        Emails: [
          {
            EmailAddress: 'Ann@Example.com',
            EmailPreferences: [
              {
                ProgramId: 'P1',
                ChannelId: 'Email',
                FilterId: 'F1',
                PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }],
              },
            ],
          },
        ],
      },
      'merge',
      2,
      T2,
    );
    // The email's own content did not change, and the spy recorded nothing.
    expect(entries).toEqual([]);
    const { before, after: now, diff } = spy.calls[0];
    expect(diff.changedItems(before?.Emails, now.Emails, emailRule)).toEqual([]);
    const [email] = diff.changedItems(before?.Emails, now.Emails, emailRule, { whole: true });
    expect(email.EmailAddress).toBe('Ann@Example.com');
    expect(email.EmailPreferences).toMatchObject([
      { PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }] },
    ]);

    const pair = diff.contacts.find((contact) => contact.list === 'Emails')!;
    const changed = (options?: { whole?: boolean }) =>
      diff.changedItems(
        contactPreferences(pair.before),
        contactPreferences(pair.after),
        preferenceRule,
        options,
      );
    expect(changed()).toEqual([]);
    expect(changed({ whole: false })).toEqual([]);
    expect(changed({ whole: true })).toHaveLength(1);
    const [preference] = changed({ whole: true });
    expect(preference.PreferenceAttributes).toEqual([{ Key: 'Topic', Value: 'News' }]);
    expect(preference.LastModifiedDate).toBe(T2);
    expect(preference).not.toHaveProperty('Key');
  });

  it('records a deactivation and a removal as the item with IsActive false', () => {
    const { after } = created();
    const body = JSON.parse(JSON.stringify(OWN_FIELDS_CREATE_BODY)) as Record<string, any>;
    delete body.Emails; // removed with its preference and consent
    body.CustomFields[1].IsActive = false;
    const { entries } = apply(after, body, 'overwrite', 2, T2);
    expect(summary(entries)).toEqual([
      ['customField', 'CustomFields', undefined, false],
      ['contact', 'Emails', undefined, false],
      ['fakePreference', 'EmailPreferences', 'Emails', false],
      ['fakeConsent', 'Consents', 'Emails', false],
    ]);
    const email = itemOf(entries[1]);
    expect(email.EmailAddress).toBe('Ann@Example.com');
    expect(email.Edited).toEqual({
      CreateDate: T1,
      CreatedBy: 'alice',
      ModifiedDate: T2,
      ModifiedBy: 'bob',
    });
    // Stamped as its rule says: a preference's LastModifiedDate, a consent's Edited.
    expect(itemOf(entries[2]).LastModifiedDate).toBe(T2);
    expect(entries[2].container?.fields.EmailAddress).toBe('Ann@Example.com');
    expect(itemOf(entries[3]).Edited).toMatchObject({ ModifiedDate: T2, ModifiedBy: 'bob' });
    expect(entries[3].container?.fields.EmailAddress).toBe('Ann@Example.com');
  });

  it('does not record an item removed that was already inactive', () => {
    const { after } = created();
    const body = JSON.parse(JSON.stringify(OWN_FIELDS_CREATE_BODY)) as Record<string, any>;
    body.CustomFields[1].IsActive = false;
    const deactivated = apply(after, body, 'overwrite', 2, T2).after;
    body.CustomFields.pop();
    expect(apply(deactivated, body, 'overwrite', 3, T2).entries).toEqual([]);
  });

  it('sees no change where the stored document spells "nothing" differently', () => {
    const { after } = created();
    expect(restatedOnSparselyStored(apply, after)).toEqual([]);
  });

  it('is deterministic and leaves its inputs alone: recording again rewrites the same documents', () => {
    const { after } = created();
    const before = JSON.parse(JSON.stringify(after)) as Profile;
    const body = {
      CustomerName: { LastName: 'Smith' },
      CustomFields: [{ Name: 'c1', Value: 'y' }],
      Consents: [{ ConsentType: 'Terms', ConsentStatus: 2 }],
    };
    const first = apply(before, body, 'merge', 2, T2);
    const second = apply(before, body, 'merge', 2, T2);
    expect(summary(first.entries)).toEqual([
      ['standard', undefined, undefined, true],
      ['customField', 'CustomFields', undefined, true],
      ['fakeConsent', 'Consents', undefined, true],
    ]);
    expect(second.entries).toEqual(first.entries);
    expect(before).toEqual(after);
    // Upserts by _id: recording twice stores what recording once stores.
    const store = new Map<string, HistoryEntry>();
    for (const entry of [...first.entries, ...second.entries]) store.set(entry._id, entry);
    expect([...store.values()]).toEqual(first.entries);
  });

  it('records nothing for a tag removal or a delete, and asks no module', () => {
    const spy = spyModule();
    const rules = new ProfileRules([spy.module]);
    const { after } = created();
    const untagged: Profile = {
      ...after,
      appliedSeq: 2,
      data: { ...after.data!, ProfileTags: [] },
    };
    expect(historyEntries(after, untagged, historyWrite(2, 'remove-tag', T2), rules)).toEqual([]);
    const deleted: Profile = { ...after, appliedSeq: 2, state: 'deleted', data: undefined };
    expect(historyEntries(after, deleted, historyWrite(2, 'delete', T2), rules)).toEqual([]);
    expect(spy.calls).toEqual([]);
  });
});

describe('compareHistoryEntries', () => {
  const entry = (
    seq: number,
    at: string,
    category: HistoryEntry['category'],
    snapshot: Partial<StoredConsent> = {},
    n = 0,
  ): HistoryEntry =>
    historyEntry(category, { seq, n, modifiedAt: at, snapshot: snapshot as HistorySnapshot });

  it('orders by modified date, then write', () => {
    const sorted = [entry(3, T2, 'standard'), entry(2, T1, 'standard'), entry(1, T1, 'standard')]
      .sort(compareHistoryEntries)
      .map((e) => e.seq);
    expect(sorted).toEqual([1, 2, 3]);
  });

  it('orders the entries of one write by their place in it', () => {
    const sorted = [entry(2, T1, 'contact', {}, 1), entry(2, T1, 'contact', {}, 0)]
      .sort(compareHistoryEntries)
      .map((e) => e._id);
    expect(sorted).toEqual(['c1|7|2|0', 'c1|7|2|1']);
  });

  it("orders a module's entries alike, whatever their snapshot (the module's compare orders its own)", () => {
    const sorted = [
      entry(1, T2, 'consent', { ConsentType: 'Terms', ConsentVersion: '10.0' }),
      entry(2, T2, 'consent', { ConsentType: 'email', ConsentVersion: '1.0' }),
      entry(3, T1, 'consent', { ConsentType: 'Terms', ConsentVersion: '2.0' }),
      entry(4, T1, 'consent', { ConsentType: 'Email', ConsentVersion: '1.0' }),
    ]
      .sort(compareHistoryEntries)
      .map((e) => e.seq);
    expect(sorted).toEqual([3, 4, 1, 2]);
  });
});
