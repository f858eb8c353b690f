import { CONSENT_PROFILE_RULES } from '@app/consents';
import { PREFERENCE_PROFILE_RULES } from '@app/preferences';
import { absorbProfile, type AbsorbContext, alternateIdsToMove } from './profile-absorb';
import type {
  Edited,
  ProfileData,
  StoredConsent,
  StoredCustomField,
  StoredEmail,
  StoredPreference,
} from './profile-data.schema';
import { ProfileRules } from './profile-rules';
import { emptyProfileData } from '../testing';

/*
 * One test per row of the precedence tables of docs/profile-merge.md: each test name starts
 * with the row id.
 */

const OLD = '2026-01-01T00:00:00.000Z';
const NEW = '2026-06-01T00:00:00.000Z';
const MERGE_AT = '2026-11-28T06:00:00.000Z';

// The consent and preference rows are the rule modules' own, asked as the worker asks them.
const precedence = new ProfileRules([
  CONSENT_PROFILE_RULES,
  PREFERENCE_PROFILE_RULES,
]).mergePrecedence();
const decideConsent = precedence.consent;
const decidePreference = precedence.preference;

const rules: Record<string, number> = {
  always: 1,
  ifblank: 2,
  ifnotblank: 4,
  never: 5,
};
const ctx: AbsorbContext = {
  at: MERGE_AT,
  userId: 'merger',
  reasonCode: 'Duplicate',
  updateRuleOf: (name) => rules[name.toLowerCase()],
  precedence,
};

const edited = (at: string, createdAt = at, by = 'u'): Edited => ({
  CreateDate: createdAt,
  CreatedBy: by,
  ModifiedDate: at,
  ModifiedBy: by,
});

const profile = (overrides: Partial<ProfileData> = {}) => emptyProfileData(edited(OLD), overrides);

const consent = (
  status: number,
  at: string,
  extra: Partial<StoredConsent> = {},
): StoredConsent => ({
  ConsentType: 'Marketing',
  Key: 'marketing',
  ConsentStatus: status,
  ConsentVersion: `v-${status}-${at}`,
  IsActive: true,
  Edited: edited(at),
  ...extra,
});

const GRANTED = 1;
const DENIED = 2;
const REVOKED = 3;
const NOT_SET = 4;

const pref = (
  type: number,
  at: string,
  extra: Partial<StoredPreference> = {},
): StoredPreference => ({
  ProgramId: '1',
  ChannelId: 'Email',
  FilterId: '2',
  PreferenceType: type,
  PreferenceStatus: 'Active',
  LastModifiedDate: at,
  IsActive: true,
  ...extra,
});
const OPT_IN = 1;
const OPT_OUT = 2;

const email = (address: string, at: string, extra: Partial<StoredEmail> = {}): StoredEmail => ({
  EmailAddress: address,
  Key: address.toLowerCase(),
  IsActive: true,
  Consents: [],
  EmailPreferences: [],
  Edited: edited(at),
  ...extra,
});

const field = (name: string, value: string | undefined, at: string): StoredCustomField => ({
  Name: name,
  Key: name.toLowerCase(),
  Value: value,
  IsActive: true,
  Edited: edited(at),
});

function absorbFields(s: StoredCustomField, a: StoredCustomField): string | undefined {
  const merged = absorbProfile(profile({ CustomFields: [s] }), profile({ CustomFields: [a] }), ctx);
  expect(merged.CustomFields).toHaveLength(1);
  return merged.CustomFields[0].Value;
}

