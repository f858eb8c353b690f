import request from 'supertest';
import { createTestTenant } from './harness/session';
import { startTestApp, type TestApp } from './harness/test-app';

const STATUS = '/Profiles/v4/Jobs/Status';

describe('operator routes (OPERATOR_TOKEN): the job status', () => {
  let app: TestApp;
  const basic = (password: string) =>
    `Basic ${Buffer.from(`operator:${password}`).toString('base64')}`;

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
  });
  afterAll(() => app?.close());

  it('answers the operator credential, as Bearer or as Basic (a browser prompt)', async () => {
    for (const authorization of [
      `Bearer ${app.settings.operatorToken}`,
      basic(app.settings.operatorToken!),
    ]) {
      const response = await request(app.http).get(STATUS).set('Authorization', authorization);
      expect([authorization.split(' ')[0], response.status]).toEqual([
        authorization.split(' ')[0],
        200,
      ]);
      expect(response.body.Jobs).toEqual(expect.any(Array));
    }
  });

  it('refuses no credential, a wrong one and a tenant’s with 401 and a challenge', async () => {
    const tenant = await createTestTenant(app);
    for (const authorization of [
      undefined,
      basic('wrong'),
      `Bearer wrong`,
      await tenant.bearer(),
    ]) {
      const test = request(app.http).get(STATUS);
      const response = await (authorization ? test.set('Authorization', authorization) : test);
      expect([authorization, response.status]).toEqual([authorization, 401]);
      expect(response.body).toEqual({ Message: 'The operator credential is missing or wrong' });
      expect(response.headers['www-authenticate']).toBe(
        'Bearer realm="operator", Basic realm="operator"',
      );
    }
  });
});

describe('operator routes without OPERATOR_TOKEN', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ workers: 0, env: { OPERATOR_TOKEN: '' } });
  });
  afterAll(() => app?.close());

  it('are off: 403 saying how to turn them on', async () => {
    const response = await request(app.http).get(STATUS).set('Authorization', 'Bearer anything');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ Message: 'The operator routes are off: set OPERATOR_TOKEN' });
  });
});
