import { CONSENT_PROFILE_RULES } from '@app/consents';
import { PREFERENCE_PROFILE_RULES } from '@app/preferences';
import { type ProfileData, ProfileRules, type WriteContext } from '@app/profiles';
import { emptyProfileData } from '@app/profiles/testing';

/*
 * Expiry as the apps compose it: the consents' and the preferences' rule modules behind
 * Profiles' ProfileRules (one `expire` write marks both; one nextExpiryAt covers both).
 */
const rules = new ProfileRules([CONSENT_PROFILE_RULES, PREFERENCE_PROFILE_RULES]);
const expireProfileData = (data: ProfileData, asOfIso: string, ctx: WriteContext) =>
  rules.expire(data, asOfIso, ctx);
const nextExpiry = (data: ProfileData) => rules.nextDue(data);

const ctx = { at: '2026-06-01T00:00:05.000Z', userId: 'system:consent-expiry' };
const asOf = '2026-06-01T00:00:00.000Z';
const edited = {
  CreateDate: '2026-01-01T00:00:00.000Z',
  CreatedBy: 'u',
  ModifiedDate: '2026-01-01T00:00:00.000Z',
  ModifiedBy: 'u',
};

function profile(): ProfileData {
  return emptyProfileData(edited, {
    Consents: [
      {
        ConsentType: 'Terms',
        Key: 'terms',
        ExpirationDate: '2026-05-31T23:59:59Z',
        IsActive: true,
        Edited: edited,
      },
      {
        ConsentType: 'Mail',
        Key: 'mail',
        ExpirationDate: '2026-06-01T00:00:01Z',
        IsActive: true,
        Edited: edited,
      },
      // Due by its offset (05:00+02:00 is 03:00Z the day before).
      {
        ConsentType: 'Sms',
        Key: 'sms',
        ExpirationDate: '2026-05-31T05:00:00+02:00',
        IsActive: true,
        Edited: edited,
      },
      {
        ConsentType: 'Old',
        Key: 'old',
        ExpirationDate: '2020-01-01',
        IsActive: false,
        Edited: edited,
      },
      {
        ConsentType: 'Done',
        Key: 'done',
        ExpirationDate: '2020-01-01',
        Expired: true,
        IsActive: true,
        Edited: edited,
      },
      { ConsentType: 'Never', Key: 'never', IsActive: true, Edited: edited },
    ],
    Emails: [
      {
        EmailAddress: 'a@example.com',
        IsActive: true,
        Edited: edited,
        Consents: [
          { ConsentType: 'Email', ExpirationDate: '2026-01-01', IsActive: true, Edited: edited },
        ],
        EmailPreferences: [
          {
            ProgramId: '1',
            ChannelId: 'Email',
            FilterId: '1',
            PreferenceStatus: 'Active',
            ExpirationDate: '2026-02-01T00:00:00Z',
            IsActive: true,
          },
          {
            ProgramId: '1',
            ChannelId: 'Email',
            FilterId: '2',
            PreferenceStatus: 'Active',
            ExpirationDate: '2027-02-01T00:00:00Z',
            IsActive: true,
          },
        ],
      },
      {
        EmailAddress: 'gone@example.com',
        IsActive: false,
        Edited: edited,
        Consents: [
          { ConsentType: 'Email', ExpirationDate: '2026-01-01', IsActive: true, Edited: edited },
        ],
        EmailPreferences: [],
      },
    ],
    ProfilePreferences: [
      {
        ProgramId: '1',
        ChannelId: 'Solicit',
        FilterId: '5',
        ExpirationDate: '2026-03-01T00:00:00Z',
        IsActive: true,
      },
      {
        ProgramId: '1',
        ChannelId: 'Solicit',
        FilterId: '6',
        PreferenceStatus: 'Expired',
        ExpirationDate: '2026-03-01T00:00:00Z',
        LastModifiedDate: 'x',
        IsActive: true,
      },
      {
        ProgramId: '1',
        ChannelId: 'Solicit',
        FilterId: '7',
        PreferenceStatus: 'Active',
        ExpirationDate: '2026-03-01T00:00:00Z',
        IsActive: false,
      },
    ],
  } as Partial<ProfileData>);
}

describe('expireProfileData', () => {
  it('marks due active consents Expired and due active preferences Expired, nothing else', () => {
    const before = profile();
    const { data, counts } = expireProfileData(before, asOf, ctx);
    expect(counts).toEqual({ consents: 3, preferences: 2 });
    expect(data.Consents.map((c) => [c.ConsentType, c.Expired ?? null])).toEqual([
      ['Terms', true],
      ['Mail', null],
      ['Sms', true],
      ['Old', null],
      ['Done', true],
      ['Never', null],
    ]);
    expect(data.Consents[0].Edited).toEqual({
      ...edited,
      ModifiedDate: ctx.at,
      ModifiedBy: ctx.userId,
    });
    expect(data.Consents[4].Edited).toEqual(edited);
    expect(data.Emails[0].Consents[0].Expired).toBe(true);
    expect(data.Emails[0].EmailPreferences.map((p) => p.PreferenceStatus)).toEqual([
      'Expired',
      'Active',
    ]);
    expect(data.Emails[0].EmailPreferences[0].LastModifiedDate).toBe(ctx.at);
    // Inactive elements are left as stored.
    expect(data.Emails[1]).toBe(before.Emails[1]);
    expect(data.ProfilePreferences.map((p) => p.PreferenceStatus)).toEqual([
      'Expired',
      'Expired',
      'Active',
    ]);
    expect(data.ProfilePreferences[1].LastModifiedDate).toBe('x');
    expect(data.Edited).toEqual({ ...edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId });
    // The input is not changed.
    expect(before.Consents[0].Expired).toBeUndefined();
  });

  it('changes nothing the second time (same object, no new stamps)', () => {
    const once = expireProfileData(profile(), asOf, ctx).data;
    const twice = expireProfileData(once, asOf, { ...ctx, at: '2026-06-02T00:00:00.000Z' });
    expect(twice.counts).toEqual({ consents: 0, preferences: 0 });
    expect(twice.data).toBe(once);
  });

  it('changes nothing before the dates', () => {
    const before = profile();
    const result = expireProfileData(before, '2019-01-01T00:00:00Z', ctx);
    expect(result.counts).toEqual({ consents: 0, preferences: 0 });
    expect(result.data).toBe(before);
  });

  it('ignores an unparsable AsOf', () => {
    const before = profile();
    expect(expireProfileData(before, 'soon', ctx).data).toBe(before);
  });
});

describe('nextExpiry', () => {
  it('is the earliest date of the active items not yet expired, on active elements', () => {
    // The active email's consent (2026-01-01) is the earliest dated item.
    expect(nextExpiry(profile())?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    const data = profile();
    data.Emails[0].Consents = [];
    // Then the email's first preference; the inactive email's consent does not count.
    expect(nextExpiry(data)?.toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('moves on once the due items are marked, and is undefined when nothing is left', () => {
    const expired = expireProfileData(profile(), '2030-01-01T00:00:00.000Z', ctx).data;
    expect(nextExpiry(expired)).toBeUndefined();
    const partly = expireProfileData(profile(), asOf, ctx).data;
    expect(nextExpiry(partly)!.getTime()).toBeGreaterThan(Date.parse(asOf));
  });

  it('ignores inactive profiles', () => {
    expect(nextExpiry({ ...profile(), IsActive: false })).toBeUndefined();
  });
});
