import {
  applyProfileWrite,
  type ElementBody,
  fieldOf,
  type PreferenceFilter,
  type PreferenceVocabulary,
  type ProfileBody,
  type ProfileData,
} from '@app/profiles';
import {
  applyPreservePreferences,
  expirationDays,
  preferenceDataRule,
  preferenceProblems,
} from './preference.rules';

/* Program 1 (active): filters 10 Email (frequencies, expiry days), 11 Text/SMS, 12 Mail,
 * 13 Solicit, 14 Email requiring Marketing, 15 Email inactive. Program 2 (inactive): 20. */
const filter = (
  FilterId: number,
  ChannelId: string,
  extra: Partial<PreferenceFilter> = {},
): PreferenceFilter => ({
  ProgramId: 1,
  FilterId,
  ChannelId,
  IsActive: true,
  FrequencyIds: [],
  RequiredConsentTypes: [],
  RequiredAttributes: [],
  ...extra,
});
const FILTERS: PreferenceFilter[] = [
  filter(10, 'Email', {
    FrequencyIds: ['Weekly', 'Monthly', 'Hebdo'],
    OptInCustomerExpirationDays: 365,
    OptOutCustomerExpirationDays: 0,
    OptInNonCustomerExpirationDays: 30,
    OptOutNonCustomerExpirationDays: 10,
  }),
  filter(11, 'Text/SMS'),
  filter(12, 'Mail'),
  filter(13, 'Solicit'),
  filter(14, 'Email', { RequiredConsentTypes: ['Marketing'] }),
  filter(15, 'Email', { IsActive: false }),
  filter(16, 'Email', { RequiredAttributes: ['Source'] }),
  filter(20, 'Email', { ProgramId: 2 }),
];
const vocabulary: PreferenceVocabulary = {
  program: (id) => ({ 1: { IsActive: true }, 2: { IsActive: false } })[id],
  filter: (id) => FILTERS.find((f) => f.FilterId === id),
  channel: (value) =>
    ({ email: 'Email', mail: 'Mail', phone: 'Phone', solicit: 'Solicit' })[
      value.trim().toLowerCase()
    ] ??
    (['text', 'sms', 'text/sms'].includes(value.trim().toLowerCase()) ? 'Text/SMS' : undefined),
};

const pref = (FilterId: string, ChannelId: string, extra: object = {}) => ({
  ProgramId: '1',
  ChannelId,
  FilterId,
  ...extra,
});
const withEmail = (...preferences: object[]) => ({
  CustomerType: 'Customer',
  Emails: [{ EmailAddress: 'a@b.io', EmailPreferences: preferences }],
});
const ctx = { at: '2026-01-01T00:00:00.000Z', userId: 'u1' };
const stored = (body: object) =>
  applyProfileWrite(undefined, body as ProfileBody, 'overwrite', ctx);

