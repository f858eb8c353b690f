import {
  archivePreferences,
  archiveRequestProblems,
  type ArchivePreferencesWrite,
} from './preference-archive';
import {
  applyProfileWrite,
  type CallerScope,
  type ProfileData,
  type ProfileVocabulary,
  type RuleWriteKind,
  type StoredPreference,
  writerView,
} from '@app/profiles';
import { partialProfile } from '@app/profiles/testing';
import { PREFERENCE_PROFILE_RULES } from '../profile-rules/preference-profile-rules';

const t1 = { at: '2026-01-01T00:00:00.000Z', userId: 'alice' };
const t2 = { at: '2026-02-01T00:00:00.000Z', userId: 'bob' };

const pref = (ProgramId: string, FilterId: string, extra: object = {}) => ({
  ProgramId,
  ChannelId: 'Email',
  FilterId,
  PreferenceType: 1,
  ...extra,
});

/** A profile with preferences at every level: two emails, two phones, an address. */
function profileData(): ProfileData {
  return applyProfileWrite(
    undefined,
    {
      CustomerType: 'Customer',
      ProfilePreferences: [pref('1', '10'), pref('2', '20')],
      Emails: [
        {
          EmailAddress: 'Ann@Example.com',
          EmailAddressType: 'Personal',
          EmailPreferences: [pref('1', '11'), pref('1', '12')],
        },
        {
          EmailAddress: 'work@example.com',
          EmailAddressType: 'Work',
          EmailPreferences: [pref('1', '11')],
        },
      ],
      PhoneNumbers: [
        {
          PhoneNumber: '+1 (555) 010-2030',
          PhoneType: 'Mobile',
          PhonePreferences: [pref('1', '13', { ChannelId: 'Phone' })],
        },
        {
          PhoneNumber: '555-999',
          PhoneType: 'Home',
          PhonePreferences: [pref('1', '13', { ChannelId: 'Phone' })],
        },
      ],
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '1 Main  Street',
          PostalCode: 'AB1 2CD',
          AddressPreferences: [pref('1', '14', { ChannelId: 'Mail' })],
        },
      ],
    },
    'overwrite',
    t1,
  );
}

const everything = (_programId: string | undefined) => true;

/** "<list>:<element>:<filter>" of every active preference, in profile order. */
function activeOnes(data: ProfileData): string[] {
  const names: string[] = [];
  const add = (where: string, prefs: StoredPreference[]) =>
    prefs
      .filter((p) => p.IsActive !== false)
      .forEach((p) => names.push(`${where}:${p.ProgramId}/${p.FilterId}`));
  add('profile', data.ProfilePreferences);
  data.Emails.forEach((e) => add(e.EmailAddress, e.EmailPreferences));
  data.PhoneNumbers.forEach((p) => add(p.PhoneNumber, p.PhonePreferences));
  data.Addresses.forEach((a) => add(a.AddressType, a.AddressPreferences));
  return names;
}

const ALL = [
  'profile:1/10',
  'profile:2/20',
  'Ann@Example.com:1/11',
  'Ann@Example.com:1/12',
  'work@example.com:1/11',
  '+1 (555) 010-2030:1/13',
  '555-999:1/13',
  'Home:1/14',
];

const archive = (request: ArchivePreferencesWrite, mayArchive = everything) =>
  archivePreferences(profileData(), request, mayArchive, t2);

const without = (...names: string[]) => ALL.filter((name) => !names.includes(name));

