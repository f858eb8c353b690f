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
    expect(profile.DefaultLocale).toBe('nl-nl');
  });
});
