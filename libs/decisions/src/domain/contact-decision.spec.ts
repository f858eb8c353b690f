import { contactRefKey, itemRefKey, PROFILE_REF_KEY } from '@app/profiles';
import { partialData } from '@app/profiles/testing';
import {
  type DecisionConfiguration,
  type DecisionProfile,
  decideForProfile,
  type ListingsOf,
  type ReasonListing,
} from './contact-decision';
import { checkQuestion, type ContactQuestion, type DecisionVocabulary } from './contact-question';

type Item = Record<string, any>;

const NOW = new Date('2026-06-01T00:00:00.000Z');
const LATER = '2027-01-01T00:00:00.000Z';
const EARLIER = '2026-01-01T00:00:00.000Z';

const programs: Record<number, { IsActive: boolean; ProgramType: string }> = {
  7: { IsActive: true, ProgramType: 'Marketing' },
  8: { IsActive: false, ProgramType: 'Marketing' },
  9: { IsActive: true, ProgramType: 'Do Not Contact (DNC)' },
};
const filters: Record<number, Item> = {
  71: { ProgramId: 7, FilterId: 71, ChannelId: 'Email', IsActive: true, RequiredConsentTypes: [] },
  72: {
    ProgramId: 7,
    FilterId: 72,
    ChannelId: 'Email',
    IsActive: true,
    RequiredConsentTypes: ['Marketing'],
  },
  73: { ProgramId: 7, FilterId: 73, ChannelId: 'Email', IsActive: false, RequiredConsentTypes: [] },
  74: {
    ProgramId: 7,
    FilterId: 74,
    ChannelId: 'Solicit',
    IsActive: true,
    RequiredConsentTypes: [],
  },
  91: { ProgramId: 9, FilterId: 91, ChannelId: 'Email', IsActive: true, RequiredConsentTypes: [] },
};
const configuration: DecisionConfiguration & DecisionVocabulary = {
  program: (id) => programs[id],
  filter: (id) => filters[id] as never,
  consentTypeName: (name) =>
    ['Marketing', 'Terms'].find((type) => type.toLowerCase() === name.trim().toLowerCase()),
  consentType: (name) =>
    ['Marketing', 'Terms']
      .filter((type) => type.toLowerCase() === name.trim().toLowerCase())
      .map((TypeName) => ({ TypeName, IsActive: true }))[0],
  channel: (value) =>
    ({ email: 'Email', sms: 'Text/SMS', phone: 'Phone', mail: 'Mail', solicit: 'Solicit' })[
      value.trim().toLowerCase()
    ],
};

const pref = (FilterId: number, extra: Item = {}): Item => ({
  ProgramId: String(filters[FilterId].ProgramId),
  ChannelId: filters[FilterId].ChannelId,
  FilterId: String(FilterId),
  PreferenceType: 1,
  PreferenceStatus: 'Active',
  IsActive: true,
  ...extra,
});
const email = (extra: Item = {}): Item => ({
  EmailAddress: 'pat@example.com',
  IsActive: true,
  EmailPreferences: [],
  Consents: [],
  ...extra,
});
const profileOf = (data: Item, extra: Partial<DecisionProfile> = {}): DecisionProfile => ({
  profileId: 5,
  data: partialData({ IsActive: true, Consents: [], ProfilePreferences: [], ...data }),
  appliedSeq: 3,
  acceptedSeq: 3,
  refs: {},
  ...extra,
});
const question = (extra: Partial<ContactQuestion> = {}): ContactQuestion => ({
  target: { kind: 'profile', profileId: 5 },
  channel: 'Email',
  programId: 7,
  ...extra,
});
const noListings: ListingsOf = (): readonly ReasonListing[] => [];
const decide = (
  data: Item,
  q: Partial<ContactQuestion> = {},
  extra: Partial<DecisionProfile> = {},
  listings: ListingsOf = noListings,
) => decideForProfile(question(q), profileOf(data, extra), configuration, listings, NOW);
const codes = (result: ReturnType<typeof decide>) =>
  result.reasons.map((reason) => `${reason.effect}:${reason.code}`);