describe('preferenceProblems', () => {
  it('accepts valid preferences on every container, channel aliases and frequencies in any case', () => {
    const body = {
      ...withEmail(pref('10', 'email', { FrequencyId: 'weekly', PreferenceType: 1 })),
      PhoneNumbers: [{ PhoneNumber: '1', PhonePreferences: [pref('11', 'SMS')] }],
      Addresses: [{ AddressType: 'Home', AddressPreferences: [pref('12', 'Mail')] }],
      ProfilePreferences: [pref('13', 'Solicit', { MatchType: 'implied', PreferenceType: 2 })],
    };
    expect(preferenceProblems(body, vocabulary, 'create')).toEqual([]);
  });

  it.each([
    [
      'an unknown program',
      pref('10', 'Email', { ProgramId: '9' }),
      'ProgramId (value "9") names no program',
    ],
    ['a program named by text', pref('10', 'Email', { ProgramId: 'News' }), 'names no program'],
    [
      'an inactive program',
      pref('20', 'Email', { ProgramId: '2' }),
      'ProgramId (value "2") is an inactive program',
    ],
    ['an unknown filter', pref('99', 'Email'), 'FilterId (value "99") names no filter'],
    [
      'a filter of another program',
      pref('20', 'Email'),
      'FilterId (value "20") is a filter of program 2, not of program 1',
    ],
    ['an inactive filter', pref('15', 'Email'), 'FilterId (value "15") is an inactive filter'],
    ['an unknown channel', pref('10', 'Fax'), 'ChannelId (value "Fax") names no channel'],
    [
      "another channel than the filter's",
      pref('12', 'Email'),
      'ChannelId (value "Email") is not the channel of filter 12 (Mail)',
    ],
    [
      'an unknown frequency',
      pref('10', 'Email', { FrequencyId: 'Daily' }),
      'FrequencyId (value "Daily") is not a frequency of filter 10',
    ],
    [
      'a frequency on a filter without any',
      pref('14', 'Email', {
        FrequencyId: 'Weekly',
        ConsentAssociations: [{ ConsentType: 'Marketing' }],
      }),
      'filter 14, which has no frequencies',
    ],
    [
      'a bad PreferenceType',
      pref('10', 'Email', { PreferenceType: 3 }),
      'PreferenceType (value 3) must be 1',
    ],
    [
      'a bad MatchType',
      pref('10', 'Email', { MatchType: 'Guessed' }),
      'must be Expressed or Implied',
    ],
    [
      'a bad PreferenceStatus',
      pref('10', 'Email', { PreferenceStatus: 'Paused' }),
      'must be Active or Expired',
    ],
    ['a missing FilterId', { ProgramId: '1', ChannelId: 'Email' }, 'FilterId is required'],
    [
      'a missing required consent association',
      pref('14', 'Email'),
      'Emails[0].EmailPreferences[0].ConsentAssociations has no active association with the consent type "Marketing", which filter 14 requires',
    ],
    [
      'an inactive required consent association',
      pref('14', 'Email', { ConsentAssociations: [{ ConsentType: 'marketing', IsActive: false }] }),
      'consent type "Marketing"',
    ],
  ])('refuses %s', (_case, preference, message) => {
    const problems = preferenceProblems(withEmail(preference), vocabulary, 'create');
    expect(problems.join('; ')).toContain(message);
    expect(problems.join('; ')).toContain('Emails[0].EmailPreferences[0].');
  });

  it('refuses a channel that does not fit the container, naming the container', () => {
    const body = {
      CustomerType: 'Customer',
      ProfilePreferences: [pref('10', 'Email')],
      PhoneNumbers: [{ PhoneNumber: '1', PhonePreferences: [pref('12', 'Mail')] }],
    };
    expect(preferenceProblems(body, vocabulary, 'create')).toEqual([
      'ProfilePreferences[0].ChannelId (value "Email") does not fit ProfilePreferences, which takes Solicit',
      'PhoneNumbers[0].PhonePreferences[0].ChannelId (value "Mail") does not fit PhonePreferences, which takes Phone or Text/SMS',
    ]);
  });

  it('accepts the required association when the stored preference has it (merge) but not on overwrite', () => {
    const current = stored(
      withEmail(pref('14', 'Email', { ConsentAssociations: [{ ConsentType: 'Marketing' }] })),
    );
    const change = withEmail(pref('14', 'Email', { PreferenceType: 2 }));
    expect(preferenceProblems(change, vocabulary, 'merge', current)).toEqual([]);
    expect(preferenceProblems(change, vocabulary, 'overwrite', current).join()).toContain(
      '"Marketing"',
    );
    const revoked = withEmail(
      pref('14', 'Email', { ConsentAssociations: [{ ConsentType: 'MARKETING', IsActive: false }] }),
    );
    expect(preferenceProblems(revoked, vocabulary, 'merge', current).join()).toContain(
      '"Marketing"',
    );
  });

  it("requires the filter's required attributes with a value, counting stored ones in a merge", () => {
    const missing = withEmail(
      pref('16', 'Email', { PreferenceAttributes: [{ Key: 'Topic', Value: 'x' }] }),
    );
    expect(preferenceProblems(missing, vocabulary, 'create')).toEqual([
      'Emails[0].EmailPreferences[0].PreferenceAttributes has no "Source" attribute with a value, which filter 16 requires',
    ]);
    const blank = withEmail(
      pref('16', 'Email', { PreferenceAttributes: [{ Key: 'source', Value: ' ' }] }),
    );
    expect(preferenceProblems(blank, vocabulary, 'create')).toHaveLength(1);
    const given = withEmail(
      pref('16', 'Email', { PreferenceAttributes: [{ Key: 'SOURCE', Value: 'web' }] }),
    );
    expect(preferenceProblems(given, vocabulary, 'create')).toEqual([]);
    const current = stored(given);
    const change = withEmail(pref('16', 'Email', { PreferenceType: 2 }));
    expect(preferenceProblems(change, vocabulary, 'merge', current)).toEqual([]);
    expect(preferenceProblems(change, vocabulary, 'overwrite', current)).toHaveLength(1);
  });

  it('does not check a preference the write repeats as stored, only one it changes', () => {
    // Stored while filter 15 was active; it is inactive now.
    const current = stored(withEmail(pref('15', 'Email', { PreferenceType: 1 })));
    const same = withEmail(pref('15', 'email', { PreferenceType: 1 }));
    expect(preferenceProblems(same, vocabulary, 'merge', current)).toEqual([]);
    expect(preferenceProblems(same, vocabulary, 'overwrite', current)).toEqual([]);
    const changed = withEmail(pref('15', 'Email', { PreferenceType: 2 }));
    expect(preferenceProblems(changed, vocabulary, 'merge', current).join()).toContain(
      'is an inactive filter',
    );
    // A create has nothing stored: everything is checked.
    expect(preferenceProblems(same, vocabulary, 'create', current)).not.toEqual([]);
  });
});

