import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import request from 'supertest';
import type { TestPrograms } from './configuration';

/**
 * A profile body that sets every writable field of the spec's Profile resource. Its
 * alternate id is unique per call unless one is given.
 */
export function fullProfileBody(
  alternateId = `C-${randomBytes(4).toString('hex')}`,
): Record<string, any> {
  const preference = (filter: string) => ({
    ProgramId: 'Newsletter',
    ChannelId: 'Email',
    FilterId: filter,
    FrequencyId: 'Weekly',
    ConsentAssociations: [
      {
        ConsentType: 'Marketing',
        ConsentVersion: '1.0',
        IsActive: true,
        Locale: 'en-us',
        ReasonCode: 'web',
      },
    ],
    MatchType: 'Expressed',
    ReasonCode: 'signup',
    PreferenceStatus: 'Active',
    UserId: 'agent-7',
    SourceId: 'web',
    ExpirationDate: '2027-01-01T00:00:00.000Z',
    CustomerDate: '2026-11-01T10:00:00.000Z',
    PreferenceType: 1,
    PreferenceAttributes: [{ Key: 'Topic', Value: 'Sports' }],
  });
  const consent = (type: string) => ({
    ConsentType: type,
    ConsentVersion: '1.0',
    Locale: 'en-us',
    ConsentStatus: 1,
    ReasonCode: 'form',
    ConsentDate: '2026-11-01T10:00:00.000Z',
    ExpirationDate: '2027-11-01T10:00:00.000Z',
    SourceId: 'web',
    IsActive: true,
  });
  return {
    IsActive: true,
    RegistrationConfirmed: true,
    CustomerType: 'Customer',
    PreserveConsents: true,
    PreservePreferences: false,
    CustomerName: {
      FirstName: 'Jane',
      MiddleName: 'Q',
      LastName: 'Doe',
      Prefix: 'Dr',
      Suffix: 'III',
    },
    DefaultLocale: 'en-us',
    ReasonCode: 'new',
    Consents: [consent('Terms')],
    CustomFields: [{ Name: 'Tier', Value: 'Gold', IsActive: true }],
    Groups: [{ GroupType: 'Household', GroupName: 'Doe family', IsPrimary: true, IsActive: true }],
    ProfileTags: [{ Name: 'vip' }],
    Addresses: [
      {
        AddressPreferences: [preference('Mail-1')],
        AddressType: 'Home',
        IsActive: true,
        IsDefault: true,
        Consents: [consent('Mail')],
        Address1: '1 Main St',
        Address2: 'Apt 2',
        City: 'Springfield',
        StateProvince: 'IL',
        PostalCode: '62701',
        Country: 'United States',
        CountryCode_Numeric: '840',
        CountryCode_Alpha2: 'US',
        CountryCode_Alpha3: 'USA',
        CassAddress1: '1 MAIN ST',
        CassAddress2: 'APT 2',
        CassCity: 'SPRINGFIELD',
        CassStateProvince: 'IL',
        CassPostalCode: '62701-0001',
        CassStatus: 'Valid',
      },
    ],
    Emails: [
      {
        EmailPreferences: [preference('Email-1')],
        EmailAddressType: 'Personal',
        EmailAddress: 'jane@example.com',
        IsDefault: true,
        Consents: [consent('Email')],
        IsActive: true,
      },
    ],
    PhoneNumbers: [
      {
        PhonePreferences: [preference('Sms-1')],
        PhoneType: 'Mobile',
        PhoneNumber: '+1 (555) 010-2030',
        IsDefault: true,
        Consents: [consent('Sms')],
        IsMobile: true,
        IsActive: true,
      },
    ],
    ProfilePreferences: [preference('Profile-1')],
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: alternateId, IsActive: true }],
  };
}

/** fullProfileBody with its preferences on the tenant's configured filters (configureTestTenant). */
export function fullProfileBodyOn(
  programs: TestPrograms,
  alternateId?: string,
): Record<string, any> {
  const body = fullProfileBody(alternateId);
  const onFilter = (preferences: Record<string, any>[], filter: object) =>
    preferences.map((preference) => {
      const valid = { ...preference, ...filter };
      // Only the newsletter's email filter has frequencies.
      if (filter !== programs.newsletter.email) delete valid.FrequencyId;
      return valid;
    });
  const { newsletter } = programs;
  body.Addresses[0].AddressPreferences = onFilter(
    body.Addresses[0].AddressPreferences,
    newsletter.mail,
  );
  body.Emails[0].EmailPreferences = onFilter(body.Emails[0].EmailPreferences, newsletter.email);
  body.PhoneNumbers[0].PhonePreferences = onFilter(
    body.PhoneNumbers[0].PhonePreferences,
    newsletter.sms,
  );
  body.ProfilePreferences = onFilter(body.ProfilePreferences, newsletter.solicit);
  return body;
}

/**
 * The `CustomerName.LastName` values of a profile's standard-fields history, in the order
 * the history lists them (oldest first): what the write-path tests write and compare.
 */
export async function historyLastNames(
  http: Server,
  profileUrl: string,
  auth: string,
): Promise<string[]> {
  const res = await request(http)
    .get(`${profileUrl}/History/StandardFields`)
    .set('Authorization', auth)
    .expect(200);
  return (res.body as { CustomerName?: { LastName?: string } }[])
    .map((entry) => entry.CustomerName?.LastName)
    .filter((name): name is string => typeof name === 'string');
}