describe('absorbProfile: profile fields and elements', () => {
  it('F1: keeps the survivor standard fields, taking from the absorbed only what it lacks', () => {
    const merged = absorbProfile(
      profile({ CustomerType: 'Customer', DefaultLocale: undefined }),
      profile({ CustomerType: 'Prospect', DefaultLocale: 'fr-FR', RegistrationConfirmed: true }),
      ctx,
    );
    expect(merged.CustomerType).toBe('Customer');
    expect(merged.DefaultLocale).toBe('fr-FR');
    expect(merged.RegistrationConfirmed).toBe(true);
  });

  it('F2: keeps the survivor name part by part, filling the parts it lacks', () => {
    const merged = absorbProfile(
      profile({ CustomerName: { FirstName: 'Ann' } }),
      profile({ CustomerName: { FirstName: 'Anne', LastName: 'Lee' } }),
      ctx,
    );
    expect(merged.CustomerName).toEqual({ FirstName: 'Ann', LastName: 'Lee' });
  });

  it('F3: takes the merge reason code', () => {
    const merged = absorbProfile(
      profile({ ReasonCode: 'Old' }),
      profile({ ReasonCode: 'Other' }),
      ctx,
    );
    expect(merged.ReasonCode).toBe('Duplicate');
  });

  it('F4: keeps the survivor creation, stamps the merge as the modification', () => {
    const merged = absorbProfile(
      profile({ Edited: edited(NEW, NEW, 'creator') }),
      profile({ Edited: edited(OLD, OLD, 'other') }),
      ctx,
    );
    expect(merged.Edited).toEqual({
      CreateDate: NEW,
      CreatedBy: 'creator',
      ModifiedDate: MERGE_AT,
      ModifiedBy: 'merger',
    });
  });

  it('C1: adds a contact element only the absorbed profile has, with its consents and preferences', () => {
    const a = email('b@example.com', OLD, {
      Consents: [consent(GRANTED, OLD)],
      EmailPreferences: [pref(OPT_IN, OLD)],
    });
    const merged = absorbProfile(
      profile({ Emails: [email('a@example.com', OLD)] }),
      profile({ Emails: [a] }),
      ctx,
    );
    expect(merged.Emails.map((e) => e.EmailAddress)).toEqual(['a@example.com', 'b@example.com']);
    expect(merged.Emails[1]).toEqual(a);
  });

  it('C2: makes one element of the same address, plain fields of the more recent, nested by the tables', () => {
    const s = email('Ann@Example.com', OLD, {
      EmailAddressType: 'Home',
      IsActive: false,
      Consents: [consent(REVOKED, NEW)],
      EmailPreferences: [pref(OPT_IN, OLD)],
    });
    const a = email('ann@example.com ', NEW, {
      EmailAddressType: 'Work',
      Consents: [consent(GRANTED, OLD)],
      EmailPreferences: [pref(OPT_OUT, NEW)],
    });
    const merged = absorbProfile(profile({ Emails: [s] }), profile({ Emails: [a] }), ctx);
    expect(merged.Emails).toHaveLength(1);
    const [element] = merged.Emails;
    expect(element.EmailAddressType).toBe('Work');
    expect(element.IsActive).toBe(true);
    expect(element.Edited.CreateDate).toBe(OLD);
    expect(element.Consents.map((c) => c.ConsentStatus)).toEqual([REVOKED]);
    expect(element.EmailPreferences.map((p) => p.PreferenceType)).toEqual([OPT_OUT]);
  });

  it('C3: keeps the survivor default as the only default', () => {
    const merged = absorbProfile(
      profile({ PhoneNumbers: [phone('555 0100', true)] }),
      profile({ PhoneNumbers: [phone('5550200', true)] }),
      ctx,
    );
    expect(merged.PhoneNumbers.map((p) => [p.PhoneNumber, p.IsDefault])).toEqual([
      ['555 0100', true],
      ['5550200', false],
    ]);
    // Without a survivor default, the absorbed profile's default stays.
    const second = absorbProfile(
      profile({ PhoneNumbers: [phone('555 0100', false)] }),
      profile({ PhoneNumbers: [phone('5550200', true)] }),
      ctx,
    );
    expect(second.PhoneNumbers.map((p) => p.IsDefault)).toEqual([false, true]);
  });

  it('AI1: adds the absorbed alternate ids (their claims are the ones to move)', () => {
    const a = profile({
      AlternateIds: [altId('CRM', 'c-1', true), altId('CRM', 'c-2', false)],
    });
    const merged = absorbProfile(profile({ AlternateIds: [altId('Web', 'w-1', true)] }), a, ctx);
    expect(
      merged.AlternateIds.map((p) => `${p.AlternateIdType}:${p.AlternateId}:${p.IsActive}`),
    ).toEqual(['Web:w-1:true', 'CRM:c-1:true', 'CRM:c-2:false']);
    expect(alternateIdsToMove(a).map((p) => p.AlternateId)).toEqual(['c-1']);
  });

  it('AI2: makes one element of the same pair, active if active on either', () => {
    const merged = absorbProfile(
      profile({ AlternateIds: [altId('crm', 'C-1', false)] }),
      profile({ AlternateIds: [altId('CRM', 'c-1', true)] }),
      ctx,
    );
    expect(merged.AlternateIds).toHaveLength(1);
    expect(merged.AlternateIds[0].IsActive).toBe(true);
    expect(merged.AlternateIds[0].AlternateIdType).toBe('crm');
  });

  it('CF1: adds a custom field only the absorbed profile has, whatever its rule', () => {
    for (const name of ['Always', 'IfBlank', 'IfNotBlank', 'Never']) {
      const merged = absorbProfile(
        profile(),
        profile({ CustomFields: [field(name, 'x', OLD)] }),
        ctx,
      );
      expect(merged.CustomFields.map((f) => f.Value)).toEqual(['x']);
    }
  });

  it('CF2: leaves equal values unchanged (the survivor element)', () => {
    const merged = absorbProfile(
      profile({ CustomFields: [field('Never', 'x', OLD)] }),
      profile({ CustomFields: [field('Never', 'x', NEW)] }),
      ctx,
    );
    expect(merged.CustomFields[0].Edited.ModifiedDate).toBe(OLD);
  });

  it('CF3: rule Always takes the more recent value', () => {
    expect(absorbFields(field('Always', 's', OLD), field('Always', 'a', NEW))).toBe('a');
    expect(absorbFields(field('Always', 's', NEW), field('Always', 'a', OLD))).toBe('s');
    expect(absorbFields(field('Always', '', OLD), field('Always', 'a', NEW))).toBe('a');
    expect(absorbFields(field('Unconfigured', 's', OLD), field('Unconfigured', 'a', NEW))).toBe(
      'a',
    );
  });

  it('CF4: rule If Current Value Is Blank keeps a non-blank survivor value', () => {
    expect(absorbFields(field('IfBlank', 's', OLD), field('IfBlank', 'a', NEW))).toBe('s');
    expect(absorbFields(field('IfBlank', ' ', OLD), field('IfBlank', 'a', NEW))).toBe('a');
  });

  it('CF5: rule If New Value Is Not Blank takes the more recent, never a blank over a value', () => {
    expect(absorbFields(field('IfNotBlank', 's', OLD), field('IfNotBlank', 'a', NEW))).toBe('a');
    expect(absorbFields(field('IfNotBlank', 's', OLD), field('IfNotBlank', '', NEW))).toBe('s');
    expect(absorbFields(field('IfNotBlank', '', NEW), field('IfNotBlank', 'a', OLD))).toBe('a');
  });

  it('CF6: rule Never keeps the survivor value when it has one', () => {
    expect(absorbFields(field('Never', 's', OLD), field('Never', 'a', NEW))).toBe('s');
    expect(absorbFields(field('Never', undefined, OLD), field('Never', 'a', NEW))).toBe('a');
  });

  it('G1: unites groups; the survivor primary group stays the only primary', () => {
    const merged = absorbProfile(
      profile({
        Groups: [group('Store', 'North', true, true), group('Store', 'East', false, false)],
      }),
      profile({
        Groups: [group('store', 'east', false, true), group('Store', 'South', true, true)],
      }),
      ctx,
    );
    expect(merged.Groups.map((g) => [g.GroupName, g.IsPrimary, g.IsActive])).toEqual([
      ['North', true, true],
      ['East', false, true],
      ['South', false, true],
    ]);
  });

  it('T1: unites tags by name, active if active on either', () => {
    const merged = absorbProfile(
      profile({ ProfileTags: [tag('VIP', false), tag('Gold', true)] }),
      profile({ ProfileTags: [tag('vip', true), tag('Silver', true)] }),
      ctx,
    );
    expect(merged.ProfileTags.map((t) => [t.Name, t.IsActive])).toEqual([
      ['VIP', true],
      ['Gold', true],
      ['Silver', true],
    ]);
  });

  it('leaves both inputs unchanged', () => {
    const s = profile({ Emails: [email('a@example.com', OLD)] });
    const a = profile({ Emails: [email('a@example.com', NEW, { IsDefault: true })] });
    const before = structuredClone([s, a]);
    absorbProfile(s, a, ctx);
    expect([s, a]).toEqual(before);
  });
});

