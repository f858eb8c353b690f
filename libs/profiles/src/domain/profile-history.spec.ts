import { tenantKey } from '@app/shared';
import { compareHistoryEntries, historyEntries, type HistoryEntry } from './profile-history';
import type { ProfileData } from './profile-data.schema';
import { applyProfileWrite, type WriteMode } from './profile-merge';
import type { Profile } from './profile.schema';
import type { ProfileWrite, ProfileWriteKind } from './profile-write.schema';

const T1 = '2026-01-01T00:00:00.000Z';
const T2 = '2026-02-01T00:00:00.000Z';

function writeOf(seq: number, kind: ProfileWriteKind, at: string): ProfileWrite {
  return {
    _id: tenantKey('c1', 7, seq),
    clientId: 'c1',
    profileId: 7,
    seq,
    kind,
    userId: seq === 1 ? 'alice' : 'bob',
    acceptedAt: new Date(at),
    status: 'pending',
    attempts: 0,
  };
}

function profileOf(data: ProfileData | undefined, appliedSeq: number): Profile {
  return {
    _id: tenantKey('c1', 7),
    clientId: 'c1',
    profileId: 7,
    state: data ? 'active' : 'pending',
    appliedSeq,
    data,
  };
}

const CREATE_BODY = {
  CustomerType: 'Customer',
  CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
  CustomFields: [
    { Name: 'Tier', Value: 'Gold' },
    { Name: 'c1', Value: 'x' },
  ],
  ProfileTags: [{ Name: 'vip' }],
  Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
  ProfilePreferences: [
    { ProgramId: 'P1', ChannelId: 'Email', FilterId: 'Weekly ', PreferenceType: 1 },
  ],
  Emails: [
    {
      EmailAddress: 'Ann@Example.com',
      EmailAddressType: 'Personal',
      EmailPreferences: [
        {
          ProgramId: 'P1',
          ChannelId: 'Email',
          FilterId: 'F1',
          PreferenceAttributes: [{ Key: 'Topic', Value: 'Sports' }],
          ConsentAssociations: [{ ConsentType: 'Email', ConsentVersion: '1.0' }],
        },
      ],
      Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
    },
  ],
  PhoneNumbers: [{ PhoneNumber: '+1 (555) 010-2030', PhoneType: 'Mobile' }],
};

/** Applies a write the way the worker does: the profile after it, and its entries. */
function apply(
  before: Profile,
  body: Record<string, unknown>,
  mode: WriteMode | 'create',
  seq: number,
  at: string,
): { after: Profile; entries: HistoryEntry[] } {
  const write = writeOf(seq, mode === 'create' ? 'create' : mode, at);
  const data = applyProfileWrite(
    mode === 'create' ? undefined : before.data,
    body,
    mode === 'create' ? 'overwrite' : mode,
    { at, userId: write.userId },
  );
  // What the worker reads back: a stored (JSON) copy.
  const after = JSON.parse(JSON.stringify(profileOf(data, seq))) as Profile;
  return { after, entries: historyEntries(before, after, write) };
}

const created = () => apply(profileOf(undefined, 0), CREATE_BODY, 'create', 1, T1);

const summary = (entries: HistoryEntry[]) =>
  entries.map((entry) => [
    entry.category,
    entry.list,
    entry.container?.list,
    entry.snapshot.IsActive,
  ]);

