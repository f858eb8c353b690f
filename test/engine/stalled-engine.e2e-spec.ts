import request from 'supertest';
import { RedisService } from '@app/shared';
import { ProfileReadModel } from '../../libs/profiles/src/read/profile-read-model.service';
import { createConfiguredTenantWithin } from '../harness/configuration';
import { startFreezableProxy, type FreezableProxy } from '../harness/freezable-proxy';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/**
 * A stalled engine (frozen behind a proxy: connections open, no byte passes) must not hold
 * requests without an answer: a request that needs the engine answers 503 with Retry-After
 * within REQUEST_DEADLINE_MS, requests served from Redis keep being answered, and once the
 * engine answers again so does the service. An engine that dropped every connection (a
 * restart) is reconnected to without restarting the api or the worker.
 */
describe('A stalled or restarted engine', () => {
  let proxy: FreezableProxy;
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let other: TestTenant;
  let otherAuth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const get = (id: number) => request(app.http).get(`${base()}/${id}`).set('Authorization', auth);

  beforeAll(async () => {
    const engine = new URL(process.env.TEST_MONGODB_BASE!);
    proxy = await startFreezableProxy({ host: engine.hostname, port: Number(engine.port) });
    app = await startTestApp({
      env: {
        MONGODB_URI: `mongodb://127.0.0.1:${proxy.port}/stalled_${Date.now().toString(36)}`,
        REQUEST_DEADLINE_MS: '800',
        SYNC_WRITE_TIMEOUT_MS: '1500',
      },
    });
    tenant = await createConfiguredTenantWithin(app, createTestTenant);
    auth = await tenant.bearer();
    other = await createTestTenant(app);
    otherAuth = await other.bearer();
  });
  afterAll(async () => {
    proxy.thaw();
    await app.close();
    await proxy.close();
  });

  it('answers 503 where the engine is needed, keeps serving from Redis, and recovers', async () => {
    const ids: number[] = [];
    for (const name of ['Warm', 'Cold']) {
      const res = await request(app.http)
        .post(base())
        .set('Authorization', auth)
        .send({ CustomerType: 'Customer', CustomerName: { FirstName: name } })
        .expect(202);
      ids.push(res.body.ProfileId);
    }
    const [warm, cold] = ids;
    for (const id of ids) {
      await eventually(async () =>
        (await get(id)).body.UpdateStatus === 'Complete' ? true : undefined,
      );
    }
    // The cold profile's read model entry is gone: reading it needs the engine.
    await app.api.get(ProfileReadModel).forget(tenant.clientId, cold);

    proxy.freeze();
    const stalled = await get(cold);
    expect(stalled.status).toBe(503);
    expect(stalled.headers['retry-after']).toBe('1');
    expect(stalled.body.Message).toMatch(/could not answer within 800 ms/);
    // Served from the read model (and the auth caches): no engine command.
    const served = await get(warm).expect(200);
    expect(served.body.CustomerName.FirstName).toBe('Warm');
    // A tenant whose authentication is not cached (its stamp gone from Redis) needs the
    // engine before the route runs: the deadline covers authentication too.
    await app.api
      .get(RedisService)
      .client.del(`${app.api.get(RedisService).pinned('auth')}:stamp:${other.clientId}`);
    const unauthenticated = await request(app.http)
      .get(`/Profiles/v4/${other.clientId}/Profile/1`)
      .set('Authorization', otherAuth);
    expect(unauthenticated.status).toBe(503);
    expect(unauthenticated.body.Message).toMatch(/could not answer within 800 ms/);

    proxy.thaw();
    const recovered = await eventually(async () => {
      const res = await get(cold);
      return res.status === 200 ? res.body : undefined;
    });
    expect(recovered.CustomerName.FirstName).toBe('Cold');
  });

  it('reconnects after the engine dropped every connection (a restart)', async () => {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Before' } })
      .expect(202);
    const id = res.body.ProfileId as number;
    await eventually(async () =>
      (await get(id)).body.UpdateStatus === 'Complete' ? true : undefined,
    );
    proxy.cut();
    // The api and the worker both need the engine again: a write accepted and applied.
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerName: { FirstName: 'After' } })
      .expect(202);
    const applied = await eventually(async () => {
      const body = (await get(id)).body;
      return body.UpdateStatus === 'Complete' && body.CustomerName.FirstName === 'After'
        ? body
        : undefined;
    });
    expect(applied.CustomerName.FirstName).toBe('After');
  });

  it('gives a route that waits for the worker its wait on top of the deadline', async () => {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' })
      .expect(202);
    const id = res.body.ProfileId as number;
    await eventually(async () =>
      (await get(id)).body.UpdateStatus === 'Complete' ? true : undefined,
    );
    const worker = app.workers[0];
    await app.stopWorker(worker);
    try {
      // No worker: the PATCH waits SYNC_WRITE_TIMEOUT_MS (1.5 s, past the 0.8 s deadline of
      // other routes) and then answers 202 as documented, not 503.
      await request(app.http)
        .patch(`${base()}/${id}`)
        .set('Authorization', auth)
        .set('Content-Type', 'application/json-patch+json')
        .send(JSON.stringify([{ op: 'add', path: '/DefaultLocale', value: 'fr-ca' }]))
        .expect(202);
    } finally {
      await app.startWorker();
    }
  });
});