describe('absorbProfile: consents (per type, per container)', () => {
  const kept = (s: StoredConsent | undefined, a: StoredConsent | undefined) => decideConsent(s, a);

  it('K1: the survivor has none (or an inactive one): the absorbed consent', () => {
    const a = consent(GRANTED, OLD);
    expect(kept(undefined, a)).toBe(a);
    expect(kept(consent(GRANTED, NEW, { IsActive: false }), a)).toBe(a);
  });

  it('K2: the absorbed profile has none: the survivor consent', () => {
    const s = consent(DENIED, OLD);
    expect(kept(s, undefined)).toBe(s);
    expect(kept(s, consent(GRANTED, NEW, { IsActive: false }))).toBe(s);
  });

  it('K3: both granted, the survivor more recent: the survivor grant', () => {
    const s = consent(GRANTED, NEW);
    expect(kept(s, consent(GRANTED, OLD))).toBe(s);
  });

  it('K4: both granted, the absorbed more recent: the absorbed grant (its version)', () => {
    const a = consent(GRANTED, NEW);
    expect(kept(consent(GRANTED, OLD), a)).toBe(a);
  });

  it('K5: a more recent refusal of the survivor is never replaced by an older grant', () => {
    for (const status of [REVOKED, DENIED]) {
      const s = consent(status, NEW);
      expect(kept(s, consent(GRANTED, OLD))).toBe(s);
    }
  });

  it('K6: a grant more recent than the survivor refusal is a re-consent: the grant', () => {
    for (const status of [REVOKED, DENIED]) {
      const a = consent(GRANTED, NEW);
      expect(kept(consent(status, OLD), a)).toBe(a);
    }
  });

  it('K7: a survivor grant more recent than the absorbed refusal: the grant', () => {
    for (const status of [REVOKED, DENIED]) {
      const s = consent(GRANTED, NEW);
      expect(kept(s, consent(status, OLD))).toBe(s);
    }
  });

  it('K8: a more recent refusal of the absorbed profile replaces an older grant', () => {
    for (const status of [REVOKED, DENIED]) {
      const a = consent(status, NEW);
      expect(kept(consent(GRANTED, OLD), a)).toBe(a);
    }
  });

  it('K9: an answer beats NotSet, whatever the dates', () => {
    for (const status of [GRANTED, DENIED, REVOKED]) {
      const a = consent(status, OLD);
      expect(kept(consent(NOT_SET, NEW), a)).toBe(a);
    }
  });

  it('K10: the survivor answer beats an absorbed NotSet, whatever the dates', () => {
    for (const status of [GRANTED, DENIED, REVOKED]) {
      const s = consent(status, OLD);
      expect(kept(s, consent(NOT_SET, NEW))).toBe(s);
    }
  });

  it('K11: compares when the decision was recorded (Edited.ModifiedDate), not ConsentDate', () => {
    const s = consent(GRANTED, NEW, { ConsentDate: '2020-01-01T00:00:00.000Z' });
    const a = consent(REVOKED, OLD, { ConsentDate: '2025-12-31T00:00:00.000Z' });
    expect(kept(s, a)).toBe(s);
  });

  it('K12: Revoked against Denied: the more recent', () => {
    const revokedNew = consent(REVOKED, NEW);
    expect(kept(consent(DENIED, OLD), revokedNew)).toBe(revokedNew);
    const deniedNew = consent(DENIED, NEW);
    expect(kept(deniedNew, consent(REVOKED, OLD))).toBe(deniedNew);
  });

  it('K13: equal stamps: the refusal; two refusals: the survivor', () => {
    const a = consent(REVOKED, NEW);
    expect(kept(consent(GRANTED, NEW), a)).toBe(a);
    const s = consent(GRANTED, NEW);
    expect(kept(s, consent(GRANTED, NEW))).toBe(s);
    const sDenied = consent(DENIED, NEW);
    expect(kept(sDenied, consent(REVOKED, NEW))).toBe(sDenied);
  });

  it("K14: the absorbed profile's pending confirmation: taken over only where the survivor has no state of its own", () => {
    const request = { Id: 'absorbed', RequestedDate: NEW };
    const a = consent(NOT_SET, NEW, { PendingConfirmation: request });
    // None, or NotSet without a request of its own: the survivor takes the request over.
    expect(kept(undefined, a)?.PendingConfirmation).toEqual(request);
    expect(kept(consent(NOT_SET, OLD), a)?.PendingConfirmation).toEqual(request);
    // An answer of the survivor's (any date) or its own request: the absorbed one is dropped.
    for (const s of [
      consent(GRANTED, OLD),
      consent(DENIED, OLD),
      consent(NOT_SET, OLD, { PendingConfirmation: { Id: 'own', RequestedDate: OLD } }),
    ])
      expect(kept(s, a)?.PendingConfirmation?.Id).not.toBe('absorbed');
    // A refusal on the absorbed profile that wins (K8) does not bring its request along.
    const aDenied = consent(DENIED, NEW, { PendingConfirmation: request });
    const result = kept(consent(GRANTED, OLD), aDenied);
    expect(result).toMatchObject({ ConsentStatus: DENIED });
    expect(result?.PendingConfirmation).toBeUndefined();
  });

  it('applies per container: profile consents and each contact element separately', () => {
    const merged = absorbProfile(
      profile({
        Consents: [consent(GRANTED, NEW)],
        Emails: [email('a@example.com', OLD, { Consents: [consent(GRANTED, OLD)] })],
      }),
      profile({
        Consents: [
          consent(REVOKED, OLD),
          consent(GRANTED, OLD, { ConsentType: 'Terms', Key: 'terms' }),
        ],
        Emails: [email('A@example.com', OLD, { Consents: [consent(REVOKED, NEW)] })],
      }),
      ctx,
    );
    expect(merged.Consents.map((c) => [c.ConsentType, c.ConsentStatus])).toEqual([
      ['Marketing', GRANTED],
      ['Terms', GRANTED],
    ]);
    expect(merged.Emails[0].Consents.map((c) => c.ConsentStatus)).toEqual([REVOKED]);
  });
});

