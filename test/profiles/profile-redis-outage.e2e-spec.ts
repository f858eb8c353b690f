import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../../scripts/lib/engines.js');

/**
 * An app on a Redis of its own, which a test stops and starts again on the same port and
 * files: empty again (`persist` false, a lost Redis) or with its data (an AOF file).
 */
function appOnOwnRedis(persist: boolean, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-redis-outage-'));
  const own = {
    app: undefined as unknown as TestApp,
    port: 0,
    child: undefined as unknown,
    stopRedis: () => engines.stop(own.child),
    startRedis: async () => {
      own.child = (await engines.startRedis({ dir, port: own.port, persist })).child;
    },
  };
  beforeAll(async () => {
    own.port = await engines.freePort();
    await own.startRedis();
    own.app = await startTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${own.port}`, ...env } });
  });
  afterAll(async () => {
    await own.app.close();
    await own.stopRedis();
  });
  return own;
}

/** A configured tenant with one applied profile: its routes, and GET of that profile. */
async function profileOf(app: TestApp) {
  const tenant = await createTestTenant(app);
  await configureTestTenant(app, tenant);
  const auth = await tenant.bearer();
  const base = `/Profiles/v4/${tenant.clientId}/Profile`;
  const created = await request(app.http)
    .post(base)
    .set('Authorization', auth)
    .send({ CustomerType: 'Customer' })
    .expect(202);
  const id = created.body.ProfileId as number;
  const get = () => request(app.http).get(`${base}/${id}`).set('Authorization', auth).expect(200);
  await eventually(async () => ((await get()).body.UpdateStatus === 'Complete' ? true : undefined));
  const merge = (body: object) =>
    request(app.http).post(`${base}/${id}`).set('Authorization', auth).send(body).expect(202);
  return { get, merge };
}

/**
 * Redis is not the record: with Redis down, writes are still accepted (the database
 * holds them) and answered promptly; once Redis is back, the sweeper carries them.
 */
describe('Profile writes while Redis is down', () => {
  const own = appOnOwnRedis(false);

  it('accepts a write with 202 while Redis is down and applies it after Redis returns', async () => {
    const profile = await profileOf(own.app);
    await own.stopRedis();
    const started = Date.now();
    await profile.merge({ DefaultLocale: 'nl-nl' });
    // Bounded by the enqueue timeout, not by Redis coming back.
    expect(Date.now() - started).toBeLessThan(10000);
    expect((await profile.get()).body.UpdateStatus).toBe('Pending Update');

    await own.startRedis();
    const applied = await eventually(async () => {
      const { body } = await profile.get();
      return body.UpdateStatus === 'Complete' ? body : undefined;
    }, 60000);
    expect(applied.DefaultLocale).toBe('nl-nl');
  });
});

/**
 * A Redis that comes back with its data (persisted, or a network partition healed) still
 * holds the read model entries as they were before the outage, without the writes accepted
 * meanwhile: the api records them once Redis answers again, and the worker sweeps every
 * pending write at once, so no GET answers Complete while such a write waits, and it applies
 * without waiting STALE_WRITE_MS (here far longer than the test).
 */
describe('Profile writes while Redis is down, Redis back with its data', () => {
  const own = appOnOwnRedis(true, { STALE_WRITE_MS: '600000' });

  it('answers Pending Update for a write accepted while Redis was down, then applies it', async () => {
    const profile = await profileOf(own.app);
    await own.stopRedis();
    await profile.merge({ DefaultLocale: 'nl-nl' });
    await own.startRedis();

    // Every answer from here on: Pending Update, or Complete with the write applied.
    const falseComplete: unknown[] = [];
    let applied: { DefaultLocale?: string } | undefined;
    try {
      applied = await eventually(async () => {
        const { body } = await profile.get();
        if (body.UpdateStatus !== 'Complete') return undefined;
        if (body.DefaultLocale !== 'nl-nl') falseComplete.push(body);
        return body.DefaultLocale === 'nl-nl' ? body : undefined;
      }, 30000);
    } finally {
      expect(falseComplete).toEqual([]);
    }
    expect(applied?.DefaultLocale).toBe('nl-nl');
  });
});
