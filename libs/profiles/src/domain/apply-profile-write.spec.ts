import { applyProfileWrite, findRepeatedElement } from './apply-profile-write';
import type { ProfileData } from './profile-data.schema';

const t1 = { at: '2026-01-01T00:00:00.000Z', userId: 'alice' };
const t2 = { at: '2026-02-01T00:00:00.000Z', userId: 'bob' };

function created(): ProfileData {
  return applyProfileWrite(
    undefined,
    {
      CustomerType: 'Customer',
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      Emails: [
        {
          EmailAddress: 'Ann@Example.com',
          EmailAddressType: 'Home',
          EmailPreferences: [
            { ProgramId: 'P1', ChannelId: 'Email', FilterId: 'F1', PreferenceType: 1 },
          ],
        },
      ],
      PhoneNumbers: [{ PhoneNumber: '+1 (555) 010-2030', PhoneType: 'Mobile' }],
      CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
      ProfileTags: [{ Name: 'vip' }],
    },
    'overwrite',
    t1,
  );
}

describe('applyProfileWrite', () => {
  it('creates with defaults, Edited stamps and derived phone digits', () => {
    const data = created();
    expect(data.IsActive).toBe(true);
    expect(data.PreserveConsents).toBe(true);
    expect(data.PreservePreferences).toBe(true);
    expect(data.Edited).toEqual({
      CreateDate: t1.at,
      CreatedBy: 'alice',
      ModifiedDate: t1.at,
      ModifiedBy: 'alice',
    });
    expect(data.PhoneNumbers[0].PhoneNumberNumeric).toBe(15550102030);
    expect(data.Emails[0].IsActive).toBe(true);
    expect(data.Emails[0].EmailPreferences[0].LastModifiedDate).toBe(t1.at);
  });

  it('merge changes only what the body names', () => {
    const data = applyProfileWrite(created(), { CustomerName: { MiddleName: 'Q' } }, 'merge', t2);
    expect(data.CustomerName).toEqual({ FirstName: 'Ann', MiddleName: 'Q', LastName: 'Lee' });
    expect(data.CustomerType).toBe('Customer');
    expect(data.Emails).toHaveLength(1);
    expect(data.CustomFields[0].Value).toBe('Gold');
    expect(data.Edited.CreateDate).toBe(t1.at);
    expect(data.Edited.ModifiedBy).toBe('bob');
  });

  it('merge matches emails case-insensitively and phones by their digits', () => {
    const data = applyProfileWrite(
      created(),
      {
        Emails: [{ EmailAddress: 'ann@EXAMPLE.com', IsDefault: true }],
        PhoneNumbers: [{ PhoneNumber: '15550102030', IsMobile: true }],
      },
      'merge',
      t2,
    );
    expect(data.Emails).toHaveLength(1);
    expect(data.Emails[0]).toMatchObject({ EmailAddressType: 'Home', IsDefault: true });
    expect(data.Emails[0].Edited.CreateDate).toBe(t1.at);
    expect(data.PhoneNumbers).toHaveLength(1);
    expect(data.PhoneNumbers[0]).toMatchObject({
      PhoneType: 'Mobile',
      IsMobile: true,
      PhoneNumber: '15550102030',
    });
  });

  it('merge appends new elements and merges nested preferences by program, channel and filter', () => {
    const data = applyProfileWrite(
      created(),
      {
        Emails: [
          {
            EmailAddress: 'ann@example.com',
            EmailPreferences: [
              { ProgramId: 'P1', ChannelId: 'Email', FilterId: 'F1', PreferenceType: 2 },
              { ProgramId: 'P2', ChannelId: 'Email', FilterId: 'F9', PreferenceType: 1 },
            ],
          },
          { EmailAddress: 'second@example.com' },
        ],
      },
      'merge',
      t2,
    );
    expect(data.Emails.map((e) => e.EmailAddress)).toEqual([
      'ann@example.com',
      'second@example.com',
    ]);
    expect(data.Emails[0].EmailPreferences.map((p) => [p.ProgramId, p.PreferenceType])).toEqual([
      ['P1', 2],
      ['P2', 1],
    ]);
  });

  it('merge with IsActive false keeps the element, inactive', () => {
    const data = applyProfileWrite(
      created(),
      { CustomFields: [{ Name: 'tier', IsActive: false }] },
      'merge',
      t2,
    );
    expect(data.CustomFields).toHaveLength(1);
    expect(data.CustomFields[0]).toMatchObject({ Name: 'tier', Value: 'Gold', IsActive: false });
  });

  describe('an archived preference named again', () => {
    const email = { ProgramId: 'P1', ChannelId: 'Email', FilterId: 'F1', PreferenceType: 1 };
    const solicit = { ProgramId: 'P1', ChannelId: 'Solicit', FilterId: 'S1', PreferenceType: 1 };
    const topic = [{ Key: 'Topic', Value: 'News' }];
    const body = {
      CustomerType: 'Customer',
      ProfilePreferences: [solicit],
      Emails: [
        {
          EmailAddress: 'ann@example.com',
          EmailPreferences: [{ ...email, PreferenceAttributes: topic }],
        },
      ],
    };
    /** Both preferences archived (inactive, with the archival's reason). */
    function archived(): ProfileData {
      const data = applyProfileWrite(undefined, body, 'overwrite', t1);
      for (const preference of [data.ProfilePreferences[0], data.Emails[0].EmailPreferences[0]]) {
        preference.IsActive = false;
        preference.PreferenceAttributes = [
          ...(preference.PreferenceAttributes ?? []),
          { Key: '$Reason_Code', Value: 'GONE' },
        ];
      }
      return data;
    }

    it('comes back when a later overwrite restates it, without its archival reason', () => {
      const data = applyProfileWrite(archived(), body, 'overwrite', t2);
      expect(data.ProfilePreferences[0].IsActive).toBe(true);
      expect(data.Emails[0].EmailPreferences[0]).toMatchObject({
        IsActive: true,
        PreferenceAttributes: topic,
      });
    });

    it('comes back when a later merge names it; what the merge does not name stays archived', () => {
      const data = applyProfileWrite(archived(), { Emails: body.Emails }, 'merge', t2);
      expect(data.Emails[0].EmailPreferences[0]).toMatchObject({
        IsActive: true,
        PreferenceAttributes: topic,
      });
      expect(data.ProfilePreferences[0].IsActive).toBe(false);
    });
  });

  it('merge matches tags by name, case-insensitively', () => {
    const data = applyProfileWrite(
      created(),
      { ProfileTags: [{ Name: 'VIP' }, { Name: 'new' }] },
      'merge',
      t2,
    );
    expect(data.ProfileTags.map((tag) => tag.Name)).toEqual(['VIP', 'new']);
  });

  it('null clears a field in a merge', () => {
    const data = applyProfileWrite(created(), { CustomerName: { LastName: null } }, 'merge', t2);
    expect(data.CustomerName).toEqual({ FirstName: 'Ann' });
  });

  it('overwrite removes what the body omits and keeps creation stamps of matched elements', () => {
    const data = applyProfileWrite(
      created(),
      { CustomerType: 'Prospect', Emails: [{ EmailAddress: 'ann@example.com' }] },
      'overwrite',
      t2,
    );
    expect(data.CustomerType).toBe('Prospect');
    expect(data.CustomerName).toBeUndefined();
    expect(data.PhoneNumbers).toEqual([]);
    expect(data.CustomFields).toEqual([]);
    expect(data.ProfileTags).toEqual([]);
    expect(data.Emails).toHaveLength(1);
    expect(data.Emails[0].EmailAddressType).toBeUndefined();
    expect(data.Emails[0].EmailPreferences).toEqual([]);
    expect(data.Emails[0].Edited).toMatchObject({ CreateDate: t1.at, ModifiedDate: t2.at });
    expect(data.Edited.CreateDate).toBe(t1.at);
  });

  it('ignores fields the service sets itself', () => {
    const data = applyProfileWrite(
      created(),
      {
        ProfileId: 99,
        UpdateStatus: 'Complete',
        Edited: { CreateDate: '1999-01-01' },
        PhoneNumbers: [{ PhoneNumber: '555 010 9999', PhoneNumberNumeric: 1 }],
      },
      'merge',
      t2,
    );
    expect(data).not.toHaveProperty('ProfileId');
    expect(data).not.toHaveProperty('UpdateStatus');
    expect(data.Edited.CreateDate).toBe(t1.at);
    expect(data.PhoneNumbers[1].PhoneNumberNumeric).toBe(5550109999);
  });

  it('does not change the stored data it was given', () => {
    const before = created();
    const copy = structuredClone(before);
    applyProfileWrite(
      before,
      { Emails: [{ EmailAddress: 'ann@example.com', IsDefault: true }] },
      'merge',
      t2,
    );
    expect(before).toEqual(copy);
  });
});

describe('findRepeatedElement', () => {
  it('names both places of an element given twice', () => {
    expect(
      findRepeatedElement({ Emails: [{ EmailAddress: 'a@x.io' }, { EmailAddress: 'A@X.io ' }] }),
    ).toBe('Emails[1] repeats Emails[0] (same EmailAddress: "A@X.io ")');
  });

  it('looks into nested collections', () => {
    const message = findRepeatedElement({
      PhoneNumbers: [
        {
          PhoneNumber: '1',
          Consents: [{ ConsentType: 'Sms' }, { ConsentType: 'sms' }],
        },
      ],
    });
    expect(message).toBe(
      'PhoneNumbers[0].Consents[1] repeats PhoneNumbers[0].Consents[0] (same ConsentType: "sms")',
    );
  });

  it('accepts distinct elements', () => {
    expect(
      findRepeatedElement({
        Groups: [
          { GroupType: 'A', GroupName: 'x' },
          { GroupType: 'A', GroupName: 'y' },
        ],
      }),
    ).toBeNull();
  });
});
