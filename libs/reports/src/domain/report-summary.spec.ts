import type { CountedStep, Profile, ProfileData, ProfileState } from '@app/profiles';
import { type DeepPartial, partialProfile } from '@app/profiles/testing';
import { decodeCountKey, decodeDailyKey, encodeCountKey, encodeDailyKey } from './report-keys';
import { passDelta, reportSummary, writeEvents } from './report-summary';
import { currentCounts, dayCounts, daysBetween, type ReportNames } from './report-view';
import { countsCsv, dailyCsv } from './report-csv';

const profile = (
  appliedSeq: number,
  data?: DeepPartial<ProfileData>,
  state: ProfileState = 'active',
): Profile =>
  partialProfile({
    _id: `c1|7`,
    clientId: 'c1',
    profileId: 7,
    appliedSeq,
    state,
    ...(data ? { data: { CustomerType: 'Customer', IsActive: true, ...data } } : {}),
  });

const consent = (type: string, status: number, extra: object = {}) => ({
  ConsentType: type,
  Key: type.toLowerCase(),
  ConsentVersion: '1.0',
  ConsentStatus: status,
  ConsentDate: '2026-01-01T00:00:00Z',
  IsActive: true,
  ...extra,
});
const preference = (extra: object = {}) => ({
  ProgramId: '1',
  FilterId: '2',
  ChannelId: 'Email',
  PreferenceType: 1,
  PreferenceStatus: 'Active',
  IsActive: true,
  ...extra,
});
const email = (address: string, extra: object = {}) => ({
  EmailAddress: address,
  IsActive: true,
  Consents: [],
  EmailPreferences: [],
  ...extra,
});
const step = (before: Profile, after: Profile, kind = 'merge', at = '2026-03-04T10:00:00Z') =>
  ({
    write: { kind, seq: after.appliedSeq, acceptedAt: new Date(at) },
    before,
    after,
  }) as CountedStep;

const NAMES: ReportNames = {
  customerType: (key) => (key === 'customer' ? 'Customer' : key),
  consentType: (key) => key[0].toUpperCase() + key.slice(1),
  program: (id) => (id === '1' ? 'News' : undefined),
  filter: (id) => (id === '2' ? 'News by email' : undefined),
};

describe('report keys', () => {
  it('round-trip any configured name, separators included', () => {
    const count = {
      kind: 'consent',
      customerType: 'a|b%c',
      level: 'Email',
      consentType: 'x|y.z$',
      version: '1.0',
      status: 'Granted',
    } as const;
    expect(decodeCountKey(encodeCountKey(count))).toEqual(count);
    const daily = {
      event: 'OptIns',
      customerType: 'c',
      programId: '1',
      filterId: '2',
      channel: 'Text/SMS',
    } as const;
    expect(decodeDailyKey(encodeDailyKey(daily))).toEqual(daily);
    expect(decodeCountKey('zz|1')).toBeUndefined();
  });
});

describe('reportSummary', () => {
  it('counts an active profile, its consents and preferences, and its active elements only', () => {
    const summary = reportSummary(
      profile(3, {
        Consents: [consent('Terms', 1), consent('Old', 1, { IsActive: false })] as never,
        ProfilePreferences: [preference({ ChannelId: 'Solicit', MatchType: 'Implied' })] as never,
        Emails: [
          email('a@x.io', {
            Consents: [consent('Marketing', 3), consent('Terms', 1, { Expired: true })],
            EmailPreferences: [preference(), preference({ FilterId: '3', IsActive: false })],
          }),
          email('gone@x.io', { IsActive: false, Consents: [consent('Terms', 1)] }),
        ] as never,
      }),
    );
    const decoded = [...summary].map(([key, n]) => [decodeCountKey(key), n]);
    expect(decoded).toEqual(
      expect.arrayContaining([
        [{ kind: 'profile', customerType: 'customer', active: true }, 1],
        [expect.objectContaining({ level: 'Profile', consentType: 'terms', status: 'Granted' }), 1],
        [
          expect.objectContaining({ level: 'Email', consentType: 'marketing', status: 'Revoked' }),
          1,
        ],
        [expect.objectContaining({ level: 'Email', consentType: 'terms', status: 'Expired' }), 1],
        [expect.objectContaining({ channel: 'Solicit', match: 'Implied', status: 'Active' }), 1],
        [expect.objectContaining({ filterId: '2', type: 'OptIn', status: 'Active' }), 1],
        [expect.objectContaining({ filterId: '3', status: 'Archived' }), 1],
      ]),
    );
    expect(decoded).toHaveLength(7);
  });

  it('counts nothing of a shell or a tombstone', () => {
    expect(reportSummary(profile(0)).size).toBe(0);
    expect(reportSummary(profile(4, undefined, 'deleted')).size).toBe(0);
  });

  it('counts the lists marking a contact element', () => {
    const summary = reportSummary(
      profile(2, {
        Emails: [
          email('a@x.io', {
            EmailPreferences: [
              preference({
                ProgramId: '9',
                FilterId: '10',
                PreferenceAttributes: [{ Key: '$DoNotContactLists', Value: '1,3' }],
              }),
            ],
          }),
        ] as never,
      }),
    );
    const marks = [...summary.keys()].map(decodeCountKey).filter((key) => key?.kind === 'dnc');
    expect(marks).toEqual([
      { kind: 'dnc', customerType: 'customer', channel: 'Email', listId: '1' },
      { kind: 'dnc', customerType: 'customer', channel: 'Email', listId: '3' },
    ]);
  });
});