describe('historyEntries', () => {
  it('records everything of a create as first entries, in a fixed order with write ids', () => {
    const { entries } = created();
    expect(summary(entries)).toEqual([
      ['standard', undefined, undefined, true],
      ['customField', 'CustomFields', undefined, true],
      ['customField', 'CustomFields', undefined, true],
      ['contact', 'Emails', undefined, true],
      ['contact', 'PhoneNumbers', undefined, true],
      ['preference', 'ProfilePreferences', undefined, true],
      ['preference', 'EmailPreferences', 'Emails', true],
      ['consent', 'Consents', undefined, true],
      ['consent', 'Consents', 'Emails', true],
    ]);
    expect(entries.map((entry) => entry._id)).toEqual(entries.map((_, n) => `c1|7|1|${n}`));
    for (const entry of entries) {
      expect(entry).toMatchObject({ clientId: 'c1', profileId: 7, seq: 1, modifiedAt: T1 });
    }
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
    expect(email.snapshot.EmailAddress).toBe('Ann@Example.com');
  });

  it('names the container of contact preferences and consents, and the filter of preferences', () => {
    const { entries } = created();
    const preference = entries.find((entry) => entry.list === 'EmailPreferences')!;
    expect(preference.container).toEqual({
      list: 'Emails',
      fields: { EmailAddress: 'Ann@Example.com', EmailAddressType: 'Personal' },
    });
    expect(preference.filterKey).toBe('f1');
    expect(preference.snapshot.PreferenceAttributes).toEqual([{ Key: 'Topic', Value: 'Sports' }]);
    const profilePreference = entries.find((entry) => entry.list === 'ProfilePreferences')!;
    expect(profilePreference.container).toBeUndefined();
    expect(profilePreference.filterKey).toBe('weekly');
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
      ['consent', 'Consents', 'Emails', true],
    ]);
    expect(entries[0].snapshot.CustomerName).toEqual({ FirstName: 'Anne', LastName: 'Lee' });
    expect(entries[1].snapshot).toMatchObject({ Name: 'Tier', Value: 'Platinum' });
    expect((entries[1].snapshot.Edited as Record<string, string>).ModifiedDate).toBe(T2);
    expect(entries[2].snapshot).toMatchObject({ ConsentType: 'Email', ConsentStatus: 3 });
    expect(entries.map((entry) => entry._id)).toEqual(['c1|7|2|0', 'c1|7|2|1', 'c1|7|2|2']);
  });

  it('records a preference change inside it (attributes, associations) as a change', () => {
    const { after } = created();
    const { entries } = apply(
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
    expect(summary(entries)).toEqual([['preference', 'EmailPreferences', 'Emails', true]]);
    expect(entries[0].snapshot.PreferenceAttributes).toEqual([{ Key: 'Topic', Value: 'News' }]);
    expect(entries[0].snapshot.LastModifiedDate).toBe(T2);
  });

  it('records a deactivation and a removal as the item with IsActive false', () => {
    const { after } = created();
    const body = JSON.parse(JSON.stringify(CREATE_BODY)) as Record<string, any>;
    delete body.Emails; // removed with its preference and consent
    body.CustomFields[1].IsActive = false;
    const { entries } = apply(after, body, 'overwrite', 2, T2);
    expect(summary(entries)).toEqual([
      ['customField', 'CustomFields', undefined, false],
      ['contact', 'Emails', undefined, false],
      ['preference', 'EmailPreferences', 'Emails', false],
      ['consent', 'Consents', 'Emails', false],
    ]);
    const email = entries[1].snapshot;
    expect(email.EmailAddress).toBe('Ann@Example.com');
    expect(email.Edited).toEqual({
      CreateDate: T1,
      CreatedBy: 'alice',
      ModifiedDate: T2,
      ModifiedBy: 'bob',
    });
    expect(entries[2].snapshot.LastModifiedDate).toBe(T2);
    expect(entries[2].container?.fields.EmailAddress).toBe('Ann@Example.com');
  });

  it('does not record an item removed that was already inactive', () => {
    const { after } = created();
    const body = JSON.parse(JSON.stringify(CREATE_BODY)) as Record<string, any>;
    body.CustomFields[1].IsActive = false;
    const deactivated = apply(after, body, 'overwrite', 2, T2).after;
    body.CustomFields.pop();
    expect(apply(deactivated, body, 'overwrite', 3, T2).entries).toEqual([]);
  });

  it('sees no change where the stored document spells "nothing" differently', () => {
    const { after } = created();
    // Stored without the empty lists a merge writes back ([]), and with a null field.
    const stored = JSON.parse(JSON.stringify(after)) as Profile;
    const preference = stored.data!.ProfilePreferences[0] as unknown as Record<string, unknown>;
    delete preference.ConsentAssociations;
    delete preference.PreferenceAttributes;
    preference.FrequencyId = null;
    const { entries } = apply(
      stored,
      {
        ProfilePreferences: [
          { ProgramId: 'P1', ChannelId: 'Email', FilterId: 'Weekly ', PreferenceType: 1 },
        ],
      },
      'merge',
      2,
      T2,
    );
    expect(entries).toEqual([]);
  });

  it('is deterministic and leaves its inputs alone: recording again rewrites the same documents', () => {
    const { after } = created();
    const before = JSON.parse(JSON.stringify(after)) as Profile;
    const body = {
      CustomerName: { LastName: 'Smith' },
      CustomFields: [{ Name: 'c1', Value: 'y' }],
    };
    const first = apply(before, body, 'merge', 2, T2);
    const second = apply(before, body, 'merge', 2, T2);
    expect(second.entries).toEqual(first.entries);
    expect(before).toEqual(after);
    // Upserts by _id: recording twice stores what recording once stores.
    const store = new Map<string, HistoryEntry>();
    for (const entry of [...first.entries, ...second.entries]) store.set(entry._id, entry);
    expect([...store.values()]).toEqual(first.entries);
  });

  it('records each consent status change once, on the profile and on a contact element; a restatement records nothing', () => {
    const email = 'walk@example.com';
    const writes: Record<string, unknown>[] = [
      {
        CustomerType: 'Customer',
        Consents: [
          { ConsentType: 'Terms', ConsentStatus: 4 },
          { ConsentType: 'Mail', ConsentStatus: 2 },
          { ConsentType: 'Sms', ConsentStatus: 1 },
          { ConsentType: 'Marketing', ConsentStatus: 4 },
        ],
        Emails: [{ EmailAddress: email, Consents: [{ ConsentType: 'Email', ConsentStatus: 4 }] }],
      },
      ...[[2, 1], [1], [1], [3], [1]].map(([terms, marketing]) => ({
        Consents: [
          { ConsentType: 'Terms', ConsentStatus: terms },
          ...(marketing ? [{ ConsentType: 'Marketing', ConsentStatus: marketing }] : []),
        ],
        Emails: [
          { EmailAddress: email, Consents: [{ ConsentType: 'Email', ConsentStatus: terms }] },
        ],
      })),
      ...[1, 3, 1].map((mail) => ({
        Consents: [
          { ConsentType: 'Mail', ConsentStatus: mail },
          { ConsentType: 'Sms', ConsentStatus: 1 },
        ],
      })),
    ];
    let profile = profileOf(undefined, 0);
    const recorded: HistoryEntry[] = [];
    writes.forEach((body, index) => {
      const at = new Date(Date.parse(T1) + index * 1000).toISOString();
      const result = apply(profile, body, index ? 'merge' : 'create', index + 1, at);
      profile = result.after;
      recorded.push(...result.entries);
    });
    const consents = recorded.filter((entry) => entry.category === 'consent');
    const ofType = (type: string, inEmail = false) =>
      consents
        .filter((entry) => entry.snapshot.ConsentType === type && !!entry.container === inEmail)
        .map((entry) => entry.snapshot.ConsentStatus);
    expect(ofType('Terms')).toEqual([4, 2, 1, 3, 1]);
    expect(ofType('Mail')).toEqual([2, 1, 3, 1]);
    expect(ofType('Sms')).toEqual([1]);
    expect(ofType('Marketing')).toEqual([4, 1]);
    expect(ofType('Email', true)).toEqual([4, 2, 1, 3, 1]);
  });

  it('records nothing for a tag removal or a delete', () => {
    const { after } = created();
    const untagged: Profile = {
      ...after,
      appliedSeq: 2,
      data: { ...after.data!, ProfileTags: [] },
    };
    expect(historyEntries(after, untagged, writeOf(2, 'remove-tag', T2))).toEqual([]);
    const deleted: Profile = { ...after, appliedSeq: 2, state: 'deleted', data: undefined };
    expect(historyEntries(after, deleted, writeOf(2, 'delete', T2))).toEqual([]);
  });
});

