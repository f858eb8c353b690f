import { pinnedKey, RedisService } from '@app/shared';
import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * A flood of one tenant at its cap (TENANT_MAX_RUNNING): the turns that find it capped are
 * owed to it, and each finished item's turn takes the owed turn itself (JobRunner.runTurn)
 * instead of adding a Bull turn for it. Asserted by counting the Bull jobs the drain adds
 * (Bull numbers jobs from one counter), never by a duration.
 */
describe('Fair queue: owed turns taken by the finishing turn', () => {
  let app: TestApp;
  let tenant: TestTenant;
  const WRITES = 24;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      env: { TENANT_MAX_RUNNING: '1', WORKER_CONCURRENCY: '8', STALE_WRITE_MS: '600000' },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
  });
  afterAll(() => app.close());

  it('applies every write of a capped tenant with about one Bull job per write', async () => {
    const auth = await tenant.bearer();
    const ids = await Promise.all(
      Array.from({ length: WRITES }, async (_, n) => {
        const res = await request(app.http)
          .post(`/Profiles/v4/${tenant.clientId}/Profile`)
          .set('Authorization', auth)
          .send({ CustomerType: 'Customer', CustomerName: { FirstName: `H${n}` } })
          .expect(202);
        return res.body.ProfileId as number;
      }),
    );
    const redis = app.api.get(RedisService).client;
    const jobIds = `${pinnedKey(app.settings.queuePrefix, 'bull')}:jobs:id`;
    const before = Number(await redis.get(jobIds));
    // Every write waits with its turn when the worker starts: 8 loops, room for 1 item.
    const worker = await app.startWorker();
    for (const id of ids) {
      await eventually(async () => {
        const res = await request(app.http)
          .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
          .set('Authorization', auth);
        return res.body.UpdateStatus === 'Complete' ? true : undefined;
      });
    }
    const added = Number(await redis.get(jobIds)) - before;
    await app.stopWorker(worker);
    // Each of the 7 other loops' first turns found the tenant capped and was owed; adding a
    // Bull turn per owed turn made the drain add about one job per write (23 here). Taken
    // by the finishing turn, none is added but what the idle top-up and scheduled jobs add.
    expect(added).toBeLessThan(WRITES / 2);
  });
});