describe('writeEvents', () => {
  const events = (before: Profile, after: Profile, kind?: string) =>
    writeEvents(step(before, after, kind)).map((event) => event.event);

  it('tells a creation with its grants and opt-ins', () => {
    const created = profile(1, {
      Consents: [consent('Terms', 1), consent('Mail', 2)] as never,
      ProfilePreferences: [preference({ ChannelId: 'Solicit' })] as never,
    });
    expect(events(profile(0, undefined, 'pending'), created).sort()).toEqual(
      ['Denials', 'Grants', 'OptIns', 'ProfilesCreated'].sort(),
    );
  });

  it('tells a status change once, a re-consent, an expiry, an archive and a restatement as nothing', () => {
    const granted = profile(1, { Consents: [consent('Terms', 1)] as never });
    expect(events(granted, profile(2, { Consents: [consent('Terms', 3)] as never }))).toEqual([
      'Revocations',
    ]);
    expect(events(granted, profile(2, { Consents: [consent('Terms', 1)] as never }))).toEqual([]);
    expect(
      events(
        granted,
        profile(2, { Consents: [consent('Terms', 1, { ConsentVersion: '2.0' })] as never }),
      ),
    ).toEqual(['Grants']);
    expect(
      events(granted, profile(2, { Consents: [consent('Terms', 1, { Expired: true })] as never })),
    ).toEqual(['ConsentExpiries']);
    const opted = profile(1, { ProfilePreferences: [preference()] as never });
    expect(
      events(
        opted,
        profile(2, { ProfilePreferences: [preference({ PreferenceStatus: 'Expired' })] as never }),
      ),
    ).toEqual(['PreferenceExpiries']);
    expect(
      events(opted, profile(2, { ProfilePreferences: [preference({ IsActive: false })] as never })),
    ).toEqual(['Archives']);
    expect(
      events(
        opted,
        profile(2, { ProfilePreferences: [preference({ PreferenceType: 2 })] as never }),
      ),
    ).toEqual(['OptOuts']);
  });

  it('tells a new do-not-contact mark per list, and a delete or an erasure', () => {
    const marked = (lists: string) =>
      profile(2, {
        Emails: [
          email('a@x.io', {
            EmailPreferences: [
              preference({ PreferenceAttributes: [{ Key: '$DoNotContactLists', Value: lists }] }),
            ],
          }),
        ] as never,
      });
    expect(events(marked('1'), marked('1,2'))).toEqual(['DoNotContactMarks']);
    expect(events(marked('1'), profile(3, undefined, 'deleted'))).toEqual(['ProfilesDeleted']);
    expect(events(marked('1'), profile(3, undefined, 'deleted'), 'erase')).toEqual([
      'ProfilesErased',
    ]);
  });
  it('tells a merge: the absorbed profile merged, the survivor moved what it gained, never a grant', () => {
    const absorbed = profile(3, {
      Consents: [consent('Terms', 1), consent('Mail', 2)] as never,
      ProfilePreferences: [preference()] as never,
    });
    expect(events(absorbed, { ...absorbed, state: 'merged' } as Profile, 'merged-into')).toEqual([
      'ProfilesMerged',
    ]);
    // The survivor had Terms revoked and Mail denied as now; it gains Terms granted (a
    // more recent grant wins) and the opt-in: both moved; Mail unchanged tells nothing.
    const survivor = profile(5, { Consents: [consent('Terms', 3), consent('Mail', 2)] as never });
    const merged = profile(6, {
      Consents: [
        consent('Terms', 1, { ConsentDate: '2026-02-01T00:00:00Z' }),
        consent('Mail', 2),
      ] as never,
      ProfilePreferences: [preference()] as never,
    });
    expect(events(survivor, merged, 'absorb').sort()).toEqual(
      ['ConsentsMoved', 'PreferencesMoved'].sort(),
    );
    expect(events(merged, merged, 'absorb')).toEqual([]);
  });
});