describe('archivePreferences: scope rules', () => {
  it('a type alone archives every preference of the elements of that type', () => {
    expect(activeOnes(archive({ Emails: [{ EmailAddressType: ' personal ' }] }))).toEqual(
      without('Ann@Example.com:1/11', 'Ann@Example.com:1/12'),
    );
  });

  it('type and value archive that element across all its filters', () => {
    const data = archive({
      PhoneNumbers: [{ PhoneType: 'Mobile', PhoneNumber: '15550102030' }],
    });
    expect(activeOnes(data)).toEqual(without('+1 (555) 010-2030:1/13'));
  });

  it('type and value must both agree with the element', () => {
    expect(
      activeOnes(
        archive({ Emails: [{ EmailAddressType: 'Work', EmailAddress: 'ann@example.com' }] }),
      ),
    ).toEqual(ALL);
  });

  it('type, value and FilterId archive only that filter', () => {
    const data = archive({
      Emails: [{ EmailAddressType: 'Personal', EmailAddress: 'ANN@example.com', FilterId: '12' }],
    });
    expect(activeOnes(data)).toEqual(without('Ann@Example.com:1/12'));
  });

  it('a value alone archives it under any type', () => {
    expect(activeOnes(archive({ Emails: [{ EmailAddress: ' Work@Example.COM ' }] }))).toEqual(
      without('work@example.com:1/11'),
    );
  });

  it('a FilterId alone archives that filter on every element of the list', () => {
    expect(activeOnes(archive({ Emails: [{ FilterId: '11' }] }))).toEqual(
      without('Ann@Example.com:1/11', 'work@example.com:1/11'),
    );
  });

  it('compares FilterId and ProgramId as preference keys do (decimal ids as numbers)', () => {
    expect(activeOnes(archive({ Emails: [{ FilterId: ' 012 ' }] }))).toEqual(
      without('Ann@Example.com:1/12'),
    );
    expect(activeOnes(archive({ ProfilePreferences: [{ ProgramId: '02' }] }))).toEqual(
      without('profile:2/20'),
    );
  });

  it('addresses match by type, first line and postal code (spaces in the code ignored)', () => {
    expect(
      activeOnes(archive({ Addresses: [{ Address1: '1 main street', PostalCode: 'ab12cd' }] })),
    ).toEqual(without('Home:1/14'));
    expect(activeOnes(archive({ Addresses: [{ PostalCode: 'ZZ9' }] }))).toEqual(ALL);
  });

  it('profile preferences are selected by program and filter', () => {
    expect(activeOnes(archive({ ProfilePreferences: [{ ProgramId: '2' }] }))).toEqual(
      without('profile:2/20'),
    );
    expect(
      activeOnes(archive({ ProfilePreferences: [{ ProgramId: '1', FilterId: '20' }] })),
    ).toEqual(ALL);
  });

  it('a list only reaches its own preferences (Emails items never touch phones)', () => {
    expect(activeOnes(archive({ Emails: [{ FilterId: '13' }] }))).toEqual(ALL);
  });

  it('GlobalDeactivate archives every preference on the profile and its contact elements', () => {
    expect(activeOnes(archive({ GlobalDeactivate: true }))).toEqual([]);
  });

  it('archives only preferences of programs the writer may see', () => {
    const data = archive({ GlobalDeactivate: true }, (programId) => programId === '2');
    expect(activeOnes(data)).toEqual(without('profile:2/20'));
  });
});

