import {
  applyProfileWrite,
  type ElementBody,
  fieldOf,
  type ProfileBody,
  type ProfileData,
} from '@app/profiles';
import { partialData, partialVocabulary } from '@app/profiles/testing';
import {
  applyPreserveConsents,
  consentDataRule,
  consentTransitionProblems,
  priorConsentProblems,
  statedConfirmationProblems,
} from './consent.rules';
import { consentTransitionWalk } from './consent-walk.fixtures';

const at = '2026-03-01T10:00:00.000Z';
const ctx = { at, userId: 'u1' };

const vocabulary = partialVocabulary({
  consentType: (name: string) =>
    name.trim().toLowerCase() === 'terms'
      ? {
          IsActive: true,
          LatestVersion: '2.0',
          Versions: [
            { ConsentVersion: '1.0', IsActive: true },
            { ConsentVersion: '2.0', IsActive: true, ExpirationInDays: 10 },
          ],
        }
      : undefined,
});

function stored(): ProfileData {
  return partialData({
    Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1, IsActive: true }],
    Emails: [
      {
        EmailAddress: 'Ann@example.com',
        Consents: [{ ConsentType: 'Terms', ConsentStatus: 2, IsActive: true }],
      },
    ],
    PhoneNumbers: [
      {
        PhoneNumber: '(555) 010-2030',
        Consents: [{ ConsentType: 'Terms', ConsentStatus: 1, IsActive: false }],
      },
    ],
    Addresses: [],
  });
}