describe('passDelta', () => {
  it('is the summaries difference and the events by day, from and to appliedSeq', () => {
    const start = profile(4, { Consents: [consent('Terms', 1)] as never });
    const middle = profile(5, { Consents: [consent('Terms', 3)] as never });
    const end = profile(6, { Consents: [consent('Terms', 1)] as never, CustomerType: 'Prospect' });
    const delta = passDelta(start, end, [
      step(start, middle, 'merge', '2026-03-04T23:59:00Z'),
      step(middle, end, 'merge', '2026-03-05T00:01:00Z'),
    ])!;
    expect(delta.from).toBe(4);
    expect(delta.to).toBe(6);
    const counts = Object.entries(delta.counts!).map(([key, n]) => [decodeCountKey(key), n]);
    expect(counts).toEqual(
      expect.arrayContaining([
        [{ kind: 'profile', customerType: 'customer', active: true }, -1],
        [{ kind: 'profile', customerType: 'prospect', active: true }, 1],
      ]),
    );
    expect(counts).toHaveLength(4);
    expect(Object.keys(delta.daily!)).toEqual(['2026-03-04', '2026-03-05']);
  });

  it('is undefined when a pass changes nothing countable', () => {
    const start = profile(1, { Consents: [consent('Terms', 1)] as never });
    const end = profile(2, { Consents: [consent('Terms', 1)] as never, DefaultLocale: 'fr' });
    expect(passDelta(start, end, [step(start, end)])).toBeUndefined();
  });
});

describe('report views', () => {
  const hash = new Map<string, number>();
  const add = (profileDoc: Profile) => {
    for (const [key, n] of reportSummary(profileDoc)) hash.set(key, (hash.get(key) ?? 0) + n);
  };
  add(
    profile(1, {
      Consents: [consent('Terms', 1)] as never,
      Emails: [email('a@x.io', { EmailPreferences: [preference()] })] as never,
    }),
  );
  add(profile(1, { CustomerType: 'Prospect', Consents: [consent('Terms', 2)] as never }));

  it('names, sums and narrows the counts', () => {
    const all = currentCounts(hash, NAMES);
    expect(all.Profiles).toEqual([
      { CustomerType: 'Customer', Active: 1, Inactive: 0 },
      { CustomerType: 'prospect', Active: 1, Inactive: 0 },
    ]);
    expect(all.Consents.map((row) => [row.ConsentType, row.Status, row.Count])).toEqual([
      ['Terms', 'Denied', 1],
      ['Terms', 'Granted', 1],
    ]);
    expect(all.Preferences[0]).toMatchObject({
      ProgramName: 'News',
      FilterName: 'News by email',
      Count: 1,
    });
    const customers = currentCounts(hash, NAMES, { customerType: ' CUSTOMER ' });
    expect(customers.Consents).toEqual([expect.objectContaining({ Status: 'Granted', Count: 1 })]);
    expect(currentCounts(hash, NAMES, { programId: '01' }).Preferences).toHaveLength(1);
    expect(currentCounts(hash, NAMES, { programId: '3' }).Preferences).toHaveLength(0);
    expect(currentCounts(hash, NAMES, { consentType: 'mail' }).Consents).toHaveLength(0);
  });

  it('sums a day per event after the filters, and writes CSV that a spreadsheet reads as text', () => {
    const day = new Map([
      [encodeDailyKey({ event: 'Grants', customerType: 'customer', consentType: 'terms' }), 2],
      [encodeDailyKey({ event: 'Grants', customerType: 'prospect', consentType: 'terms' }), 1],
    ]);
    expect(dayCounts('2026-01-01', day, NAMES).Grants).toBe(3);
    expect(dayCounts('2026-01-01', day, NAMES, { customerType: 'prospect' }).Grants).toBe(1);
    expect(daysBetween('2025-12-31', '2026-01-02')).toEqual([
      '2025-12-31',
      '2026-01-01',
      '2026-01-02',
    ]);
    expect(dailyCsv([dayCounts('2026-01-01', day, NAMES)]).split('\r\n')[1]).toMatch(
      /^2026-01-01,3,0,/,
    );
    const csv = countsCsv({
      Profiles: [{ CustomerType: '=cmd', Active: 1, Inactive: 0 }],
      Consents: [],
      Preferences: [],
      DoNotContact: [],
    });
    expect(csv).toContain("Profiles,'=cmd,");
  });
});
