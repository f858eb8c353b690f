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
 * Redis is not the record: with Redis down, writes are still accepted (the database
 * holds them) and answered promptly; once Redis is back, the sweeper carries them.
 */
describe('Profile writes while Redis is down', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-redis-outage-'));
  let redis: { url: string; child: unknown };
  let port: number;
  let app: TestApp;

  beforeAll(async () => {
    port = await engines.freePort();
    redis = await engines.startRedis({ dir, port, persist: false });
    app = await startTestApp({ env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await app.close();
    await engines.stop(redis.child);
  });

  it('accepts a write with 202 while Redis is down and applies it after Redis returns', async () => {
    const tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    const auth = await tenant.bearer();
    const base = `/Profiles/v4/${tenant.clientId}/Profile`;
    const created = await request(app.http)
      .post(base)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' })
      .expect(202);
    const id = created.body.ProfileId;
    await eventually(async () => {
      const res = await request(app.http).get(`${base}/${id}`).set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });

    await engines.stop(redis.child);
    const started = Date.now();
    await request(app.http)
      .post(`${base}/${id}`)
      .set('Authorization', auth)
      .send({ DefaultLocale: 'nl-nl' })
      .expect(202);
    // Bounded by the enqueue timeout, not by Redis coming back.
    expect(Date.now() - started).toBeLessThan(10000);
    const pending = await request(app.http)
      .get(`${base}/${id}`)
      .set('Authorization', auth)
      .expect(200);
    expect(pending.body.UpdateStatus).toBe('Pending Update');

    redis = await engines.startRedis({ dir, port, persist: false });
    const profile = await eventually(async () => {
      const res = await request(app.http).get(`${base}/${id}`).set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    }, 60000);
    expect(profile?.DefaultLocale).toBe('nl-nl');
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
  const dir = mkdtempSync(join(tmpdir(), 'pcp-redis-kept-'));
  let redis: { url: string; child: unknown };
  let port: number;
  let app: TestApp;

  beforeAll(async () => {
    port = await engines.freePort();
    redis = await engines.startRedis({ dir, port, persist: true });
    app = await startTestApp({ env: { REDIS_URL: redis.url, STALE_WRITE_MS: '600000' } });
  });
  afterAll(async () => {
    await app.close();
    await engines.stop(redis.child);
  });

  it('answers Pending Update for a write accepted while Redis was down, then applies it', async () => {
    const tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    const auth = await tenant.bearer();
    const base = `/Profiles/v4/${tenant.clientId}/Profile`;
    const get = (id: number) =>
      request(app.http).get(`${base}/${id}`).set('Authorization', auth).expect(200);
    const created = await request(app.http)
      .post(base)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' })
      .expect(202);
    const id = created.body.ProfileId;
    await eventually(async () =>
      (await get(id)).body.UpdateStatus === 'Complete' ? true : undefined,
    );

    await engines.stop(redis.child);
    await request(app.http)
      .post(`${base}/${id}`)
      .set('Authorization', auth)
      .send({ DefaultLocale: 'nl-nl' })
      .expect(202);
    redis = await engines.startRedis({ dir, port, persist: true });

    // Every answer from here on: Pending Update, or Complete with the write applied.
    const falseComplete: unknown[] = [];
    let profile: { DefaultLocale?: string } | undefined;
    try {
      profile = await eventually(async () => {
        const { body } = await get(id);
        if (body.UpdateStatus !== 'Complete') return undefined;
        if (body.DefaultLocale !== 'nl-nl') falseComplete.push(body);
        return body.DefaultLocale === 'nl-nl' ? body : undefined;
      }, 30000);
    } finally {
      expect(falseComplete).toEqual([]);
    }
    expect(profile?.DefaultLocale).toBe('nl-nl');
  });
});