describe('decideForProfile', () => {
  it('reports when the answer changes with time alone: the earliest future expiry it compared', () => {
    const SOONER = '2026-09-01T00:00:00.000Z';
    const allowed = decide({
      Emails: [
        email({
          Consents: [{ ConsentType: 'Marketing', ConsentStatus: 1, ExpirationDate: SOONER }],
          EmailPreferences: [pref(72, { ExpirationDate: LATER })],
        }),
      ],
    });
    expect(allowed.allowed).toBe(true);
    expect(allowed.changesAt).toBe(Date.parse(SOONER));
    // Past expiries, and answers with no expiry, never change with time alone.
    const expired = decide({
      Emails: [email({ EmailPreferences: [pref(71, { ExpirationDate: EARLIER })] })],
    });
    expect(codes(expired)).toEqual(['Deny:PreferenceExpired']);
    expect(expired.changesAt).toBe(Infinity);
    expect(decide({ Emails: [email({ EmailPreferences: [pref(71)] })] }).changesAt).toBe(Infinity);
  });

  it('allows an active, unexpired opt-in and names its history entry', () => {
    const preference = pref(71, { ExpirationDate: LATER });
    const element = email({ EmailPreferences: [preference] });
    const refs = {
      [itemRefKey('EmailPreferences', preference, { list: 'Emails', element })]: 'c|5|2|0',
    };
    const result = decide({ Emails: [element] }, {}, { refs });
    expect(result.allowed).toBe(true);
    expect(codes(result)).toEqual(['Allow:OptedIn']);
    expect(result.reasons[0]).toMatchObject({
      level: 'ContactElement',
      historyEntryId: 'c|5|2|0',
      preference: { MatchType: 'Expressed' },
    });
  });

  it('tells implied from expressed', () => {
    const result = decide({
      Emails: [email({ EmailPreferences: [pref(71, { MatchType: 'implied' })] })],
    });
    expect(result.allowed).toBe(true);
    expect(result.reasons[0].preference?.MatchType).toBe('Implied');
  });

  it.each([
    [{ PreferenceType: 2 }, 'Deny:OptedOut'],
    [{ PreferenceType: undefined }, 'Deny:PreferenceTypeUnset'],
    [{ PreferenceStatus: 'Expired' }, 'Deny:PreferenceExpired'],
    [{ ExpirationDate: EARLIER }, 'Deny:PreferenceExpired'],
  ])('refuses a preference %j', (extra, code) => {
    const result = decide({ Emails: [email({ EmailPreferences: [pref(71, extra)] })] });
    expect(result.allowed).toBe(false);
    expect(codes(result)).toEqual([code]);
  });

  it('names a Global Privacy Control opt-out as the reason, and a confirmed opt-in in its message', () => {
    const gpcOut = pref(71, {
      PreferenceType: 2,
      SourceId: 'GlobalPrivacyControl',
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptOut' }],
    });
    const refused = decide({ Emails: [email({ EmailPreferences: [gpcOut] })] });
    expect(refused.allowed).toBe(false);
    expect(codes(refused)).toEqual(['Deny:GpcOptOut']);
    expect(refused.reasons[0].message).toMatch(/Global Privacy Control/);
    expect(refused.reasons[0].preference).toMatchObject({
      PreferenceType: 2,
      GlobalPrivacyControl: 'OptOut',
    });
    // An opt-out of the person's own (no attribute, or a cleared one) stays OptedOut.
    const own = pref(71, {
      PreferenceType: 2,
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl' }],
    });
    expect(codes(decide({ Emails: [email({ EmailPreferences: [own] })] }))).toEqual([
      'Deny:OptedOut',
    ]);
    // An opt-in carrying OptOut (opted in again elsewhere) is an opt-in.
    const again = pref(71, {
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptOut' }],
    });
    expect(codes(decide({ Emails: [email({ EmailPreferences: [again] })] }))).toEqual([
      'Allow:OptedIn',
    ]);
    const confirmed = pref(71, {
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptInConfirmed' }],
    });
    const allowed = decide({ Emails: [email({ EmailPreferences: [confirmed] })] });
    expect(codes(allowed)).toEqual(['Allow:OptedIn']);
    expect(allowed.reasons[0].message).toMatch(/confirmed .* Global Privacy Control signal/);
    expect(allowed.reasons[0].preference?.GlobalPrivacyControl).toBe('OptInConfirmed');
  });

  it('refuses without a preference, or with an archived one', () => {
    expect(codes(decide({ Emails: [email()] }))).toEqual(['Deny:NoPreference']);
    expect(
      codes(decide({ Emails: [email({ EmailPreferences: [pref(71, { IsActive: false })] })] })),
    ).toEqual(['Deny:PreferenceArchived']);
  });

  it.each([
    [
      [{ ConsentType: 'marketing', ConsentStatus: 1 }],
      ['Allow:OptedIn', 'Allow:ConsentGranted'],
      true,
    ],
    [[], ['Allow:OptedIn', 'Deny:ConsentMissing'], false],
    [
      [{ ConsentType: 'Marketing', ConsentStatus: 1, IsActive: false }],
      ['Allow:OptedIn', 'Deny:ConsentMissing'],
      false,
    ],
    [
      [{ ConsentType: 'Marketing', ConsentStatus: 2 }],
      ['Allow:OptedIn', 'Deny:ConsentDenied'],
      false,
    ],
    [
      [{ ConsentType: 'Marketing', ConsentStatus: 3 }],
      ['Allow:OptedIn', 'Deny:ConsentRevoked'],
      false,
    ],
    [
      [{ ConsentType: 'Marketing', ConsentStatus: 4 }],
      ['Allow:OptedIn', 'Deny:ConsentNotSet'],
      false,
    ],
    [
      [{ ConsentType: 'Marketing', ConsentStatus: 1, Expired: true }],
      ['Allow:OptedIn', 'Deny:ConsentExpired'],
      false,
    ],
    [
      [{ ConsentType: 'Marketing', ConsentStatus: 1, ExpirationDate: EARLIER }],
      ['Allow:OptedIn', 'Deny:ConsentExpired'],
      false,
    ],
  ])('needs the consents the filter requires: %j', (consents, expected, allowed) => {
    const result = decide({
      Emails: [email({ Consents: consents, EmailPreferences: [pref(72)] })],
    });
    expect(codes(result)).toEqual(expected);
    expect(result.allowed).toBe(allowed);
  });

  it('finds a required consent on the profile when the element has none, and counts associations', () => {
    const preference = pref(71, { ConsentAssociations: [{ ConsentType: 'Terms' }] });
    const result = decide({
      Consents: [{ ConsentType: 'Terms', ConsentStatus: 1, ConsentVersion: '2' }],
      Emails: [email({ EmailPreferences: [preference] })],
    });
    expect(result.allowed).toBe(true);
    expect(result.reasons[1]).toMatchObject({
      code: 'ConsentGranted',
      level: 'Profile',
      consent: { ConsentType: 'Terms', ConsentVersion: '2', RequiredBy: ['Association'] },
    });
  });

  it('checks the consent type the question names', () => {
    const result = decide(
      { Emails: [email({ EmailPreferences: [pref(71)] })] },
      { consentType: 'Terms' },
    );
    expect(codes(result)).toEqual(['Allow:OptedIn', 'Deny:ConsentMissing']);
  });

  it('refuses an inactive profile, with the entry that deactivated it', () => {
    const result = decide(
      { IsActive: false, Emails: [email({ EmailPreferences: [pref(71)] })] },
      {},
      { refs: { [PROFILE_REF_KEY]: 'c|5|3|0' } },
    );
    expect(result.allowed).toBe(false);
    expect(result.reasons).toEqual([
      expect.objectContaining({ code: 'ProfileInactive', historyEntryId: 'c|5|3|0' }),
    ]);
  });

  it('refuses an inactive or missing contact element', () => {
    const gone = email({ IsActive: false, EmailPreferences: [pref(71)] });
    const refs = { [contactRefKey('Emails', gone)]: 'c|5|2|1' };
    const named = decide(
      { Emails: [gone] },
      { value: { list: 'Emails', text: 'Pat@example.com', key: 'pat@example.com' } },
      { refs },
    );
    expect(codes(named)).toEqual(['Deny:ElementInactive']);
    expect(named.reasons[0].historyEntryId).toBe('c|5|2|1');
    expect(codes(decide({ Emails: [gone] }))).toEqual(['Deny:ElementNotFound']);
    expect(codes(decide({ Emails: [] }))).toEqual(['Deny:ElementNotFound']);
  });

  it('picks the default active element when none is named', () => {
    const result = decide({
      Emails: [
        email({ EmailAddress: 'first@example.com' }),
        email({
          EmailAddress: 'default@example.com',
          IsDefault: true,
          EmailPreferences: [pref(71)],
        }),
      ],
    });
    expect(result.allowed).toBe(true);
    expect(result.reasons[0].contact?.fields.EmailAddress).toBe('default@example.com');
  });

  it('refuses a value a list holds, or an element carrying the do-not-contact mark', () => {
    const listed = decide(
      { Emails: [email({ EmailPreferences: [pref(71)] })] },
      {},
      {},
      (list, key) =>
        list === 'Emails' && key === 'pat@example.com'
          ? [{ ListId: 1, ListName: 'L', ListedAt: EARLIER, Propagated: false }]
          : [],
    );
    expect(listed.allowed).toBe(false);
    expect(listed.reasons[0]).toMatchObject({ code: 'DoNotContact', marked: false });
    const mark = pref(91, { PreferenceAttributes: [{ Key: '$DoNotContactLists', Value: '1' }] });
    const marked = decide({ Emails: [email({ EmailPreferences: [pref(71), mark] })] });
    expect(marked.allowed).toBe(false);
    expect(marked.reasons[0]).toMatchObject({ code: 'DoNotContact', marked: true });
    // An opt-in on a Do Not Contact program written by hand is a mark too.
    const byHand = decide({ Emails: [email({ EmailPreferences: [pref(71), pref(91)] })] });
    expect(codes(byHand)).toContain('Deny:DoNotContact');
  });

  it('refuses an inactive program or filter', () => {
    expect(
      codes(decide({ Emails: [email({ EmailPreferences: [pref(73)] })] }, { filterId: 73 })),
    ).toContain('Deny:FilterInactive');
    const inactive = decide({ Emails: [email()] }, { programId: 8 });
    expect(codes(inactive)).toContain('Deny:ProgramInactive');
  });

  it('without a filter, one allowing preference suffices; the others become notes', () => {
    const result = decide({ Emails: [email({ EmailPreferences: [pref(72), pref(71)] })] });
    expect(result.allowed).toBe(true);
    expect(codes(result)).toEqual(['Allow:OptedIn', 'Note:ConsentMissing', 'Allow:OptedIn']);
    const onlyFilter = decide(
      { Emails: [email({ EmailPreferences: [pref(72), pref(71)] })] },
      { filterId: 72 },
    );
    expect(onlyFilter.allowed).toBe(false);
  });

  it('answers Solicit from the profile preferences', () => {
    const result = decide({ ProfilePreferences: [pref(74)] }, { channel: 'Solicit' });
    expect(result.allowed).toBe(true);
    expect(result.reasons[0].level).toBe('Profile');
  });

  it('notes a pending write without changing the answer', () => {
    const result = decide(
      { Emails: [email({ EmailPreferences: [pref(71)] })] },
      {},
      { acceptedSeq: 4 },
    );
    expect(result.allowed).toBe(true);
    expect(result.reasons[0]).toMatchObject({
      code: 'PendingWrite',
      effect: 'Note',
      pending: { appliedSeq: 3, acceptedSeq: 4 },
    });
  });
});