describe('consentTransitionProblems', () => {
  it('compares each consent with the stored one of its type in the same container', () => {
    const body = {
      Consents: [{ ConsentType: ' TERMS ', ConsentStatus: 2 }],
      Emails: [
        { EmailAddress: 'ann@EXAMPLE.com', Consents: [{ ConsentType: 'terms', ConsentStatus: 3 }] },
        { EmailAddress: 'new@example.com', Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] },
      ],
    };
    expect(consentTransitionProblems(body, stored())).toEqual([
      'Consents[0].ConsentStatus (ConsentType " TERMS "): Granted (1) → Denied (2) is not allowed: a granted consent is withdrawn with Revoked (3)',
      'Emails[0].Consents[0].ConsentStatus (ConsentType "terms"): Denied (2) → Revoked (3) is not allowed: only a granted consent can be revoked',
      'Emails[1].Consents[0].ConsentStatus (ConsentType "Terms"): no consent → Revoked (3) is not allowed: the consent was never granted, so there is nothing to revoke',
    ]);
  });

  it('allows the allowed changes, restatements and writes without a status', () => {
    const body = {
      Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }],
      Emails: [
        { EmailAddress: 'ann@example.com', Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] },
      ],
      PhoneNumbers: [{ PhoneNumber: '555-010-2030', Consents: [{ ConsentType: 'Terms' }] }],
    };
    expect(consentTransitionProblems(body, stored())).toEqual([]);
    expect(
      consentTransitionProblems(
        { Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] },
        stored(),
      ),
    ).toEqual([]);
  });

  it('treats an inactive stored consent as none, and ConsentStatus null as NotSet', () => {
    expect(
      consentTransitionProblems(
        {
          Consents: [{ ConsentType: 'Terms', ConsentStatus: null }],
          PhoneNumbers: [
            { PhoneNumber: '5550102030', Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] },
          ],
        },
        stored(),
      ),
    ).toEqual([
      expect.stringMatching(/^Consents\[0\]\.ConsentStatus .*Granted \(1\) → NotSet \(4\)/),
      expect.stringMatching(
        /^PhoneNumbers\[0\]\.Consents\[0\]\.ConsentStatus .*no consent → Revoked/,
      ),
    ]);
  });

  it('checks a create against nothing stored', () => {
    expect(
      consentTransitionProblems({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] }),
    ).toEqual([
      'Consents[0].ConsentStatus (ConsentType "Terms"): no consent → Revoked (3) is not allowed: the consent was never granted, so there is nothing to revoke',
    ]);
  });

  describe('a refusal from each stored status, on the profile and on a contact element', () => {
    const email = 'refused@example.com';
    const current = partialData({
      Consents: [
        { ConsentType: 'Terms', ConsentStatus: 1, IsActive: true },
        { ConsentType: 'Mail', ConsentStatus: 2, IsActive: true },
        { ConsentType: 'Email', ConsentStatus: 4, IsActive: true },
        { ConsentType: 'Sms', ConsentStatus: 3, IsActive: true },
      ],
      Emails: [{ EmailAddress: email, Consents: [{ ConsentType: 'Email', ConsentStatus: 2 }] }],
    });
    it.each([
      [
        { Consents: [{ ConsentType: 'Terms', ConsentStatus: 2 }] },
        'Consents[0].ConsentStatus (ConsentType "Terms"): Granted (1) → Denied (2) is not allowed',
      ],
      [
        { Consents: [{ ConsentType: 'Terms', ConsentStatus: null }] },
        'Consents[0].ConsentStatus (ConsentType "Terms"): Granted (1) → NotSet (4) is not allowed',
      ],
      [
        { Consents: [{ ConsentType: 'Mail', ConsentStatus: 3 }] },
        'Consents[0].ConsentStatus (ConsentType "Mail"): Denied (2) → Revoked (3) is not allowed',
      ],
      [
        { Consents: [{ ConsentType: 'Email', ConsentStatus: 3 }] },
        'Consents[0].ConsentStatus (ConsentType "Email"): NotSet (4) → Revoked (3) is not allowed',
      ],
      [
        { Consents: [{ ConsentType: 'Sms', ConsentStatus: 2 }] },
        'Consents[0].ConsentStatus (ConsentType "Sms"): Revoked (3) → Denied (2) is not allowed',
      ],
      [
        { Consents: [{ ConsentType: 'Marketing', ConsentStatus: 3 }] },
        'Consents[0].ConsentStatus (ConsentType "Marketing"): no consent → Revoked (3) is not allowed',
      ],
      [
        {
          Emails: [{ EmailAddress: email, Consents: [{ ConsentType: 'Email', ConsentStatus: 3 }] }],
        },
        'Emails[0].Consents[0].ConsentStatus (ConsentType "Email"): Denied (2) → Revoked (3) is not allowed',
      ],
    ])('refuses %j', (body, message) => {
      expect(consentTransitionProblems(body, current)).toEqual([expect.stringContaining(message)]);
    });
  });

  it('allows a walk through every allowed transition, on the profile and on a contact element', () => {
    const email = 'walk@example.com';
    const write = (before: ProfileData | undefined, body: ProfileBody) => {
      expect(consentTransitionProblems(body, before)).toEqual([]);
      return consentDataRule(
        before,
        applyProfileWrite(before, body, before ? 'merge' : 'overwrite', ctx),
        vocabulary,
        ctx,
      );
    };
    const statuses = (data: ProfileData) => ({
      profile: Object.fromEntries(data.Consents.map((c) => [c.ConsentType, c.ConsentStatus])),
      email: Object.fromEntries(
        data.Emails[0].Consents.map((c) => [c.ConsentType, c.ConsentStatus]),
      ),
    });
    const [create, ...changes] = consentTransitionWalk(email);
    let data = write(undefined, create);
    for (const body of changes) {
      data = write(data, body);
      // Terms' steps: stored as stated, and the email's consent follows Terms.
      const terms = body.Consents?.find((c) => c.ConsentType === 'Terms')?.ConsentStatus;
      if (terms === undefined) continue;
      expect(statuses(data).profile.Terms).toBe(terms);
      expect(statuses(data).email.Email).toBe(terms);
    }
    expect(statuses(data)).toEqual({
      profile: { Terms: 1, Mail: 1, Sms: 1, Marketing: 1 },
      email: { Email: 1 },
    });
  });
});

