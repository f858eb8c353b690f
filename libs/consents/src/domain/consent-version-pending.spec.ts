import {
  type ConsentVersionPendingWrite,
  markVersionPending,
  versionsOlderThan,
} from './consent-version-pending';
import type { ProfileData } from '@app/profiles';
import { emptyProfileData } from '@app/profiles/testing';

const ctx = { at: '2026-06-01T00:00:00.000Z', userId: 'system:consent-version' };
const edited = {
  CreateDate: '2026-01-01T00:00:00.000Z',
  CreatedBy: 'u',
  ModifiedDate: '2026-01-01T00:00:00.000Z',
  ModifiedBy: 'u',
};
const write: ConsentVersionPendingWrite = {
  ConsentType: 'Marketing',
  LatestVersion: '3.0',
  OlderVersions: ['1.0', '2.0'],
};

function profile(): ProfileData {
  const consent = (ConsentType: string, ConsentVersion: string, extra = {}) => ({
    ConsentType,
    ConsentVersion,
    IsActive: true,
    Edited: edited,
    ...extra,
  });
  return emptyProfileData(edited, {
    Consents: [consent('Marketing', '1.0'), consent('Terms', '1.0'), consent(' marketing ', '3.0')],
    Emails: [
      {
        EmailAddress: 'a@x.com',
        IsActive: true,
        Edited: edited,
        EmailPreferences: [],
        Consents: [consent('MARKETING', '2.0')],
      },
      {
        EmailAddress: 'b@x.com',
        IsActive: false,
        Edited: edited,
        EmailPreferences: [],
        Consents: [consent('Marketing', '1.0')],
      },
    ],
    PhoneNumbers: [
      {
        PhoneNumber: '1',
        PhoneNumberNumeric: 1,
        IsActive: true,
        Edited: edited,
        PhonePreferences: [],
        Consents: [consent('Marketing', '1.0', { IsActive: false }), consent('Marketing', '4.0')],
      },
    ],
  });
}

describe('markVersionPending', () => {
  it('flags active consents of the type on an older version, on the profile and active contacts', () => {
    const before = profile();
    const { data, consents } = markVersionPending(before, write, ctx);
    expect(consents).toBe(2);
    expect(data.Consents.map((c) => c.UpdatedVersionPending ?? null)).toEqual([true, null, null]);
    expect(data.Consents[0].Edited).toEqual({
      ...edited,
      ModifiedDate: ctx.at,
      ModifiedBy: ctx.userId,
    });
    expect(data.Emails[0].Consents[0].UpdatedVersionPending).toBe(true);
    expect(data.Emails[1]).toBe(before.Emails[1]);
    // Inactive consents and versions not older (3.0 itself, an unknown 4.0) are untouched.
    expect(data.PhoneNumbers[0].Consents.map((c) => c.UpdatedVersionPending ?? null)).toEqual([
      null,
      null,
    ]);
    expect(data.Edited.ModifiedBy).toBe(ctx.userId);
  });

  it('changes nothing the second time', () => {
    const once = markVersionPending(profile(), write, ctx).data;
    const twice = markVersionPending(once, write, ctx);
    expect(twice.consents).toBe(0);
    expect(twice.data).toBe(once);
  });
});

describe('versionsOlderThan', () => {
  const versions = [
    { ConsentVersion: '1.0', PublishedDate: '2026-01-01T00:00:00Z' },
    { ConsentVersion: 'b', PublishedDate: '2026-03-01T00:00:00Z' },
    { ConsentVersion: 'a', PublishedDate: '2026-02-01T00:00:00Z' },
    { ConsentVersion: 'a2', PublishedDate: '2026-02-01T00:00:00Z' },
  ];

  it('lists the versions published before, by PublishedDate then list order', () => {
    expect(versionsOlderThan(versions, 'B')).toEqual(['1.0', 'a', 'a2']);
    expect(versionsOlderThan(versions, 'a2')).toEqual(['1.0', 'a']);
    expect(versionsOlderThan(versions, '1.0')).toEqual([]);
  });

  it('is empty for an unknown version', () => {
    expect(versionsOlderThan(versions, '9')).toEqual([]);
  });
});
