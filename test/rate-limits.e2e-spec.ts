import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { RedisService } from '@app/shared';
import { createTestTenant, TOKEN_URL, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

const READS = 5;
const WRITES = 3;

describe('rate limits', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      env: {
        RATE_LIMIT_READS_PER_SECOND: String(READS),
        RATE_LIMIT_WRITES_PER_SECOND: String(WRITES),
        TOKEN_FAILURE_LIMIT_PER_ADDRESS: '4',
      },
    });
    tenant = await createTestTenant(app);
    auth = await tenant.bearer();
  });
  afterAll(() => app?.close());

  const read = (who: TestTenant, authorization: string) =>
    request(app.http)
      .get(`/Profiles/v4/${who.clientId}/ConsentStatus`)
      .set('Authorization', authorization);

  it('limits a client’s reads per second with RateLimit headers, then 429 with Retry-After', async () => {
    // At once, so all fall in one window however slow the machine.
    const answers = await Promise.all(Array.from({ length: READS + 1 }, () => read(tenant, auth)));
    const allowed = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(allowed).toHaveLength(READS);
    expect(allowed[0].headers['ratelimit-limit']).toBe(String(READS));
    expect(allowed.map((answer) => Number(answer.headers['ratelimit-remaining'])).sort()).toEqual([
      0, 1, 2, 3, 4,
    ]);
    expect(allowed[0].headers['ratelimit-policy']).toBe(`${READS};w=1`);

    expect(refused.map((answer) => answer.status)).toEqual([429]);
    expect(refused[0].body).toEqual({
      Message: `Too many reads for client ${tenant.clientId}: at most ${READS} per second; retry after 1 s`,
    });
    expect(refused[0].headers['retry-after']).toBe('1');
    expect(refused[0].headers['ratelimit-remaining']).toBe('0');
  });

  it('counts in Redis (shared by every api process), per client and per route class', async () => {
    const other = await createTestTenant(app);
    const otherAuth = await other.bearer();
    await Promise.all(Array.from({ length: READS }, () => read(other, otherAuth)));
    // Reads used up; writes are counted apart.
    const write = await request(app.http)
      .post(`/Profiles/v4/${other.clientId}/EmailTypes`)
      .set('Authorization', otherAuth)
      .send({
        EmailTypes: [{ TypeName: 'Work', LocalizedFields: [{ Locale: 'en-us', Name: 'Work' }] }],
      });
    expect(write.status).toBe(201);
    expect(write.headers['ratelimit-limit']).toBe(String(WRITES));
    const redis = app.api.get(RedisService, { strict: false });
    const key = redis.key('rate', 'read', other.clientId);
    // Each process adds its counts to Redis in batches, every few milliseconds.
    const shared = await eventually(async () => {
      const count = Number(await redis.client.get(key));
      return count >= READS ? count : undefined;
    });
    expect(shared).toBe(READS);
  });

  it('throttles failed token requests per address, across client ids', async () => {
    const attempt = (clientId: string, secret: string) =>
      request(app.http)
        .post(TOKEN_URL)
        .type('form')
        .send({
          grant_type: 'client_credentials',
          scope: `${tenant.clientId}/${tenant.userId}`,
          client_id: clientId,
          client_secret: secret,
        });
    const statuses = [];
    for (let n = 0; n < 5; n++) {
      statuses.push((await attempt(randomBytes(24).toString('hex'), 'x'.repeat(64))).status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    // The address is throttled now, whatever the client id and secret.
    const right = await attempt(tenant.oauthClientId, tenant.oauthClientSecret);
    expect(right.status).toBe(429);
    expect(right.body.error_description).toMatch(
      /too many failed authentications for this address/,
    );
    expect(Number(right.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