describe('consentDataRule', () => {
  it('settles consents of the profile and of each contact element against their stored ones', () => {
    const before = stored();
    const after = structuredClone(before);
    after.Consents[0].ConsentStatus = 3;
    after.Emails[0].Consents[0].ConsentStatus = 1;
    after.Emails[0].Consents[0].ConsentVersion = '2.0';
    after.Emails.push(
      ...partialData({
        Emails: [{ EmailAddress: 'new@example.com', Consents: [{ ConsentType: 'Terms' }] }],
      }).Emails,
    );
    const result = consentDataRule(before, after, vocabulary, ctx);
    expect(result.Consents[0]).toEqual({
      ConsentType: 'Terms',
      ConsentVersion: '1.0',
      ConsentStatus: 3,
      ConsentDate: at,
      Expired: false,
      UpdatedVersionPending: true,
      IsActive: true,
    });
    expect(result.Emails[0].Consents[0]).toEqual({
      ConsentType: 'Terms',
      ConsentVersion: '2.0',
      ConsentStatus: 1,
      ConsentDate: at,
      ExpirationDate: '2026-03-11T10:00:00.000Z',
      Expired: false,
      UpdatedVersionPending: false,
      IsActive: true,
    });
    // A new consent without a status: the latest version, no date of its own.
    expect(result.Emails[1].Consents[0]).toEqual({
      ConsentType: 'Terms',
      ConsentVersion: '2.0',
      ExpirationDate: '2026-03-11T10:00:00.000Z',
      Expired: false,
      UpdatedVersionPending: false,
    });
    // Untouched: the inactive phone consent.
    expect(result.PhoneNumbers).toEqual(before.PhoneNumbers);
  });

  it('changes nothing in a write that leaves consents alone', () => {
    const before = stored();
    expect(consentDataRule(before, structuredClone(before), vocabulary, ctx)).toEqual(before);
  });
});

describe('applyPreserveConsents', () => {
  const edited = { CreateDate: at, CreatedBy: 'u', ModifiedDate: at, ModifiedBy: 'u' };
  const current = partialData({
    IsActive: true,
    Edited: edited,
    Consents: [{ ConsentType: 'Terms', Key: 'terms', IsActive: true }],
    ProfilePreferences: [],
    Emails: [
      {
        EmailAddress: 'a@b.io',
        Key: 'a@b.io',
        IsActive: true,
        EmailPreferences: [{ ProgramId: '1', ChannelId: 'Email', FilterId: '10', IsActive: true }],
        Consents: [
          { ConsentType: 'Email', Key: 'email', IsActive: true },
          { ConsentType: 'Marketing', Key: 'marketing', IsActive: true },
        ],
      },
    ],
    PhoneNumbers: [],
    Addresses: [],
  });
  const later = { at: '2026-04-01T00:00:00.000Z', userId: 'u2' };
  const merge = (
    body: ProfileBody,
    hidden: (collection: string, element: ElementBody) => boolean = () => false,
  ) => applyPreserveConsents(applyProfileWrite(current, body, 'merge', later), body, later, hidden);
  const active = (list: { IsActive: boolean }[]) => list.map((e) => e.IsActive);

  it('changes nothing unless the write sends false', () => {
    const body = { Emails: [{ EmailAddress: 'a@b.io', Consents: [{ ConsentType: 'email' }] }] };
    expect(merge(body)).toEqual(applyProfileWrite(current, body, 'merge', later));
  });

  it('PreserveConsents false deactivates the contact elements consents the write does not restate', () => {
    const data = merge({
      PreserveConsents: false,
      Emails: [{ EmailAddress: 'a@b.io', Consents: [{ ConsentType: 'email' }] }],
    });
    expect(active(data.Emails[0].Consents)).toEqual([true, false]);
    expect(data.Emails[0].Consents[1].Edited).toMatchObject({
      ModifiedDate: later.at,
      ModifiedBy: 'u2',
    });
    // Profile-level consents and preferences are kept.
    expect(active(data.Consents)).toEqual([true]);
    expect(active(data.Emails[0].EmailPreferences)).toEqual([true]);
  });

  it('leaves alone what is hidden from the writer', () => {
    const data = merge(
      { PreserveConsents: false },
      (collection, element) =>
        collection === 'Consents' && fieldOf(element, 'ConsentType') === 'Marketing',
    );
    expect(active(data.Emails[0].Consents)).toEqual([false, true]);
  });
});