describe('absorbProfile: preferences (per container, per program, channel and filter)', () => {
  const kept = (s: StoredPreference | undefined, a: StoredPreference | undefined) =>
    decidePreference(s, a);
  const dncMark = (at: string) =>
    pref(OPT_IN, at, {
      SourceId: 'DoNotContact',
      PreferenceAttributes: [{ Key: '$DoNotContactLists', Value: '1' }],
    });

  it('P1: the survivor has none: the absorbed preference', () => {
    const a = pref(OPT_IN, OLD);
    expect(kept(undefined, a)).toBe(a);
  });

  it('P2: the absorbed profile has none: the survivor preference', () => {
    const s = pref(OPT_OUT, OLD);
    expect(kept(s, undefined)).toBe(s);
  });

  it('P3: both opt-ins, the survivor more recent: the survivor', () => {
    const s = pref(OPT_IN, NEW, { FrequencyId: 'weekly' });
    expect(kept(s, pref(OPT_IN, OLD, { FrequencyId: 'daily' }))).toBe(s);
  });

  it('P4: both opt-ins, the absorbed more recent: the absorbed (its frequency, expiry)', () => {
    const a = pref(OPT_IN, NEW, {
      FrequencyId: 'daily',
      ExpirationDate: '2027-01-01T00:00:00.000Z',
    });
    expect(kept(pref(OPT_IN, OLD), a)).toBe(a);
  });

  it('P5: a more recent survivor opt-out is never replaced by an older opt-in', () => {
    const s = pref(OPT_OUT, NEW);
    expect(kept(s, pref(OPT_IN, OLD))).toBe(s);
  });

  it('P6: an opt-in more recent than the survivor opt-out: the opt-in', () => {
    const a = pref(OPT_IN, NEW);
    expect(kept(pref(OPT_OUT, OLD), a)).toBe(a);
  });

  it('P7: a more recent absorbed opt-out replaces an older opt-in', () => {
    const a = pref(OPT_OUT, NEW);
    expect(kept(pref(OPT_IN, OLD), a)).toBe(a);
  });

  it('P8: a survivor opt-in more recent than the absorbed opt-out: the opt-in', () => {
    const s = pref(OPT_IN, NEW);
    expect(kept(s, pref(OPT_OUT, OLD))).toBe(s);
  });

  it('P9: a do-not-contact mark is kept on either side, whatever the dates', () => {
    const sMark = dncMark(OLD);
    expect(kept(sMark, pref(OPT_IN, NEW))).toBe(sMark);
    const aMark = dncMark(OLD);
    expect(kept(pref(OPT_IN, NEW), aMark)).toBe(aMark);
    const bySource = pref(OPT_IN, OLD, { SourceId: 'DoNotContact' });
    expect(kept(pref(OPT_IN, NEW), bySource)).toBe(bySource);
  });

  it('P10: an archived survivor preference counts as none: the active absorbed one', () => {
    const a = pref(OPT_IN, OLD);
    expect(kept(pref(OPT_OUT, NEW, { IsActive: false }), a)).toBe(a);
  });

  it('P11: an archived absorbed preference counts as none: the active survivor one', () => {
    const s = pref(OPT_IN, OLD);
    expect(kept(s, pref(OPT_OUT, NEW, { IsActive: false }))).toBe(s);
  });

  it('P12: equal stamps, opt-in against opt-out: the opt-out', () => {
    const a = pref(OPT_OUT, NEW);
    expect(kept(pref(OPT_IN, NEW), a)).toBe(a);
    const s = pref(OPT_OUT, NEW);
    expect(kept(s, pref(OPT_IN, NEW))).toBe(s);
  });

  it('P13: a more recent expired opt-in is kept over an older active one (no revival)', () => {
    const s = pref(OPT_IN, NEW, { PreferenceStatus: 'Expired' });
    expect(kept(s, pref(OPT_IN, OLD))).toBe(s);
  });

  it('matches preferences by program, channel alias and filter, per container', () => {
    const merged = absorbProfile(
      profile({
        ProfilePreferences: [pref(OPT_IN, OLD)],
        PhoneNumbers: [
          {
            ...phone('5550100', false),
            PhonePreferences: [pref(OPT_IN, NEW, { ChannelId: 'SMS' })],
          },
        ],
      }),
      profile({
        ProfilePreferences: [pref(OPT_OUT, NEW, { ProgramId: '01' })],
        PhoneNumbers: [
          {
            ...phone('555-0100', false),
            PhonePreferences: [pref(OPT_OUT, OLD, { ChannelId: 'SMS' })],
          },
        ],
      }),
      ctx,
    );
    expect(merged.ProfilePreferences.map((p) => p.PreferenceType)).toEqual([OPT_OUT]);
    expect(merged.PhoneNumbers).toHaveLength(1);
    expect(merged.PhoneNumbers[0].PhonePreferences.map((p) => p.PreferenceType)).toEqual([OPT_IN]);
  });
});

function phone(number: string, isDefault: boolean) {
  return {
    PhoneNumber: number,
    PhoneNumberNumeric: Number(number.replace(/\D/g, '')),
    IsDefault: isDefault,
    IsActive: true,
    Consents: [],
    PhonePreferences: [],
    Edited: edited(OLD),
  };
}

function altId(type: string, value: string, active: boolean) {
  return { AlternateIdType: type, AlternateId: value, IsActive: active, Edited: edited(OLD) };
}

function group(type: string, name: string, primary: boolean, active: boolean) {
  return {
    GroupType: type,
    GroupName: name,
    IsPrimary: primary,
    IsActive: active,
    Edited: edited(OLD),
  };
}

function tag(name: string, active: boolean) {
  return { Name: name, Key: name.toLowerCase(), IsActive: active };
}
