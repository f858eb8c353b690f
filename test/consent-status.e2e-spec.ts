import request from 'supertest';
import { createTestTenant, uniqueClientId, type TestTenant } from './harness/session';
import { startTestApp, type TestApp } from './harness/test-app';

/** The spec's consent statuses, in order, with their numeric values. */
const EXPECTED = {
  ConsentStatus: [
    { Name: 'Granted', Value: 1 },
    { Name: 'Denied', Value: 2 },
    { Name: 'Revoked', Value: 3 },
    { Name: 'NotSet', Value: 4 },
  ],
};

describe('ConsentStatus', () => {
  let app: TestApp;
  let tenant: TestTenant;

  const get = (path: string, authorization?: string) => {
    const test = request(app.http).get(path);
    return authorization === undefined ? test : test.set('Authorization', authorization);
  };

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
    tenant = await createTestTenant(app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists the statuses with a Bearer token', async () => {
    const response = await get(
      `/Profiles/v4/${tenant.clientId}/ConsentStatus`,
      await tenant.bearer(),
    );
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(EXPECTED);
  });

  it('lists the statuses with a CUSTOMAUTH3 signed header', async () => {
    for (const scheme of ['CUSTOMAUTH3-HMAC-SHA256', 'CUSTOMAUTH3-SHA512']) {
      const response = await get(
        `/Profiles/v4/${tenant.clientId}/ConsentStatus`,
        tenant.signed({ scheme }),
      );
      expect({ scheme, status: response.status }).toEqual({ scheme, status: 200 });
      expect(response.body).toEqual(EXPECTED);
    }
  });

  it('answers the same under the legacy /Profiles/v2 prefix', async () => {
    const path = `/Profiles/v2/${tenant.clientId}/ConsentStatus`;
    const bearer = await get(path, await tenant.bearer());
    expect(bearer.status).toBe(200);
    expect(bearer.body).toEqual(EXPECTED);
    const signed = await get(path, tenant.signed());
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual(EXPECTED);
  });

  it('an unknown client answers 404', async () => {
    const unknown = uniqueClientId('nobody');
    const bearer = await get(`/Profiles/v4/${unknown}/ConsentStatus`, await tenant.bearer());
    expect(bearer.status).toBe(404);
    expect(bearer.body).toEqual({ Message: `Client ${unknown} was not found` });

    // Under the custom scheme the spec answers an unknown client with an empty body.
    const signed = await get(
      `/Profiles/v4/${unknown}/ConsentStatus`,
      tenant.signed({ clientId: unknown }),
    );
    expect(signed.status).toBe(404);
    expect(signed.text).toBe('');
  });

  it('no Authorization header answers 401 with a Message', async () => {
    for (const prefix of ['/Profiles/v4', '/Profiles/v2']) {
      const response = await get(`${prefix}/${tenant.clientId}/ConsentStatus`);
      expect({ prefix, status: response.status }).toEqual({ prefix, status: 401 });
      expect(response.body).toEqual({ Message: expect.any(String) });
      expect(response.body.Message).toBe('Authorization header missing');
      expect(response.headers['www-authenticate']).toEqual(expect.any(String));
    }
  });
});
