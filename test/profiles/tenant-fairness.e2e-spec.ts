import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * Tenants share the worker: each tenant's jobs wait in its own queue and the worker's slots
 * go round the tenants (TenantFairQueue), so a tenant's write does not wait behind another
 * tenant's backlog, however fast that backlog arrived. Asserted by order (the write applied
 * while most of the backlog waits), never by a duration.
 */
describe('Tenants share the worker', () => {
  let app: TestApp;
  let flooder: TestTenant;
  let other: TestTenant;
  const FLOOD = 400;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      // No sweeper help: its jobs would pick the write up early.
      env: { WORKER_CONCURRENCY: '2', STALE_WRITE_MS: '600000' },
    });
    flooder = await createTestTenant(app);
    other = await createTestTenant(app);
    await configureTestTenant(app, flooder);
    await configureTestTenant(app, other);
  });
  afterAll(() => app.close());

  const create = async (tenant: TestTenant, auth: string, firstName: string) => {
    const res = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: firstName } });
    if (res.status !== 202) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.ProfileId as number;
  };

  it("a tenant's write is applied while another tenant's backlog of hundreds is still waiting", async () => {
    const otherAuth = await other.bearer();
    const otherId = await create(other, otherAuth, 'Before');
    const get = () =>
      request(app.http)
        .get(`/Profiles/v4/${other.clientId}/Profile/${otherId}`)
        .set('Authorization', otherAuth);
    // Applied before the flood (so no job of it is queued ahead of the flood), then no worker.
    const first = await app.startWorker();
    await eventually(async () =>
      (await get()).body.UpdateStatus === 'Complete' ? true : undefined,
    );
    await app.stopWorker(first);

    // The flood: accepted while no worker runs, so all of it is waiting when one starts.
    const floodAuth = await flooder.bearer();
    for (let at = 0; at < FLOOD; at += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, n) => create(flooder, floodAuth, `F${at + n}`)),
      );
    }
    await request(app.http)
      .post(`/Profiles/v4/${other.clientId}/Profile/${otherId}`)
      .set('Authorization', otherAuth)
      .send({ CustomerName: { FirstName: 'After' } })
      .expect(202);

    await app.startWorker();
    await eventually(async () => {
      const res = await get();
      return res.body.UpdateStatus === 'Complete' && res.body.CustomerName.FirstName === 'After'
        ? true
        : undefined;
    });
    // Most of the flood is still waiting: the other tenant's write did not queue behind it.
    const db = app.api.get<Connection>(getConnectionToken());
    const waiting = await db
      .collection('profiles')
      .countDocuments({ clientId: flooder.clientId, appliedSeq: 0 });
    expect(waiting).toBeGreaterThan(FLOOD / 4);
    // And the flood is applied in full afterwards.
    await eventually(
      async () =>
        (await db
          .collection('profiles')
          .countDocuments({ clientId: flooder.clientId, appliedSeq: 0 })) === 0
          ? true
          : undefined,
      120_000,
    );
  }, 180_000);
});
