import { tenantKey } from '@app/shared';
import type { ProfileHistory } from '../domain/profile-history.schema';
import { canSeeHistoryEntry, toHistoryEntryDto } from './profile-history.mapper';
import { FULL_VIEW, type ProfileView } from '../domain/profile-view';

const AT = '2026-01-01T00:00:00.000Z';
const ALTERNATE_IDS = [{ AlternateIdType: 'CRM', AlternateId: 'A1', IsActive: true }];

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
  it('wraps a contact consent in its element, by the fields that name it', () => {
    const dto = toHistoryEntryDto(
      7,
      entry({
        category: 'consent',
        list: 'Consents',
        container: {
          list: 'Addresses',
          fields: { AddressType: 'Home', Address1: '1 Main St', PostalCode: '62701' },
        },
        snapshot: { ConsentType: 'Mail', ConsentStatus: 3, IsActive: false, Key: 'mail' },
      }),
      ALTERNATE_IDS,
      FULL_VIEW,
    );
    expect(dto).toEqual({
      ProfileId: 7,
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '1 Main St',
          PostalCode: '62701',
          Consents: [
            {
              ConsentType: 'Mail',
              ConsentStatus: 3,
              Expired: false,
              UpdatedVersionPending: false,
              IsActive: false,
            },
          ],
        },
      ],
      AlternateIds: ALTERNATE_IDS,
    });
  });

  it('shows a removed preference as inactive, inside its phone', () => {
    const dto = toHistoryEntryDto(
      7,
      entry({
        category: 'preference',
        list: 'PhonePreferences',
        container: { list: 'PhoneNumbers', fields: { PhoneNumber: '555', PhoneType: 'Mobile' } },
        snapshot: { ProgramId: 'P1', FilterId: 'F1', IsActive: false, LastModifiedDate: AT },
      }),
      [],
      FULL_VIEW,
    );
    expect(dto.PhoneNumbers).toEqual([
      {
        PhoneNumber: '555',
        PhoneType: 'Mobile',
        PhonePreferences: [
          {
            ProgramId: 'P1',
            FilterId: 'F1',
            LastModifiedDate: AT,
            ConsentAssociations: [],
            PreferenceAttributes: [],
            IsActive: false,
          },
        ],
      },
    ]);
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

  it('applies the user group scope to custom fields and preferences, never to implied', () => {
    const field = (Name: string) => entry({ category: 'customField', snapshot: { Name } });
    expect(canSeeHistoryEntry(scoped, field('TIER'))).toBe(true);
    expect(canSeeHistoryEntry(scoped, field('Hidden'))).toBe(false);
    const preference = (ProgramId: string) =>
      entry({ category: 'preference', snapshot: { ProgramId, MatchType: 'Implied' } });
    expect(canSeeHistoryEntry(scoped, preference('P1'))).toBe(true);
    expect(canSeeHistoryEntry(scoped, preference('P2'))).toBe(false);
  });
});
