import { applyDoNotContact, DNC_LISTS_ATTRIBUTE, type DncApplyWrite } from './do-not-contact-marks';
import type { ProfileData } from '@app/profiles';
import { partialData } from '@app/profiles/testing';

const ctx = { at: '2026-11-22T10:00:00.000Z', userId: 'system' };
const filter = { ProgramId: '9', ChannelId: 'Email', FilterId: '90' };

function profile(): ProfileData {
  return partialData({
    IsActive: true,
    CustomerType: 'Customer',
    Emails: [
      {
        EmailAddress: 'Ann@Example.com',
        IsActive: true,
        Consents: [
          { ConsentType: 'Marketing', ConsentStatus: 1, IsActive: true },
          { ConsentType: 'Terms', ConsentStatus: 1, IsActive: true },
        ],
        EmailPreferences: [
          {
            ProgramId: '1',
            ChannelId: 'Email',
            FilterId: '10',
            IsActive: true,
            ConsentAssociations: [{ ConsentType: 'Marketing', IsActive: true }],
          },
        ],
      },
      { EmailAddress: 'other@example.com', IsActive: true, Consents: [], EmailPreferences: [] },
    ],
    PhoneNumbers: [],
  });
}

const listed = (ListId: number, extra: Partial<DncApplyWrite> = {}): DncApplyWrite => ({
  Channel: 'Email',
  Key: 'ann@example.com',
  ListId,
  Listed: true,
  Filter: filter,
  ...extra,
});

describe('applyDoNotContact', () => {
  it('adds a DNC preference naming the list and revokes consents tied to other preferences', () => {
    const after = applyDoNotContact(profile(), listed(3), ctx);
    const email = after.Emails[0];
    const dnc = email.EmailPreferences.find((p) => p.FilterId === '90')!;
    expect(dnc).toMatchObject({ ...filter, IsActive: true, PreferenceStatus: 'Active' });
    expect(dnc.PreferenceAttributes).toEqual([{ Key: DNC_LISTS_ATTRIBUTE, Value: '3' }]);
    expect(email.Consents.map((c) => [c.ConsentType, c.ConsentStatus])).toEqual([
      ['Marketing', 3],
      ['Terms', 1],
    ]);
    expect(email.Consents[0].ReasonCode).toBe('DoNotContact');
    // The other email is untouched.
    expect(after.Emails[1].EmailPreferences).toEqual([]);
  });

  it('is idempotent, and several lists share one preference', () => {
    const once = applyDoNotContact(profile(), listed(3), ctx);
    expect(applyDoNotContact(once, listed(3), ctx)).toBe(once);
    const twice = applyDoNotContact(once, listed(1), ctx);
    const attribute = twice.Emails[0].EmailPreferences.find((p) => p.FilterId === '90')!
      .PreferenceAttributes![0];
    expect(attribute.Value).toBe('1,3');
  });

  it('archives the preference when the last list lets the value go', () => {
    let data = applyDoNotContact(profile(), listed(3), ctx);
    data = applyDoNotContact(data, listed(1), ctx);
    data = applyDoNotContact(data, listed(3, { Listed: false }), ctx);
    const dnc = () => data.Emails[0].EmailPreferences.find((p) => p.FilterId === '90')!;
    expect(dnc().IsActive).toBe(true);
    data = applyDoNotContact(data, listed(1, { Listed: false }), ctx);
    expect(dnc().IsActive).toBe(false);
    expect(dnc().PreferenceAttributes).toContainEqual({
      Key: '$Reason_Code',
      Value: 'RemovedFromDoNotContactList',
    });
    // Leaving again changes nothing.
    expect(applyDoNotContact(data, listed(1, { Listed: false }), ctx)).toBe(data);
  });

  it('without a DNC filter only revokes the tied consents', () => {
    const after = applyDoNotContact(profile(), listed(3, { Filter: undefined }), ctx);
    expect(after.Emails[0].EmailPreferences).toHaveLength(1);
    expect(after.Emails[0].Consents[0].ConsentStatus).toBe(3);
  });

  it('matches phones by digits', () => {
    const data = partialData({
      ...profile(),
      PhoneNumbers: [
        { PhoneNumber: '+1 (555) 010-0001', IsActive: true, Consents: [], PhonePreferences: [] },
      ],
    });
    const after = applyDoNotContact(
      data,
      {
        Channel: 'Phone',
        Key: '15550100001',
        ListId: 2,
        Listed: true,
        Filter: { ProgramId: '9', ChannelId: 'Phone', FilterId: '91' },
      },
      ctx,
    );
    expect(after.PhoneNumbers[0].PhonePreferences[0].FilterId).toBe('91');
  });
});