describe('expirationDays', () => {
  const email = FILTERS[0];
  it('takes the opt-in or opt-out days of a customer or non-customer; 0 or absent is none', () => {
    expect(expirationDays(email, 1, true)).toBe(365);
    expect(expirationDays(email, 1, false)).toBe(30);
    expect(expirationDays(email, 2, true)).toBeUndefined();
    expect(expirationDays(email, 2, false)).toBe(10);
    expect(expirationDays(email, undefined, true)).toBeUndefined();
    expect(expirationDays(FILTERS[1], 1, true)).toBeUndefined();
  });
});

describe('preferenceDataRule', () => {
  const after = (before: ProfileData | undefined, body: object, at = ctx.at) =>
    preferenceDataRule(
      before,
      applyProfileWrite(before, body as ProfileBody, before ? 'merge' : 'overwrite', {
        ...ctx,
        at,
      }),
      vocabulary,
      { ...ctx, at },
    );
  const emailPrefs = (data: ProfileData) => data.Emails[0].EmailPreferences;

  it('makes a new preference Active, in canonical spelling, expiring after its filter days', () => {
    const data = after(
      undefined,
      withEmail(pref('010', 'EMAIL', { PreferenceType: 1, MatchType: 'expressed' })),
    );
    expect(emailPrefs(data)[0]).toMatchObject({
      ProgramId: '1',
      FilterId: '10',
      ChannelId: 'Email',
      MatchType: 'Expressed',
      PreferenceStatus: 'Active',
      ExpirationDate: '2027-01-01T00:00:00.000Z',
    });
    const prospect = after(undefined, {
      ...withEmail(pref('10', 'Email', { PreferenceType: 2 })),
      CustomerType: 'Prospect',
    });
    expect(emailPrefs(prospect)[0].ExpirationDate).toBe('2026-01-11T00:00:00.000Z');
    const optOutCustomer = after(undefined, withEmail(pref('10', 'Email', { PreferenceType: 2 })));
    expect(emailPrefs(optOutCustomer)[0]).not.toHaveProperty('ExpirationDate');
  });

  // Filter 10: opt-in 365 days (customer) / 30 (not); opt-out none / 10.
  it.each([
    ['Customer', 1, '2027-01-01T00:00:00.000Z'],
    ['customer', 2, undefined],
    ['Prospect', 1, '2026-01-31T00:00:00.000Z'],
    ['Prospect', 2, '2026-01-11T00:00:00.000Z'],
  ])(
    'dates a %s preference of type %s by the filter days for its customer kind: %s',
    (CustomerType, PreferenceType, expiration) => {
      const data = after(undefined, {
        ...withEmail(pref('10', 'Email', { PreferenceType })),
        CustomerType,
      });
      expect(emailPrefs(data)[0].PreferenceStatus).toBe('Active');
      if (expiration === undefined)
        expect(emailPrefs(data)[0]).not.toHaveProperty('ExpirationDate');
      else expect(emailPrefs(data)[0].ExpirationDate).toBe(expiration);
    },
  );

  it('gives no ExpirationDate on a filter without days', () => {
    const data = after(undefined, {
      CustomerType: 'Customer',
      ProfilePreferences: [pref('13', 'Solicit', { PreferenceType: 1 })],
    });
    expect(data.ProfilePreferences[0].PreferenceStatus).toBe('Active');
    expect(data.ProfilePreferences[0]).not.toHaveProperty('ExpirationDate');
  });

  it('keeps a sent ExpirationDate earlier than the computed one, ignores a later one', () => {
    const early = after(
      undefined,
      withEmail(pref('10', 'Email', { PreferenceType: 1, ExpirationDate: '2026-02-01T00:00:00Z' })),
    );
    expect(emailPrefs(early)[0].ExpirationDate).toBe('2026-02-01T00:00:00Z');
    const late = after(
      undefined,
      withEmail(pref('10', 'Email', { PreferenceType: 1, ExpirationDate: '2030-01-01T00:00:00Z' })),
    );
    expect(emailPrefs(late)[0].ExpirationDate).toBe('2027-01-01T00:00:00.000Z');
    const noDays = after(
      undefined,
      withEmail(pref('14', 'Email', { ExpirationDate: '2030-01-01' })),
    );
    expect(emailPrefs(noDays)[0].ExpirationDate).toBe('2030-01-01');
  });

  it('on a stored preference too: an earlier sent date is kept, a later one recomputes from the write', () => {
    const first = after(undefined, withEmail(pref('10', 'Email', { PreferenceType: 1 })));
    const early = after(
      first,
      withEmail(pref('10', 'Email', { ExpirationDate: '2026-01-02T00:00:00.000Z' })),
      '2026-06-01T00:00:00.000Z',
    );
    expect(emailPrefs(early)[0].ExpirationDate).toBe('2026-01-02T00:00:00.000Z');
    const late = after(
      early,
      withEmail(pref('10', 'Email', { ExpirationDate: '2040-01-01T00:00:00.000Z' })),
      '2026-07-01T00:00:00.000Z',
    );
    expect(emailPrefs(late)[0].ExpirationDate).toBe('2027-07-01T00:00:00.000Z');
  });

  it('recomputes a changed preference from the write time, leaves an unchanged one alone', () => {
    const first = after(undefined, withEmail(pref('10', 'Email', { PreferenceType: 1 })));
    const later = '2026-06-01T00:00:00.000Z';
    const unchanged = after(first, withEmail(pref('10', 'sms', { PreferenceType: 1 })), later);
    // "sms" is another key (another channel): a new preference; the Email one is unchanged.
    expect(emailPrefs(unchanged)[0].ExpirationDate).toBe('2027-01-01T00:00:00.000Z');
    const restated = after(first, withEmail(pref('10', 'email', { PreferenceType: 1 })), later);
    expect(emailPrefs(restated)).toHaveLength(1);
    expect(emailPrefs(restated)[0].ExpirationDate).toBe('2027-01-01T00:00:00.000Z');
    const optOut = after(first, withEmail(pref('10', 'Email', { PreferenceType: 2 })), later);
    // Opt-out of a customer never expires: the opt-in's date is dropped.
    expect(emailPrefs(optOut)[0]).not.toHaveProperty('ExpirationDate');
    // An overwrite restating it without the computed fields changes nothing either.
    const put = withEmail(pref('10', 'Email', { PreferenceType: 1 }));
    const overwritten = preferenceDataRule(
      first,
      applyProfileWrite(first, put, 'overwrite', { ...ctx, at: later }),
      vocabulary,
      { ...ctx, at: later },
    );
    expect(emailPrefs(overwritten)[0]).toMatchObject({
      PreferenceStatus: 'Active',
      ExpirationDate: '2027-01-01T00:00:00.000Z',
    });
    const monthly = after(first, withEmail(pref('10', 'Email', { FrequencyId: 'Monthly' })), later);
    expect(emailPrefs(monthly)[0].ExpirationDate).toBe('2027-06-01T00:00:00.000Z');
  });

  it('ignores a sent PreferenceStatus, except Active on an expired preference (renewal)', () => {
    const first = after(undefined, withEmail(pref('10', 'Email', { PreferenceType: 1 })));
    const tried = after(first, withEmail(pref('10', 'Email', { PreferenceStatus: 'Expired' })));
    expect(emailPrefs(tried)[0].PreferenceStatus).toBe('Active');
    const expired = structuredClone(first);
    expired.Emails[0].EmailPreferences[0].PreferenceStatus = 'Expired';
    const later = '2026-06-01T00:00:00.000Z';
    const kept = after(expired, withEmail(pref('10', 'Email', { PreferenceType: 1 })), later);
    expect(emailPrefs(kept)[0].PreferenceStatus).toBe('Expired');
    const renewed = after(
      expired,
      withEmail(pref('10', 'Email', { PreferenceStatus: 'active' })),
      later,
    );
    expect(emailPrefs(renewed)[0]).toMatchObject({
      PreferenceStatus: 'Active',
      ExpirationDate: '2027-06-01T00:00:00.000Z',
    });
  });
});

