import request from 'supertest';
import type { TestTenant } from './session';
import type { TestApp } from './test-app';

/** LocalizedFields (or LocalizedDisplayNames) with one en-us entry named `name`. */
export const localized = (name: string) => [{ Locale: 'en-us', Name: name }];

/** The Edited stamp a configuration entry answers after `userId` created or changed it. */
export function editedBy(userId: string) {
  const isoDate = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
  return { CreateDate: isoDate, CreatedBy: userId, ModifiedDate: isoDate, ModifiedBy: userId };
}

/** A consent type of a create body: active, with version 1.0 in en-us. */
export function testConsentType(TypeName: string) {
  return {
    TypeName,
    IsActive: true,
    LocalizedFields: localized(TypeName),
    Versions: [
      {
        ConsentVersion: '1.0',
        LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: TypeName }],
      },
    ],
  };
}

/** The vocabulary the profile suites use, configured through the Configuration API itself. */
export const TEST_VOCABULARY = {
  CustomerTypes: ['Customer', 'C', 'Prospect', 'X'],
  AddressTypes: ['Home'],
  AlternateIdTypes: ['CRM', 'Loyalty'],
  GroupTypes: ['Household'],
  EmailTypes: ['Personal'],
  PhoneTypes: ['Mobile'],
  ConsentTypes: ['Terms', 'Mail', 'Email', 'Sms', 'Marketing'],
  TextFields: [
    'Tier',
    'Hidden',
    ...Array.from({ length: 30 }, (_, n) => `c${n}`),
    ...Array.from({ length: 20 }, (_, n) => `f${n}`),
  ],
};

/** A configured filter, as a preference names it (ids are strings on preferences). */
export interface TestFilter {
  ProgramId: string;
  ChannelId: string;
  FilterId: string;
}

/**
 * The programs every configured test tenant has. Newsletter: a filter per channel, the
 * email one with frequencies Weekly/Monthly and expiration days (opt-in 365 customer /
 * 30 non-customer, opt-out 0 / 10). Offers: an email filter that requires the Marketing
 * consent. Do not contact: a DNC program with email and phone filters.
 */
export interface TestPrograms {
  newsletter: {
    email: TestFilter;
    sms: TestFilter;
    phone: TestFilter;
    mail: TestFilter;
    solicit: TestFilter;
  };
  offers: { email: TestFilter };
  dnc: { email: TestFilter; phone: TestFilter };
}

export interface TestConfiguration {
  programs: TestPrograms;
}

/** A preference body on a configured filter (opt-in unless `extra` says otherwise). */
export function testPreference(filter: TestFilter, extra: Record<string, unknown> = {}) {
  return { ...filter, PreferenceType: 1, ...extra };
}

/**
 * Configures the tenant's types, consent types (version 1.0), text custom fields and the
 * programs of TestPrograms.
 */
