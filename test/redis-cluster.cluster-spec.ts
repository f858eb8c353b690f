import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { Cluster } from 'ioredis';
import request from 'supertest';
import { JOBS_QUEUE, pinnedKey, RedisService, slotOf } from '@app/shared';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

/**
 * Only in the e2e-cluster project (against the Redis Cluster of its setup): every
 * connection is a cluster client, the cluster refuses what the key scheme avoids (keys of
 * different slots in one command), and the key families spread or are pinned as
 * docs/scaling.md's table says.
 */
describe('On a Redis Cluster', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  /** Per master, the keys matching `pattern` it holds. */
  const keysByMaster = (pattern: string) =>
    Promise.all(redis.masters().map((node) => node.keys(pattern)));

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    redis = app.api.get(RedisService);
  });
  afterAll(() => app.close());

  it('every connection is a cluster client, and the cluster refuses keys of two slots', async () => {
    expect(redis.cluster).toBe(true);
    expect(redis.client).toBeInstanceOf(Cluster);
    expect(app.api.get<Queue>(getQueueToken(JOBS_QUEUE)).client).toBeInstanceOf(Cluster);
    expect(app.workers[0].get<Queue>(getQueueToken(JOBS_QUEUE)).client).toBeInstanceOf(Cluster);
    expect(redis.masters()).toHaveLength(3);
    const one = redis.tagged('pm', 'a|1');
    const other = redis.tagged('pm', 'a|2');
    expect(slotOf(one)).not.toBe(slotOf(other));
    // Asked of a node directly (the cluster client refuses it before sending).
    await expect(redis.masters()[0].mget(one, other)).rejects.toThrow(/CROSSSLOT/);
    await expect(redis.client.mget(one, other)).rejects.toThrow(/same slot/);
  });

  it("profiles' read model entries spread over the masters; the queue's keys share one", async () => {
    const ids: number[] = [];
    for (let n = 0; n < 12; n++) {
      const res = await request(app.http)
        .post(base())
        .set('Authorization', auth)
        .send({ CustomerType: 'Customer', CustomerName: { FirstName: `Spread${n}` } })
        .expect(202);
      ids.push(res.body.ProfileId as number);
    }
    for (const id of ids) {
      await eventually(async () => {
        const res = await request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
        return res.body.UpdateStatus === 'Complete' ? true : undefined;
      });
    }
    const entries = await keysByMaster(`${redis.key('pm')}:{${tenant.clientId}|*`);
    expect(entries.flat().sort()).toEqual(
      ids.map((id) => redis.tagged('pm', `${tenant.clientId}|${id}`)).sort(),
    );
    // 12 profiles on one master of three: (1/3)^11 by chance.
    expect(entries.filter((keys) => keys.length > 0).length).toBeGreaterThan(1);
    const bull = await keysByMaster(`${pinnedKey(app.settings.queuePrefix, 'bull')}:*`);
    expect(bull.filter((keys) => keys.length > 0)).toHaveLength(1);
  });
});