describe('archivePreferences: what each item selects on a profile with two emails of one type', () => {
  // Program 1 (a filter per channel: 10 Solicit, 11 Email, 12 Text/SMS, 13 Phone, 14 Mail)
  // and program 2 (21 Email).
  const news = (FilterId: string, ChannelId: string, extra: object = {}) =>
    pref('1', FilterId, { ChannelId, ...extra });
  const offers = pref('2', '21');
  const stored = () =>
    applyProfileWrite(
      undefined,
      {
        CustomerType: 'Customer',
        ProfilePreferences: [news('10', 'Solicit')],
        Emails: [
          {
            EmailAddress: 'ann@example.com',
            EmailAddressType: 'Personal',
            EmailPreferences: [
              news('11', 'Email', { PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }] }),
              offers,
            ],
          },
          {
            EmailAddress: 'bob@example.com',
            EmailAddressType: 'Personal',
            EmailPreferences: [news('11', 'Email'), offers],
          },
        ],
        PhoneNumbers: [
          {
            PhoneNumber: '+1 (555) 010-2030',
            PhoneType: 'Mobile',
            PhonePreferences: [news('12', 'Text/SMS'), news('13', 'Phone')],
          },
        ],
        Addresses: [
          {
            AddressType: 'Home',
            Address1: '1 Main Street',
            PostalCode: 'AB1 2CD',
            City: 'Springfield',
            AddressPreferences: [news('14', 'Mail')],
          },
        ],
      },
      'overwrite',
      t1,
    );
  const every = [
    'profile:1/10',
    'ann@example.com:1/11',
    'ann@example.com:2/21',
    'bob@example.com:1/11',
    'bob@example.com:2/21',
    '+1 (555) 010-2030:1/12',
    '+1 (555) 010-2030:1/13',
    'Home:1/14',
  ];
  const archiving = (request: object) =>
    archivePreferences(stored(), request as ArchivePreferencesWrite, everything, t2);

  it.each([
    [
      'a type alone archives the preferences of every element of that type, on all filters',
      { Emails: [{ EmailAddressType: 'personal' }] },
      [
        'ann@example.com:1/11',
        'ann@example.com:2/21',
        'bob@example.com:1/11',
        'bob@example.com:2/21',
      ],
    ],
    [
      'type and value archive that element on all its filters (emails compare case-insensitively)',
      { Emails: [{ EmailAddressType: 'Personal', EmailAddress: ' ANN@Example.com ' }] },
      ['ann@example.com:1/11', 'ann@example.com:2/21'],
    ],
    [
      'type, value and FilterId archive only that filter (phones compare by digits)',
      {
        PhoneNumbers: [
          {
            PhoneType: 'Mobile',
            PhoneNumber: '1.555.010.2030',
            PhoneNumberNumeric: 1,
            FilterId: '12',
          },
        ],
        Emails: [{ EmailAddressType: 'Personal', EmailAddress: 'bob@example.com', FilterId: '21' }],
      },
      ['+1 (555) 010-2030:1/12', 'bob@example.com:2/21'],
    ],
    [
      'a value alone archives that element under any type',
      { Emails: [{ EmailAddress: 'bob@example.com' }] },
      ['bob@example.com:1/11', 'bob@example.com:2/21'],
    ],
    [
      'addresses by their key (AddressType, Address1, PostalCode) and profile preferences by filter',
      {
        Addresses: [{ AddressType: 'HOME', Address1: '1 main  street', PostalCode: 'ab12cd' }],
        ProfilePreferences: [{ FilterId: '10' }],
      },
      ['Home:1/14', 'profile:1/10'],
    ],
  ])('%s', (_case, request, archived) => {
    expect(activeOnes(archiving(request))).toEqual(
      every.filter((name) => !archived.includes(name)),
    );
  });

  it('a type the element does not have selects nothing: the data comes back as it was', () => {
    const data = stored();
    const request = {
      Emails: [{ EmailAddressType: 'Work', EmailAddress: 'ann@example.com' }],
      Addresses: [{ AddressType: 'Home', PostalCode: 'ZZ9 9ZZ' }],
    };
    expect(archivePreferences(data, request, everything, t2)).toBe(data);
  });

  it('GlobalDeactivate archives every preference with its reason; the contact elements stay', () => {
    const data = archiving({ GlobalDeactivate: true, Reason_Code: 'GDPR' });
    expect(activeOnes(data)).toEqual([]);
    const all = [
      ...data.ProfilePreferences,
      ...data.Emails.flatMap((e) => e.EmailPreferences),
      ...data.PhoneNumbers.flatMap((p) => p.PhonePreferences),
      ...data.Addresses.flatMap((a) => a.AddressPreferences),
    ];
    expect(all).toHaveLength(every.length);
    for (const preference of all) {
      expect(preference.PreferenceAttributes).toContainEqual({
        Key: '$Reason_Code',
        Value: 'GDPR',
      });
      expect(preference.LastModifiedDate).toBe(t2.at);
    }
    expect(data.Emails.map((e) => e.IsActive)).toEqual([true, true]);
    expect(data.PhoneNumbers.map((p) => p.IsActive)).toEqual([true]);
    expect(data.Addresses.map((a) => a.IsActive)).toEqual([true]);
  });
});

