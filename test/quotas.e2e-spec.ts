import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { localized } from './harness/configuration';
import { createTestTenant, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

/** The process-wide defaults of this suite (their environment variables). */
const WRITES = 1000;
const READS = 5000;
const DAILY_IMPORTS = 3;
const SUBSCRIPTIONS = 4;

const ROOT = join(__dirname, '..');

/**
 * Quotas per client (docs/operations.md, "Quotas per client"): the rate limits, the daily
 * bulk imports and the event subscriptions of a client are its own when the operator set
 * them (`npm run admin -- set-client`), else the process-wide defaults; a change applies to
 * the running api from its next request of the client (the auth stamp announced on Redis);
 * the operator route lists them with their use.
 */
describe('Quotas per client', () => {
  let app: TestApp;
  let admin: TenantAdminService;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      env: {
        RATE_LIMIT_WRITES_PER_SECOND: String(WRITES),
        RATE_LIMIT_READS_PER_SECOND: String(READS),
        BULK_IMPORT_DAILY_LIMIT: String(DAILY_IMPORTS),
        EVENTS_MAX_SUBSCRIPTIONS: String(SUBSCRIPTIONS),
        EVENTS_ALLOW_PRIVATE_TARGETS: 'true',
      },
    });
    admin = app.api.get(TenantAdminService);
  });
  afterAll(() => app?.close());

  /** The admin CLI, as an operator runs it: a process of its own (the sources, no build). */
  async function adminCli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const { settings } = app;
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['-r', './scripts/lib/ts-require.js', 'apps/api/src/admin/cli.ts', ...args],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            MONGODB_URI: settings.mongodbUri,
            REDIS_URL: settings.redisUrl,
            ...(settings.env.REDIS_CLUSTER_NODES
              ? { REDIS_CLUSTER_NODES: settings.env.REDIS_CLUSTER_NODES }
              : {}),
            JWT_SECRET: settings.env.JWT_SECRET,
            QUEUE_PREFIX: settings.queuePrefix,
            LOG_LEVEL: 'error',
          },
          timeout: 60_000,
        },
      );
      return { code: 0, out: stdout, err: stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, out: failed.stdout ?? '', err: failed.stderr ?? '' };
    }
  }

  /** A write the rate limit counts (its guard runs first); the body is refused after it (400). */
  const write = async (tenant: TestTenant) =>
    request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/EmailTypes`)
      .set('Authorization', await tenant.bearer())
      .send({});
  /** Writes sent at once, so they fall in one window however slow the machine. */
  const burst = (tenant: TestTenant, size: number) =>
    Promise.all(Array.from({ length: size }, () => write(tenant)));
  /** A burst that met the limit: its 429 (bursts are sent again until one lands in a window). */
  const refusedBurst = (tenant: TestTenant, size: number) =>
    eventually(async () => (await burst(tenant, size)).find((answer) => answer.status === 429));

  const quotasOf = (clientId: string, authorization = `Bearer ${app.settings.operatorToken}`) =>
    request(app.http)
      .get(`/Profiles/v4/Clients/${clientId}/Quotas`)
      .set('Authorization', authorization);

  it("refuses a client's writes past its own writes per second with 429 and the usual headers, while another client keeps the default", async () => {
    const limited = await createTestTenant(app);
    const other = await createTestTenant(app);
    await admin.setClientSettings(limited.clientId, { quotas: { writesPerSecond: 2 } });

    const refused = await refusedBurst(limited, 3);
    expect(refused.body).toEqual({
      Message: expect.stringMatching(
        new RegExp(
          `^Too many writes for client ${limited.clientId}: at most 2 per second; retry after [1-9]\\d* s$`,
        ),
      ),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['ratelimit-limit']).toBe('2');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-policy']).toBe('2;w=1');
    expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);

    // The same burst from a client without a quota of its own: the default, far above it.
    const answers = await burst(other, 3);
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    expect(answers.map((answer) => answer.headers['ratelimit-limit'])).toEqual(
      Array(3).fill(String(WRITES)),
    );
    // Reads keep theirs: only the writes quota was set.
    const read = await request(app.http)
      .get(`/Profiles/v4/${limited.clientId}/ConsentStatus`)
      .set('Authorization', await limited.bearer());
    expect([read.status, read.headers['ratelimit-limit']]).toEqual([200, String(READS)]);
  });

  it('applies a change made with the admin CLI while the api runs, and "default" brings the default back', async () => {
    const tenant = await createTestTenant(app);
    expect((await write(tenant)).headers['ratelimit-limit']).toBe(String(WRITES));

    const set = await adminCli(
      'set-client',
      '--client-id',
      tenant.clientId,
      '--writes-per-second',
      '1',
      '--reads-per-second',
      '0',
    );
    expect(set).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(set.out)).toEqual({
      clientId: tenant.clientId,
      tokenLifetimeSeconds: 3600,
      customAuthWindowSeconds: 900,
      quotas: {
        readsPerSecond: 0,
        writesPerSecond: 1,
        bulkImportsPerDay: 'default',
        maxEventSubscriptions: 'default',
      },
    });
    // Applied by the running api, without a restart: its next requests of the client.
    const refused = await refusedBurst(tenant, 2);
    expect(refused.headers['ratelimit-limit']).toBe('1');
    // Reads per second 0: unlimited, so neither counted nor given RateLimit headers.
    const read = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/ConsentStatus`)
      .set('Authorization', await tenant.bearer());
    expect([read.status, read.headers['ratelimit-limit']]).toEqual([200, undefined]);

    const reset = await adminCli(
      'set-client',
      '--client-id',
      tenant.clientId,
      '--writes-per-second',
      'default',
      '--reads-per-second',
      'default',
    );
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.out).quotas).toEqual({
      readsPerSecond: 'default',
      writesPerSecond: 'default',
      bulkImportsPerDay: 'default',
      maxEventSubscriptions: 'default',
    });
    const back = await eventually(async () => {
      const answer = await write(tenant);
      return answer.headers['ratelimit-limit'] === String(WRITES) ? answer : undefined;
    });
    expect(back.status).toBe(400);
    const quotas = await quotasOf(tenant.clientId).expect(200);
    expect(quotas.body.WritesPerSecond).toMatchObject({ Limit: WRITES, Source: 'Default' });
    expect(quotas.body.ReadsPerSecond).toMatchObject({ Limit: READS, Source: 'Default' });
  });

  it('refuses bad values naming the flag and the value, and changes nothing', async () => {
    const tenant = await createTestTenant(app);
    await admin.setClientSettings(tenant.clientId, { quotas: { writesPerSecond: 7 } });
    const run = await adminCli(
      'set-client',
      '--client-id',
      tenant.clientId,
      '--writes-per-second=-1',
      '--reads-per-second',
      '2.5',
      '--bulk-imports-per-day',
      'lots',
      '--max-event-subscriptions',
      '0',
    );
    // A bad command line: status 2 (a failed command is 1), one line per bad value, no usage.
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err.trim().split('\n')).toEqual([
      'Invalid values:',
      '  --reads-per-second (value "2.5"): must be a whole number from 0 to 2147483647 (0: unlimited), or default',
      '  --writes-per-second (value "-1"): must be a whole number from 0 to 2147483647 (0: unlimited), or default',
      '  --bulk-imports-per-day (value "lots"): must be a whole number from 0 to 2147483647 (0: unlimited), or default',
      '  --max-event-subscriptions (value "0"): must be a whole number from 1 to 2147483647, or default',
    ]);
    const quotas = await quotasOf(tenant.clientId).expect(200);
    expect(quotas.body.WritesPerSecond).toMatchObject({ Limit: 7, Source: 'Client' });
    expect(quotas.body.MaxEventSubscriptions).toMatchObject({
      Limit: SUBSCRIPTIONS,
      Source: 'Default',
    });
    // The service refuses them too (what the harness and other callers reach).
    await expect(
      admin.setClientSettings(tenant.clientId, { quotas: { bulkImportsPerDay: -3 } }),
    ).rejects.toThrow(
      'bulkImportsPerDay (value -3): must be a whole number from 0 to 2147483647 (0: unlimited), or default',
    );
  });

  /** An import of the tenant (its MatchValue type configured once by the caller). */
  const initiate = async (tenant: TestTenant) =>
    request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Bulk/Import`)
      .set('Authorization', await tenant.bearer())
      .send({ Name: 'Daily', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' });
  const withAlternateIdType = async (tenant: TestTenant) => {
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/AlternateIdTypes`)
      .set('Authorization', await tenant.bearer())
      .send({ AlternateIdTypes: [{ TypeName: 'CRM', LocalizedFields: localized('CRM') }] })
      .expect(201);
    return tenant;
  };

  it("limits a client's bulk imports per day by its own quota, others by the default", async () => {
    const limited = await withAlternateIdType(await createTestTenant(app));
    const other = await withAlternateIdType(await createTestTenant(app));
    await admin.setClientSettings(limited.clientId, { quotas: { bulkImportsPerDay: 1 } });

    expect((await initiate(limited)).status).toBe(201);
    const refused = await initiate(limited);
    expect(refused.status).toBe(429);
    expect(refused.body.Message).toMatch(
      new RegExp(
        `^The daily import limit of client ${limited.clientId} is reached \\(1 imports in 24 hours\\); retry after \\d+ s$`,
      ),
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);

    const statuses = [];
    for (let n = 0; n <= DAILY_IMPORTS; n++) statuses.push((await initiate(other)).status);
    expect(statuses).toEqual([...Array(DAILY_IMPORTS).fill(201), 429]);

    // Raised, the limit counts the imports already begun today.
    await admin.setClientSettings(limited.clientId, { quotas: { bulkImportsPerDay: 2 } });
    expect((await initiate(limited)).status).toBe(201);
    expect((await initiate(limited)).status).toBe(429);
  });

  /** A subscription body of its own Url (never delivered to: this suite runs no worker). */
  let urls = 0;
  const subscribe = async (tenant: TestTenant) =>
    request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Events/Subscriptions`)
      .set('Authorization', await tenant.bearer())
      .send({
        Name: 'Quota',
        Url: `http://127.0.0.1:9/quota/${urls++}`,
        Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
      });

  it("limits a client's event subscriptions by its own quota, others by the default", async () => {
    const limited = await createTestTenant(app);
    const other = await createTestTenant(app);
    await admin.setClientSettings(limited.clientId, { quotas: { maxEventSubscriptions: 1 } });

    expect((await subscribe(limited)).status).toBe(201);
    const refused = await subscribe(limited);
    expect([refused.status, refused.body.Message]).toEqual([
      409,
      'The client holds 1 event subscriptions, the most it may (its own quota, 1); delete one first',
    ]);
    const statuses = [];
    for (let n = 0; n <= SUBSCRIPTIONS; n++) statuses.push((await subscribe(other)).status);
    expect(statuses).toEqual([...Array(SUBSCRIPTIONS).fill(201), 409]);

    await admin.setClientSettings(limited.clientId, {
      quotas: { maxEventSubscriptions: 'default' },
    });
    expect((await subscribe(limited)).status).toBe(201);
  });

  it('lists a client’s quotas, whose each is, the defaults and the use now (operator route)', async () => {
    const tenant = await withAlternateIdType(await createTestTenant(app));
    await admin.setClientSettings(tenant.clientId, {
      quotas: { writesPerSecond: 500, bulkImportsPerDay: 2 },
    });
    expect((await initiate(tenant)).status).toBe(201);
    expect((await subscribe(tenant)).status).toBe(201);
    expect((await subscribe(tenant)).status).toBe(201);

    const answer = await quotasOf(tenant.clientId).expect(200);
    expect(answer.body).toEqual({
      ClientId: tenant.clientId,
      ReadsPerSecond: { Limit: READS, Source: 'Default', Default: READS, Used: expect.any(Number) },
      WritesPerSecond: { Limit: 500, Source: 'Client', Default: WRITES, Used: expect.any(Number) },
      BulkImportsPerDay: { Limit: 2, Source: 'Client', Default: DAILY_IMPORTS, Used: 1 },
      MaxEventSubscriptions: {
        Limit: SUBSCRIPTIONS,
        Source: 'Default',
        Default: SUBSCRIPTIONS,
        Used: 2,
      },
    });
    // The requests of the current one-second window, as the api processes shared them.
    const used = await eventually(async () => {
      await write(tenant);
      const { WritesPerSecond } = (await quotasOf(tenant.clientId).expect(200)).body as {
        WritesPerSecond: { Used: number };
      };
      return WritesPerSecond.Used >= 1 ? WritesPerSecond.Used : undefined;
    });
    expect(used).toBeLessThanOrEqual(500);

    await quotasOf('no-such-client').expect(404, {
      Message: 'Client no-such-client was not found',
    });
    // The operator's credential only: not a tenant's.
    const tenantsOwn = await quotasOf(tenant.clientId, await tenant.bearer());
    expect(tenantsOwn.status).toBe(401);
  });
});
