import request from 'supertest';
import { localized } from '../harness/configuration';
import type { TestApp } from '../harness/test-app';

/**
 * Creates the tenant's Email consent type `name` that requires confirmation (double
 * opt-in), version 1.0 in en-us with `consentLanguage` as its text.
 */
export async function createConsentTypeRequiringConfirmation(
  app: TestApp,
  clientId: string,
  auth: string,
  name: string,
  consentLanguage: string,
): Promise<void> {
  await request(app.http)
    .post(`/Profiles/v4/${clientId}/ConsentTypes`)
    .set('Authorization', auth)
    .send({
      ConsentTypes: [
        {
          TypeName: name,
          ChannelId: 'Email',
          RequiresConfirmation: true,
          LocalizedFields: localized(name),
          Versions: [
            {
              ConsentVersion: '1.0',
              LocalizedFields: [{ Locale: 'en-us', Name: name, ConsentLanguage: consentLanguage }],
            },
          ],
        },
      ],
    })
    .expect(201);
}