describe('archivePreferences: what an archived preference looks like', () => {
  it('is inactive, stamped with the write time and keeps its other fields', () => {
    const before = profileData();
    const after = archivePreferences(
      before,
      { ProfilePreferences: [{ ProgramId: '2' }] },
      everything,
      t2,
    );
    expect(after.ProfilePreferences[1]).toEqual({
      ...before.ProfilePreferences[1],
      IsActive: false,
      LastModifiedDate: t2.at,
    });
    expect(after.ProfilePreferences[0]).toEqual(before.ProfilePreferences[0]);
    expect(after.Edited).toEqual({ ...before.Edited, ModifiedDate: t2.at, ModifiedBy: 'bob' });
    // The input is not changed.
    expect(before.ProfilePreferences[1].IsActive).toBe(true);
  });

  it("records the item's Reason_Code as $Reason_Code, else the top-level one", () => {
    const data = archive({
      Reason_Code: 'TOP',
      Emails: [{ EmailAddress: 'ann@example.com', FilterId: '11', Reason_Code: 'ITEM' }],
      PhoneNumbers: [{ PhoneType: 'Mobile' }],
    });
    expect(data.Emails[0].EmailPreferences[0].PreferenceAttributes).toEqual([
      { Key: '$Reason_Code', Value: 'ITEM' },
    ]);
    expect(data.PhoneNumbers[0].PhonePreferences[0].PreferenceAttributes).toEqual([
      { Key: '$Reason_Code', Value: 'TOP' },
    ]);
  });

  it('with GlobalDeactivate, items still give the reason of what they select', () => {
    const data = archive({
      GlobalDeactivate: true,
      Reason_Code: 'ALL',
      ProfilePreferences: [{ ProgramId: '1', Reason_Code: 'ONE' }],
    });
    expect(data.ProfilePreferences.map((p) => p.PreferenceAttributes)).toEqual([
      [{ Key: '$Reason_Code', Value: 'ONE' }],
      [{ Key: '$Reason_Code', Value: 'ALL' }],
    ]);
  });

  it('the first selecting item with a Reason_Code decides', () => {
    const data = archive({
      Reason_Code: 'TOP',
      Emails: [
        { EmailAddressType: 'Personal' },
        { FilterId: '11', Reason_Code: 'SECOND' },
        { EmailAddress: 'ann@example.com', Reason_Code: 'THIRD' },
      ],
    });
    const [first, second] = data.Emails[0].EmailPreferences;
    expect(first.PreferenceAttributes).toEqual([{ Key: '$Reason_Code', Value: 'SECOND' }]);
    expect(second.PreferenceAttributes).toEqual([{ Key: '$Reason_Code', Value: 'THIRD' }]);
  });

  it('keeps other attributes and replaces an earlier $Reason_Code; no reason removes it', () => {
    const data = applyProfileWrite(
      undefined,
      {
        CustomerType: 'Customer',
        ProfilePreferences: [
          pref('1', '10', {
            PreferenceAttributes: [
              { Key: 'Source', Value: 'web' },
              { Key: '$reason_code', Value: 'OLD' },
            ],
          }),
        ],
      },
      'overwrite',
      t1,
    );
    const withReason = archivePreferences(
      data,
      { GlobalDeactivate: true, Reason_Code: 'NEW' },
      everything,
      t2,
    );
    expect(withReason.ProfilePreferences[0].PreferenceAttributes).toEqual([
      { Key: 'Source', Value: 'web' },
      { Key: '$Reason_Code', Value: 'NEW' },
    ]);
    const noReason = archivePreferences(data, { GlobalDeactivate: true }, everything, t2);
    expect(noReason.ProfilePreferences[0].PreferenceAttributes).toEqual([
      { Key: 'Source', Value: 'web' },
    ]);
  });

  it('leaves preferences already archived as they are, and returns the data unchanged when nothing is selected', () => {
    const once = archive({ ProfilePreferences: [{ ProgramId: '2' }], Reason_Code: 'FIRST' });
    const twice = archivePreferences(
      once,
      { GlobalDeactivate: true, Reason_Code: 'AGAIN' },
      everything,
      {
        at: '2026-03-01T00:00:00.000Z',
        userId: 'carol',
      },
    );
    expect(twice.ProfilePreferences[1]).toEqual(once.ProfilePreferences[1]);
    const data = profileData();
    expect(
      archivePreferences(
        data,
        { Emails: [{ EmailAddress: 'nobody@example.com' }] },
        everything,
        t2,
      ),
    ).toBe(data);
  });

  it('an item that selects nothing archives nothing', () => {
    expect(activeOnes(archive({ Emails: [{ Reason_Code: 'X' }] }))).toEqual(ALL);
  });
});

