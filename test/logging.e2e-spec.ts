import { Logger } from '@nestjs/common';
import { Writable } from 'node:stream';
import request from 'supertest';
import { AuthSettings } from '@app/auth';
import { redirectLogs } from '@app/shared';
import { ProfileWriteIntake } from '../libs/profiles/src/intake/profile-write-intake.service';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, requestToken, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

/**
 * The structured logs of a whole run, captured at the most verbose level (and so kept off
 * the console): JSON lines, each request's id on the lines it logged, and no secret in any
 * line: not a client secret, not the JWT key, not an access token.
 */
describe('Structured logs', () => {
  const written: string[] = [];
  let app: TestApp;
  let tenant: TestTenant;
  let token: string;

  const lines = () =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, any>);

  beforeAll(async () => {
    redirectLogs(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written.push(chunk.toString());
          done();
        },
      }),
    );
    // A scheduled job runs every second, so the worker logs runs of a job.
    app = await startTestApp({
      env: { LOG_LEVEL: 'verbose', CONSENT_VERSION_INTERVAL_MS: '1000' },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
  });

  afterAll(async () => {
    await app?.close();
    redirectLogs(undefined);
  });

  it('writes every line as JSON with its level, process and context', async () => {
    await request(app.http).get('/health/live').expect(200);
    const all = lines();
    expect(all.length).toBeGreaterThan(10);
    for (const line of all) {
      expect(line).toEqual(
        expect.objectContaining({ level: expect.any(String), time: expect.any(String) }),
      );
      expect(['api', 'worker']).toContain(line.name);
    }
    // Nest's own start lines, through pino with their context.
    expect(all).toContainEqual(expect.objectContaining({ context: 'RoutesResolver' }));
    expect(all).toContainEqual(
      expect.objectContaining({ name: 'worker', context: 'JobRunner', level: 'info' }),
    );
    // A scheduled run's line names its job and the Bull job id.
    await eventually(async () =>
      lines().find((line) => line.context === 'JobRunner' && line.jobId !== undefined),
    );
    expect(lines().find((line) => line.context === 'JobRunner' && line.jobId)).toEqual(
      expect.objectContaining({
        name: 'worker',
        job: expect.any(String),
        jobId: expect.any(String),
      }),
    );
    // Probes are not logged one by one.
    expect(all.filter((line) => /health\/live/.test(line.req?.url ?? ''))).toEqual([]);
  });

  it("puts the request's id on every line logged while it runs", async () => {
    // A line logged by the code while a write (a POST with a body) is accepted.
    const probe = new Logger('Probe');
    const original = ProfileWriteIntake.prototype.accept;
    const accept = jest
      .spyOn(ProfileWriteIntake.prototype, 'accept')
      .mockImplementation(async function (this: ProfileWriteIntake, ...args) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        probe.log('accepting a write');
        return original.apply(this, args);
      });
    let response: request.Response;
    try {
      response = await request(app.http)
        .post(`/Profiles/v4/${tenant.clientId}/Profile`)
        .set('Authorization', await tenant.bearer())
        .set('X-Request-Id', 'log-probe-1')
        .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Logged' } })
        .expect(202);
    } finally {
      accept.mockRestore();
    }
    expect(response.headers['x-request-id']).toBe('log-probe-1');
    const completed = await eventually(async () =>
      lines().find((line) => line.reqId === 'log-probe-1' && line.res),
    );
    expect(completed).toMatchObject({
      level: 'info',
      name: 'api',
      req: { method: 'POST', url: `/Profiles/v4/${tenant.clientId}/Profile` },
      res: { statusCode: 202 },
      responseTime: expect.any(Number),
    });
    expect(lines().filter((line) => line.context === 'Probe')).toEqual([
      expect.objectContaining({ reqId: 'log-probe-1', msg: 'accepting a write' }),
    ]);
  });

  it('writes no client secret, JWT key or access token, whatever the requests carried', async () => {
    // A token request (the secret in its form body), a failed one, the token used as a
    // header and, wrongly, in a query string; a signed request (the API key signs it).
    const issued = await requestToken(app, {
      grant_type: 'client_credentials',
      scope: `${tenant.clientId}/${tenant.userId}`,
      client_id: tenant.oauthClientId,
      client_secret: tenant.oauthClientSecret,
    }).expect(200);
    token = issued.body.access_token as string;
    const refused = await requestToken(app, {
      grant_type: 'client_credentials',
      scope: `${tenant.clientId}/${tenant.userId}`,
      client_id: tenant.oauthClientId,
      client_secret: `${tenant.oauthClientSecret}x`,
    });
    expect(refused.status).toBe(400);
    await request(app.http)
      .post(`/oauth2/v1/token?client_secret=${tenant.oauthClientSecret}`)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: tenant.oauthClientId });
    await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/1`)
      .set('Authorization', `Bearer ${token}`);
    await request(app.http).get(`/Profiles/v4/${tenant.clientId}/Profile/1?access_token=${token}`);
    await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/1`)
      .set('Authorization', tenant.signed());
    await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/1`)
      .set('Cookie', `session=${token}`)
      .set('Authorization', `Bearer ${token}`);

    const jwtSecret = app.api.get(AuthSettings).jwtSecret;
    expect(jwtSecret).toBe(app.settings.env.JWT_SECRET);
    const text = await eventually(async () => {
      const all = written.join('');
      return all.includes('access_token=[Redacted]') ? all : undefined;
    });
    expect(text).toContain(`/oauth2/v1/token?client_secret=[Redacted]`);
    for (const secret of [tenant.oauthClientSecret, tenant.apiHashKey, jwtSecret, token]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(text).not.toContain(secret);
    }
    // Not even a recognizable piece of the token (its signature part).
    expect(text).not.toContain(token.split('.')[2]);
  });
});
