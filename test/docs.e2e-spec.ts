import request from 'supertest';
import { startTestApp, type TestApp } from './harness/test-app';

/** Every field of the spec's Profile resource, by its exact name. */
const PROFILE_FIELDS = [
  'ProfileId',
  'IsActive',
  'Edited',
  'RegistrationConfirmed',
  'CustomerType',
  'PreserveConsents',
  'PreservePreferences',
  'CustomerName',
  'DefaultLocale',
  'UpdateStatus',
  'ReasonCode',
  'Consents',
  'CustomFields',
  'Groups',
  'ProfileTags',
  'Addresses',
  'Emails',
  'PhoneNumbers',
  'ProfilePreferences',
  'AlternateIds',
];

const PATHS = [
  '/Profiles/v4/{clientId}/Profile',
  '/Profiles/v4/{clientId}/Profile/{profileId}',
  '/Profiles/v4/{clientId}/ConsentStatus',
  '/oauth2/v1/token',
];

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

describe('API documentation (Swagger)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
  });

  afterAll(async () => {
    await app?.close();
  });

  const expectDocument = (response: request.Response): OpenApiDocument => {
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const document = response.body as OpenApiDocument;
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toEqual(expect.any(String));
    return document;
  };

  it('serves the OpenAPI document at /Profiles/v4/docs-json without authorization', async () => {
    const document = expectDocument(await request(app.http).get('/Profiles/v4/docs-json'));
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(PATHS));
    expect(document.paths['/oauth2/v1/token']).toHaveProperty('post');
    expect(document.paths['/Profiles/v4/{clientId}/ConsentStatus']).toHaveProperty('get');
    expect(document.paths['/Profiles/v4/{clientId}/Profile']).toHaveProperty('post');
    expect(document.paths['/Profiles/v4/{clientId}/Profile/{profileId}']).toHaveProperty('get');
  });

  it('describes every Profile field and the Address fields by their spec names', async () => {
    const { components } = expectDocument(await request(app.http).get('/Profiles/v4/docs-json'));
    const profile = components.schemas.ProfileDto;
    expect(profile).toBeDefined();
    expect(Object.keys(profile.properties ?? {})).toEqual(expect.arrayContaining(PROFILE_FIELDS));

    const address = components.schemas.AddressDto;
    expect(address).toBeDefined();
    expect(Object.keys(address.properties ?? {})).toEqual(
      expect.arrayContaining([
        'Address1',
        'CountryCode_Alpha2',
        'CassStatus',
        'AddressPreferences',
      ]),
    );

    const status = components.schemas.ConsentStatusListDto;
    expect(Object.keys(status?.properties ?? {})).toEqual(['ConsentStatus']);
  });

  it('has no dangling schema references', async () => {
    const response = await request(app.http).get('/Profiles/v4/docs-json');
    const document = expectDocument(response);
    const refs = [...response.text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]*)"/g)].map(
      (match) => match[1],
    );
    expect(refs.length).toBeGreaterThan(0);
    const dangling = [...new Set(refs)].filter((name) => !document.components.schemas[name]);
    expect(dangling).toEqual([]);
  });

  it('serves the Swagger UI page at /Profiles/v4/docs', async () => {
    const response = await request(app.http).get('/Profiles/v4/docs');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.text).toMatch(/<html/i);
    expect(response.text).toContain('Swagger UI');
  });

  it('serves the Swagger UI assets the page refers to', async () => {
    const page = await request(app.http).get('/Profiles/v4/docs');
    const css = /href="\.\/docs\/(swagger-ui\.css)"/.exec(page.text);
    expect(css).not.toBeNull();
    const asset = await request(app.http).get(`/Profiles/v4/docs/${css![1]}`);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/css/);
  });

  it('is also reachable under the legacy /Profiles/v2 prefix', async () => {
    const v4 = expectDocument(await request(app.http).get('/Profiles/v4/docs-json'));
    const v2 = expectDocument(await request(app.http).get('/Profiles/v2/docs-json'));
    expect(v2).toEqual(v4);
    const page = await request(app.http).get('/Profiles/v2/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});