describe('archiveRequestProblems', () => {
  it('accepts GlobalDeactivate alone and items that name something', () => {
    expect(archiveRequestProblems({ GlobalDeactivate: true })).toEqual([]);
    expect(archiveRequestProblems({ PhoneNumbers: [{ PhoneType: 'Mobile' }] })).toEqual([]);
    expect(archiveRequestProblems({ ProfilePreferences: [{ FilterId: '3' }] })).toEqual([]);
  });

  it('refuses a body that archives nothing', () => {
    for (const body of [
      {},
      { GlobalDeactivate: false },
      { GlobalDeactivate: false, Reason_Code: 'X' },
      { Emails: [] },
      { Reason_Code: 'X', Emails: [] },
    ]) {
      expect(archiveRequestProblems(body)).toEqual([expect.stringContaining('Nothing to archive')]);
    }
  });

  it('refuses an item that names nothing, naming the item and the fields it may give', () => {
    expect(archiveRequestProblems({ Emails: [{ Reason_Code: 'X' }] })).toEqual([
      'Emails[0] selects nothing: give at least one of EmailAddressType, EmailAddress, FilterId',
    ]);
    expect(
      archiveRequestProblems({
        GlobalDeactivate: true,
        Addresses: [{ AddressType: 'Home' }, { Reason_Code: 'X', Address1: '  ' }],
      }),
    ).toEqual([
      'Addresses[1] selects nothing: give at least one of AddressType, Address1, PostalCode, FilterId',
    ]);
  });
});

describe('the archive-preferences write kind', () => {
  const vocabulary = {} as ProfileVocabulary;
  const archive = PREFERENCE_PROFILE_RULES.writeKinds!['archive-preferences'] as RuleWriteKind;
  type Stored = Parameters<RuleWriteKind>[0];
  const profile = (state: Stored['state'], data?: ProfileData): Stored =>
    partialProfile({ clientId: 'c', profileId: 1, state, appliedSeq: 1, data });
  const apply = (stored: Stored, body: ArchivePreferencesWrite, scope?: CallerScope) =>
    archive(stored, body, {
      at: t2.at,
      userId: 'bob',
      vocabulary,
      view: writerView(scope),
    });

  it("archives within the writer's program scope and takes the write's time and user", () => {
    const data = apply(
      profile('active', profileData()),
      { GlobalDeactivate: true },
      { programs: ['2'], consents: 'write', preferences: 'write' },
    )!;
    expect(activeOnes(data)).toEqual(without('profile:2/20'));
    expect(data.Edited.ModifiedBy).toBe('bob');
    expect(data.ProfilePreferences[1].LastModifiedDate).toBe(t2.at);
  });

  it('refuses a deleted profile', () => {
    expect(() => apply(profile('deleted'), { GlobalDeactivate: true })).toThrow(
      'The profile was deleted',
    );
  });
});