export async function configureTestTenant(
  app: TestApp,
  tenant: TestTenant,
): Promise<TestConfiguration> {
  const auth = await tenant.bearer();
  const post = async (path: string, body: object) => {
    const res = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/${path}`)
      .set('Authorization', auth)
      .send(body);
    if (res.status !== 201)
      throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  for (const kind of [
    'CustomerTypes',
    'AddressTypes',
    'AlternateIdTypes',
    'GroupTypes',
    'EmailTypes',
    'PhoneTypes',
  ] as const) {
    await post(kind, {
      [kind]: TEST_VOCABULARY[kind].map((TypeName) => ({
        TypeName,
        LocalizedFields: localized(TypeName),
      })),
    });
  }
  await post('ConsentTypes', { ConsentTypes: TEST_VOCABULARY.ConsentTypes.map(testConsentType) });
  await post('CustomFields/Text', {
    TextFields: TEST_VOCABULARY.TextFields.map((Name) => ({
      Name,
      LocalizedDisplayNames: localized(Name),
    })),
  });
  return { programs: await createTestPrograms(app, tenant) };
}

/** The attributes every test filter defines (a preference may carry only those). */
const ATTRIBUTES = ['Topic', 'Purpose', 'Region'].map((ID, index) => ({
  ID,
  DisplayOrder: index + 1,
}));

async function createTestPrograms(app: TestApp, tenant: TestTenant): Promise<TestPrograms> {
  const res = await request(app.http)
    .post(`/Profiles/v4/${tenant.clientId}/Programs`)
    .set('Authorization', await tenant.bearer())
    .send({
      Programs: [
        {
          Name: 'Newsletter',
          ProgramType: 'Marketing',
          Filters: [
            {
              Name: 'News by email',
              ChannelID: 'Email',
              OptInCustomerExpirationDays: 365,
              OptOutCustomerExpirationDays: 0,
              OptInNonCustomerExpirationDays: 30,
              OptOutNonCustomerExpirationDays: 10,
              PreferenceAttributes: ATTRIBUTES,
              FrequencyLocales: [
                {
                  ID: 'en-us',
                  Frequencies: [
                    { ID: 'Weekly', DisplayName: 'Weekly', IsDefault: true, DisplayOrder: 1 },
                    { ID: 'Monthly', DisplayName: 'Monthly', DisplayOrder: 2 },
                  ],
                },
              ],
            },
            { Name: 'News by text', ChannelID: 'SMS', PreferenceAttributes: ATTRIBUTES },
            { Name: 'News by phone', ChannelID: 'Phone', PreferenceAttributes: ATTRIBUTES },
            { Name: 'News by mail', ChannelID: 'Mail', PreferenceAttributes: ATTRIBUTES },
            { Name: 'News in the app', ChannelID: 'Solicit', PreferenceAttributes: ATTRIBUTES },
          ],
        },
        {
          Name: 'Offers',
          ProgramType: 'Marketing',
          Filters: [
            {
              Name: 'Offers by email',
              ChannelID: 'Email',
              PreferenceAttributes: ATTRIBUTES,
              RequiredPreferenceConsents: [{ TypeName: 'Marketing', DisplayOrder: 1 }],
            },
          ],
        },
        {
          Name: 'Do not contact',
          ProgramType: 'DNC',
          Filters: [
            { Name: 'No email', ChannelID: 'Email' },
            { Name: 'No calls', ChannelID: 'Phone' },
          ],
        },
      ],
    });
  if (res.status !== 201)
    throw new Error(`POST Programs: ${res.status} ${JSON.stringify(res.body)}`);
  type Created = { Id: number; Filters: { ID: number; ChannelID: string }[] };
  const [newsletter, offers, dnc] = res.body.Programs as Created[];
  const filterOf = (program: Created, index: number): TestFilter => ({
    ProgramId: String(program.Id),
    ChannelId: program.Filters[index].ChannelID,
    FilterId: String(program.Filters[index].ID),
  });
  return {
    newsletter: {
      email: filterOf(newsletter, 0),
      sms: filterOf(newsletter, 1),
      phone: filterOf(newsletter, 2),
      mail: filterOf(newsletter, 3),
      solicit: filterOf(newsletter, 4),
    },
    offers: { email: filterOf(offers, 0) },
    dnc: { email: filterOf(dnc, 0), phone: filterOf(dnc, 1) },
  };
}

/**
 * A new tenant, configured, in an app whose request deadline is short (the engine suites'
 * 800 ms): on a loaded machine a configuration request can outlast it (503, which applies
 * nothing), so a tenant whose configuration got a 503 is left and a new one configured, at
 * most `attempts` times. The suites' own requests keep the short deadline.
 */
export async function createConfiguredTenantWithin(
  app: TestApp,
  createTenant: (app: TestApp) => Promise<TestTenant>,
  attempts = 3,
): Promise<TestTenant> {
  for (let attempt = 1; ; attempt++) {
    const tenant = await createTenant(app);
    try {
      await configureTestTenant(app, tenant);
      return tenant;
    } catch (error) {
      if (attempt >= attempts || !/: 503 /.test(String(error))) throw error;
    }
  }
}