describe('priorConsentProblems (a bulk import without AllowPriorConsents)', () => {
  const dated = (): ProfileData =>
    partialData({
      Consents: [
        {
          ConsentType: 'Terms',
          ConsentStatus: 1,
          ConsentDate: '2026-02-01T00:00:00Z',
          IsActive: true,
        },
        {
          ConsentType: 'Gone',
          ConsentStatus: 1,
          ConsentDate: '2026-02-01T00:00:00Z',
          IsActive: false,
        },
      ],
      Emails: [
        {
          EmailAddress: 'Ann@example.com',
          Consents: [
            {
              ConsentType: 'Terms',
              ConsentStatus: 1,
              ConsentDate: '2026-02-01T00:00:00.000Z',
              IsActive: true,
            },
          ],
        },
      ],
    });

  it('names each consent dated before the stored consent of its type and container', () => {
    const problems = priorConsentProblems(
      {
        Consents: [{ ConsentType: 'terms', ConsentStatus: 2, ConsentDate: '2025-12-31T00:00:00Z' }],
        Emails: [
          {
            EmailAddress: 'ann@example.com',
            Consents: [{ ConsentType: 'Terms', ConsentDate: '2026-01-15T00:00:00Z' }],
          },
        ],
      },
      dated(),
    );
    expect(problems).toEqual([
      'Consents[0].ConsentDate "2025-12-31T00:00:00Z" (ConsentType "terms") is earlier than the stored consent\'s "2026-02-01T00:00:00Z": a prior consent, imported only with AllowPriorConsents true',
      'Emails[0].Consents[0].ConsentDate "2026-01-15T00:00:00Z" (ConsentType "Terms") is earlier than the stored consent\'s "2026-02-01T00:00:00.000Z": a prior consent, imported only with AllowPriorConsents true',
    ]);
  });

  it('lets through a later or equal date, no date, a new type, an inactive stored one, or a new profile', () => {
    const body = {
      Consents: [
        { ConsentType: 'Terms', ConsentDate: '2026-02-01T00:00:00.000Z' },
        { ConsentType: 'Terms' },
        { ConsentType: 'Other', ConsentDate: '2020-01-01T00:00:00Z' },
        { ConsentType: 'Gone', ConsentDate: '2020-01-01T00:00:00Z' },
      ],
      Emails: [
        {
          EmailAddress: 'new@example.com',
          Consents: [{ ConsentType: 'Terms', ConsentDate: '2020-01-01T00:00:00Z' }],
        },
      ],
    };
    expect(priorConsentProblems(body, dated())).toEqual([]);
    expect(priorConsentProblems(body, undefined)).toEqual([]);
  });
});

describe('statedConfirmationProblems (a bulk import record stating a confirmation)', () => {
  const NOW = Date.parse('2026-12-02T12:00:00.000Z');
  const stated = { Method: 'DoubleOptIn', ConfirmedDate: '2026-12-01T12:00:00.000Z' };
  const withConsent = (consent: object, list: 'Emails' | 'PhoneNumbers' = 'Emails') => ({
    [list]: [
      list === 'Emails'
        ? { EmailAddress: 'pat@example.com', Consents: [consent] }
        : { PhoneNumber: '+15550100', Consents: [consent] },
    ],
  });

  it('accepts a grant of an email address confirmed in the past, and a consent stating none', () => {
    expect(
      statedConfirmationProblems(
        withConsent({ ConsentType: 'News', ConsentStatus: 1, Confirmation: stated }),
        NOW,
      ),
    ).toEqual([]);
    expect(
      statedConfirmationProblems(withConsent({ ConsentType: 'News', ConsentStatus: 2 }), NOW),
    ).toEqual([]);
  });

  it('refuses a future ConfirmedDate, a consent that is not a grant, and another container', () => {
    expect(
      statedConfirmationProblems(
        withConsent({
          ConsentType: 'News',
          ConsentStatus: 1,
          Confirmation: { ...stated, ConfirmedDate: '2026-12-03T00:00:00.000Z' },
        }),
        NOW,
      ),
    ).toEqual([
      'Emails[0].Consents[0].Confirmation.ConfirmedDate (value "2026-12-03T00:00:00.000Z"): must not be in the future',
    ]);
    expect(
      statedConfirmationProblems(
        withConsent({ ConsentType: 'News', ConsentStatus: 3, Confirmation: stated }),
        NOW,
      ),
    ).toEqual([
      'Emails[0].Consents[0].Confirmation (ConsentType "News"): stated only with a grant, ConsentStatus 1 (value 3)',
    ]);
    expect(
      statedConfirmationProblems(
        withConsent({ ConsentType: 'Sms', ConsentStatus: 1, Confirmation: stated }, 'PhoneNumbers'),
        NOW,
      )[0],
    ).toMatch(/^PhoneNumbers\[0\]\.Consents\[0\]\.Confirmation: a confirmation is stated only/);
  });
});