describe('checkQuestion', () => {
  const name = (field: string) => `Questions[0].${field}`;
  const check = (raw: Item) => checkQuestion(raw, name as never, configuration);

  it('reads a question', () => {
    expect(
      check({
        EmailAddress: ' Pat@Example.com ',
        ChannelId: 'email',
        ProgramId: '07',
        FilterId: '71',
      }),
    ).toEqual({
      question: {
        target: { kind: 'value' },
        value: { list: 'Emails', text: ' Pat@Example.com ', key: 'pat@example.com' },
        channel: 'Email',
        programId: 7,
        filterId: 71,
      },
    });
  });

  it.each([
    [{ ChannelId: 'Email', ProgramId: '7' }, 'is required (value missing)'],
    [
      { ProfileId: 0, ChannelId: 'Email', ProgramId: '7' },
      'Questions[0].ProfileId (value 0) must be an integer',
    ],
    [
      { ProfileId: 1, ChannelId: 'Fax', ProgramId: '7' },
      'Questions[0].ChannelId (value "Fax") names no channel',
    ],
    [
      { ProfileId: 1, ChannelId: 'Email', ProgramId: '99' },
      'Questions[0].ProgramId (value "99") names no program',
    ],
    [{ ProfileId: 1, ChannelId: 'Email', ProgramId: '9' }, 'is a Do Not Contact program'],
    [
      { ProfileId: 1, ChannelId: 'Email', ProgramId: '7', FilterId: '74' },
      'is not the channel of filter 74',
    ],
    [
      { ProfileId: 1, ChannelId: 'Email', ProgramId: '7', FilterId: '91' },
      'is a filter of program 9, not of program 7',
    ],
    [
      { ProfileId: 1, ChannelId: 'Email', ProgramId: '7', ConsentType: 'Nope' },
      'names no consent type',
    ],
    [{ PhoneNumber: '555', ChannelId: 'Email', ProgramId: '7' }, 'does not fit'],
    [
      { EmailAddress: 'not-an-email', ChannelId: 'Email', ProgramId: '7' },
      'is not an email address',
    ],
    [{ EmailAddress: 'a@b.c', ChannelId: 'Mail', ProgramId: '7' }, 'does not fit'],
    [
      { ProfileId: 1, AlternateId: 'x', ChannelId: 'Email', ProgramId: '7' },
      'cannot be given with',
    ],
    [{ AlternateId: 'x', ChannelId: 'Email', ProgramId: '7' }, 'AlternateIdType is required'],
    // A batch entry is typed as documented: ProfileId a number, ids strings.
    [
      { ProfileId: '1', ChannelId: 'Email', ProgramId: '7' },
      'ProfileId (value "1") must be an integer',
    ],
    [
      { ProfileId: 1, ChannelId: 'Email', ProgramId: 7 },
      'ProgramId (value 7) must be a non-empty string',
    ],
  ])('refuses %j', (raw, message) => {
    const result = check(raw);
    expect('problems' in result && result.problems.join('; ')).toContain(message);
  });
});