describe('applyPreservePreferences', () => {
  const current = stored({
    CustomerType: 'Customer',
    ProfilePreferences: [pref('13', 'Solicit')],
    Consents: [{ ConsentType: 'Terms' }],
    Emails: [
      {
        EmailAddress: 'a@b.io',
        EmailPreferences: [pref('10', 'Email'), pref('14', 'Email')],
        Consents: [{ ConsentType: 'Email' }, { ConsentType: 'Marketing' }],
      },
      { EmailAddress: 'c@d.io', EmailPreferences: [pref('10', 'Email')] },
    ],
  });
  const later = { at: '2026-02-01T00:00:00.000Z', userId: 'u2' };
  const merge = (
    body: ProfileBody,
    hidden: (collection: string, element: ElementBody) => boolean = () => false,
  ) =>
    applyPreservePreferences(applyProfileWrite(current, body, 'merge', later), body, later, hidden);
  const active = (list: { IsActive: boolean }[]) => list.map((e) => e.IsActive);

  it('changes nothing unless the write sends false', () => {
    const body = { Emails: [{ EmailAddress: 'a@b.io', EmailPreferences: [pref('10', 'Email')] }] };
    expect(merge(body)).toEqual(applyProfileWrite(current, body, 'merge', later));
    expect(merge({ ...body, PreservePreferences: true })).toEqual(
      applyProfileWrite(current, { ...body, PreservePreferences: true }, 'merge', later),
    );
  });

  it('PreservePreferences false deactivates every preference the write does not restate', () => {
    const data = merge({
      PreservePreferences: false,
      Emails: [{ EmailAddress: 'A@B.io', EmailPreferences: [pref('10', 'email')] }],
    });
    expect(data.PreservePreferences).toBe(false);
    expect(active(data.ProfilePreferences)).toEqual([false]);
    expect(data.ProfilePreferences[0].LastModifiedDate).toBe(later.at);
    expect(active(data.Emails[0].EmailPreferences)).toEqual([true, false]);
    expect(active(data.Emails[1].EmailPreferences)).toEqual([false]);
    // Consents are kept.
    expect(active(data.Emails[0].Consents)).toEqual([true, true]);
  });

  it('leaves alone what is hidden from the writer', () => {
    const data = merge(
      { PreservePreferences: false },
      (collection: string, element: ElementBody) =>
        collection === 'EmailPreferences' && fieldOf(element, 'FilterId') === '14',
    );
    expect(active(data.Emails[0].EmailPreferences)).toEqual([false, true]);
  });
});
