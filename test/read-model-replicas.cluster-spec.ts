import Redis from 'ioredis';
import request from 'supertest';
import { Metrics, RedisService, slotOf } from '@app/shared';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, type TestTenant } from './harness/session';
import { startTestApp, type TestApp } from './harness/test-app';

/**
 * Only in the e2e-cluster project (three masters, a replica each). With
 * READ_MODEL_WAIT_REPLICAS=1 an accepted write's record in the read model (`acc`) is on the
 * master's replica before the 202 (Redis WAIT), so a failover cannot lose it and make GET
 * answer Complete while the write waits (docs/scaling.md, "What a failover costs"). A
 * replica that cannot acknowledge in time delays the answer by READ_MODEL_WAIT_TIMEOUT_MS at
 * most: the write is answered all the same, and counted.
 */
describe('Read model records on a replica before the 202 (READ_MODEL_WAIT_REPLICAS)', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  const unreplicated = async () => {
    const { body } = await app.api.get(Metrics).render();
    const line = body
      .split('\n')
      .find((l) => l.startsWith('pcp_read_model_unreplicated_writes_total '));
    return Number(line?.split(' ')[1] ?? NaN);
  };

  /** The master holding `key`'s slot, and a connection to its replica. */
  async function replicaOf(key: string): Promise<{ replica: Redis; pid: number }> {
    const slots = await redis.masters()[0].cluster('SLOTS');
    const slot = slotOf(key);
    const range = slots.find(([from, to]) => from <= slot && slot <= to)!;
    const [, , , [host, port]] = range;
    const replica = new Redis({ host, port, lazyConnect: true });
    await replica.connect();
    await replica.readonly();
    const info = await replica.info('server');
    const pid = Number(/process_id:(\d+)/.exec(info)![1]);
    return { replica, pid };
  }

  beforeAll(async () => {
    app = await startTestApp({
      env: { READ_MODEL_WAIT_REPLICAS: '1', READ_MODEL_WAIT_TIMEOUT_MS: '300' },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    redis = app.api.get(RedisService);
  });
  afterAll(() => app.close());

  it("holds the accepted write's record on the replica before answering, and counts a replica that could not", async () => {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Waited' } })
      .expect(202);
    const id = created.body.ProfileId as number;
    const key = redis.tagged('pm', `${tenant.clientId}|${id}`);
    const { replica, pid } = await replicaOf(key);
    try {
      expect(await unreplicated()).toBe(0);
      // Acknowledged: the replica holds the record the moment the 202 arrives.
      const second = await request(app.http)
        .post(`${base()}/${id}`)
        .set('Authorization', auth)
        .send({ CustomerName: { FirstName: 'Second' } })
        .expect(202);
      expect(second.body.UpdateStatus).toBe('Pending Update');
      expect(Number(await replica.hget(key, 'acc'))).toBeGreaterThanOrEqual(2);
      expect(await unreplicated()).toBe(0);

      // A replica that cannot answer (stopped) delays the answer, which still comes.
      process.kill(pid, 'SIGSTOP');
      try {
        await request(app.http)
          .post(`${base()}/${id}`)
          .set('Authorization', auth)
          .send({ CustomerName: { FirstName: 'Third' } })
          .expect(202);
      } finally {
        process.kill(pid, 'SIGCONT');
      }
      expect(await unreplicated()).toBe(1);
    } finally {
      replica.disconnect();
    }
  });
});
