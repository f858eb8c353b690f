import type { ProfileData } from '../../domain/profile-data.schema';
import { emptyProfileData } from '../../testing';
import { identityKeysOf, sharedIdentityKeys } from './merge-candidate-keys';

const edited = { CreateDate: 'x', CreatedBy: 'u', ModifiedDate: 'x', ModifiedBy: 'u' };

const profile = (overrides: Partial<ProfileData>) => emptyProfileData(edited, overrides);

const email = (address: string, active = true) => ({
  EmailAddress: address,
  IsActive: active,
  Consents: [],
  EmailPreferences: [],
  Edited: edited,
});
const phone = (digits: number, active = true) => ({
  PhoneNumber: String(digits),
  PhoneNumberNumeric: digits,
  IsActive: active,
  Consents: [],
  PhonePreferences: [],
  Edited: edited,
});
const address = (city: string, state: string, active = true) => ({
  AddressType: 'Home',
  Address1: '1 Main St',
  City: city,
  StateProvince: state,
  IsActive: active,
  Consents: [],
  AddressPreferences: [],
  Edited: edited,
});

describe('merge candidate keys', () => {
  it('derives email, phone and name-with-address keys of active elements, normalised', () => {
    const keys = identityKeysOf(
      profile({
        CustomerName: { FirstName: ' Ann ', LastName: 'LEE' },
        Emails: [email('Ann@Example.com '), email('old@example.com', false)],
        PhoneNumbers: [phone(15550100001), phone(15550100002, false)],
        Addresses: [address('Springfield', 'IL'), address('Shelbyville', 'IL', false)],
      }),
    );
    expect(keys.map((k) => `${k.kind}:${k.value}`)).toEqual([
      'Email:ann@example.com',
      'Phone:15550100001',
      'NameAndAddress:ann|lee|springfield|il',
    ]);
    expect(keys[2].criteria).toMatchObject({
      kind: 'address',
      address: { city: 'springfield', stateProvince: 'il' },
      name: { firstName: 'ann', lastName: 'lee' },
    });
  });

  it('needs both first and last name, and a city, for a name-with-address key', () => {
    expect(
      identityKeysOf(
        profile({ CustomerName: { FirstName: 'Ann' }, Addresses: [address('Springfield', 'IL')] }),
      ),
    ).toEqual([]);
    expect(
      identityKeysOf(
        profile({
          CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
          Addresses: [address('', 'IL')],
        }),
      ),
    ).toEqual([]);
  });

  it('shares only keys the other profile holds on active elements', () => {
    const subject = identityKeysOf(
      profile({ Emails: [email('a@example.com')], PhoneNumbers: [phone(15550100001)] }),
    );
    const other = profile({
      Emails: [email('A@EXAMPLE.COM', false)],
      PhoneNumbers: [phone(15550100001)],
    });
    expect(sharedIdentityKeys(subject, other).map((k) => k.kind)).toEqual(['Phone']);
    expect(sharedIdentityKeys(subject, undefined)).toEqual([]);
  });
});
