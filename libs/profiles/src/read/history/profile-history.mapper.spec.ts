import { tenantKey } from '@app/shared';
import type {
  ContactIdentity,
  HistorySnapshot,
  ProfileHistory,
} from '../../domain/profile-history.schema';
import {
  canSeeHistoryEntry,
  historyItemInContainer,
  ownHistoryPart,
  toHistoryEntryDto,
} from './profile-history.mapper';
import type { ProfileView } from '../../domain/profile-view';

const AT = '2026-01-01T00:00:00.000Z';
const ALTERNATE_IDS = [{ AlternateIdType: 'CRM', AlternateId: 'A1', IsActive: true }];
const EDITED = { CreateDate: AT, CreatedBy: 'alice', ModifiedDate: AT, ModifiedBy: 'bob' };

function entry(fields: Partial<ProfileHistory>): ProfileHistory {
  return {
    _id: tenantKey('c1', 7, 1, 0),
    clientId: 'c1',
    profileId: 7,
    seq: 1,
    n: 0,
    category: 'standard',
    modifiedAt: AT,
    snapshot: {},
    ...fields,
  };
}

describe('toHistoryEntryDto', () => {
  it("answers the entry's part as a profile: its ProfileId, the part, the current AlternateIds", () => {
    const part = { Consents: [{ ConsentType: 'Mail', IsActive: false }] };
    expect(toHistoryEntryDto(7, part, ALTERNATE_IDS)).toEqual({
      ProfileId: 7,
      Consents: [{ ConsentType: 'Mail', IsActive: false }],
      AlternateIds: ALTERNATE_IDS,
    });
    expect(toHistoryEntryDto(7, {}, [])).toEqual({ ProfileId: 7, AlternateIds: [] });
  });
});

describe('ownHistoryPart', () => {
  it('shows the standard fields with their stamp', () => {
    const standard = {
      IsActive: true,
      CustomerType: 'Customer',
      PreserveConsents: true,
      PreservePreferences: false,
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      Edited: EDITED,
    };
    const part = ownHistoryPart(entry({ category: 'standard', snapshot: { ...standard } }));
    expect(part).toEqual(standard);
  });

  it('shows a removed custom field and a removed contact element as inactive, alone in their list', () => {
    const field = ownHistoryPart(
      entry({
        category: 'customField',
        list: 'CustomFields',
        snapshot: { Name: 'Tier', Value: 'Gold', IsActive: false, Edited: EDITED, Key: 'tier' },
      }),
    );
    expect(field).toEqual({
      CustomFields: [{ Name: 'Tier', Value: 'Gold', IsActive: false, Edited: EDITED }],
    });
    const phone = ownHistoryPart(
      entry({
        category: 'contact',
        list: 'PhoneNumbers',
        snapshot: { PhoneNumber: '555', PhoneType: 'Mobile', IsActive: false, Key: '555' },
      }),
    );
    expect(phone).toEqual({
      PhoneNumbers: [{ PhoneNumber: '555', PhoneType: 'Mobile', IsActive: false }],
    });
    const email = ownHistoryPart(
      entry({
        category: 'contact',
        list: 'Emails',
        snapshot: { EmailAddress: 'a@b.c' } as HistorySnapshot,
      }),
    );
    expect(email).toEqual({ Emails: [{ EmailAddress: 'a@b.c', IsActive: true }] });
    const address = ownHistoryPart(
      entry({
        category: 'contact',
        list: 'Addresses',
        snapshot: {
          AddressType: 'Home',
          Address1: '1 Main St',
          PostalCode: '62701',
        } as HistorySnapshot,
      }),
    );
    expect(address).toEqual({
      Addresses: [
        { AddressType: 'Home', Address1: '1 Main St', PostalCode: '62701', IsActive: true },
      ],
    });
  });
});

describe('historyItemInContainer', () => {
  const item = { Name: 'item', IsActive: false };

  it("puts a profile's item alone in its list", () => {
    expect(historyItemInContainer(entry({ list: 'Consents' }), 'Consents', item)).toEqual({
      Consents: [item],
    });
  });

  it('wraps a contact item in its element, by the fields that name it (and no others)', () => {
    const inAddress = historyItemInContainer(
      entry({
        container: {
          list: 'Addresses',
          fields: {
            AddressType: 'Home',
            Address1: '1 Main St',
            PostalCode: '62701',
            City: 'Springfield',
          } as ContactIdentity,
        },
      }),
      'Consents',
      item,
    );
    expect(inAddress).toEqual({
      Addresses: [
        { AddressType: 'Home', Address1: '1 Main St', PostalCode: '62701', Consents: [item] },
      ],
    });
    const inPhone = historyItemInContainer(
      entry({
        container: { list: 'PhoneNumbers', fields: { PhoneNumber: '555', PhoneType: 'Mobile' } },
      }),
      'PhonePreferences',
      item,
    );
    expect(inPhone).toEqual({
      PhoneNumbers: [{ PhoneNumber: '555', PhoneType: 'Mobile', PhonePreferences: [item] }],
    });
    const inEmail = historyItemInContainer(
      entry({
        container: {
          list: 'Emails',
          fields: { EmailAddress: 'a@b.c', EmailAddressType: 'Personal' },
        },
      }),
      'EmailPreferences',
      item,
    );
    expect(inEmail).toEqual({
      Emails: [{ EmailAddress: 'a@b.c', EmailAddressType: 'Personal', EmailPreferences: [item] }],
    });
  });
});

describe('canSeeHistoryEntry', () => {
  const scoped: ProfileView = {
    implied: false,
    scope: {
      customFields: new Set(['tier']),
      programs: new Set(['p1']),
      consents: 'read',
      preferences: 'read',
    },
  };

  it('applies the user group scope to custom fields', () => {
    const field = (Name: string) =>
      entry({ category: 'customField', snapshot: { Name } as HistorySnapshot });
    expect(canSeeHistoryEntry(scoped, field('TIER'))).toBe(true);
    expect(canSeeHistoryEntry(scoped, field('Hidden'))).toBe(false);
    expect(canSeeHistoryEntry({ implied: false }, field('Hidden'))).toBe(true);
  });

  it('shows the standard fields and contact elements to every view', () => {
    const none: ProfileView = {
      implied: false,
      scope: { customFields: new Set(), consents: 'none', preferences: 'none' },
    };
    for (const view of [scoped, none]) {
      expect(canSeeHistoryEntry(view, entry({ category: 'standard' }))).toBe(true);
      expect(
        canSeeHistoryEntry(
          view,
          entry({
            category: 'contact',
            list: 'Emails',
            snapshot: { EmailAddress: 'a@b.c' } as HistorySnapshot,
          }),
        ),
      ).toBe(true);
    }
  });
});