describe('compareHistoryEntries', () => {
  const entry = (
    seq: number,
    at: string,
    category: HistoryEntry['category'],
    snapshot: Record<string, unknown> = {},
  ): HistoryEntry => ({
    _id: tenantKey('c1', 7, seq, 0),
    clientId: 'c1',
    profileId: 7,
    seq,
    n: 0,
    category,
    modifiedAt: at,
    snapshot,
  });

  it('orders by modified date, then write', () => {
    const sorted = [entry(3, T2, 'standard'), entry(2, T1, 'standard'), entry(1, T1, 'standard')]
      .sort(compareHistoryEntries)
      .map((e) => e.seq);
    expect(sorted).toEqual([1, 2, 3]);
  });

  it('orders consents by type, then version (numeric-aware), then modified date', () => {
    const sorted = [
      entry(1, T2, 'consent', { ConsentType: 'Terms', ConsentVersion: '10.0' }),
      entry(2, T2, 'consent', { ConsentType: 'email', ConsentVersion: '1.0' }),
      entry(3, T1, 'consent', { ConsentType: 'Terms', ConsentVersion: '2.0' }),
      entry(4, T1, 'consent', { ConsentType: 'Email', ConsentVersion: '1.0' }),
    ]
      .sort(compareHistoryEntries)
      .map((e) => e.seq);
    expect(sorted).toEqual([4, 2, 3, 1]);
  });
});
