import request from 'supertest';
import type { TestTenant } from './session';
import type { TestApp } from './test-app';

const localized = (name: string) => [{ Locale: 'en-us', Name: name }];

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

/** Configures the tenant's types, consent types (version 1.0) and text custom fields. */
export async function configureTestTenant(app: TestApp, tenant: TestTenant): Promise<void> {
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
  await post('ConsentTypes', {
    ConsentTypes: TEST_VOCABULARY.ConsentTypes.map((TypeName) => ({
      TypeName,
      IsActive: true,
      LocalizedFields: localized(TypeName),
      Versions: [
        {
          ConsentVersion: '1.0',
          LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: TypeName }],
        },
      ],
    })),
  });
  await post('CustomFields/Text', {
    TextFields: TEST_VOCABULARY.TextFields.map((Name) => ({
      Name,
      LocalizedDisplayNames: localized(Name),
    })),
  });
}
