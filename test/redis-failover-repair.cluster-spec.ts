import { type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis, { Cluster } from 'ioredis';
import request from 'supertest';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../scripts/lib/engines.js');

/** `CLUSTER NODES` as seen by the node on `port`: each node's port and whether master. */
async function clusterNodes(port: number): Promise<{ port: number; master: boolean }[]> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  await redis.connect();
  try {
    const text = (await redis.cluster('NODES')) as string;
    return text
      .trim()
      .split('\n')
      .map((line) => {
        const [, address, flags] = line.split(' ');
        return { port: Number(/:(\d+)@/.exec(address)![1]), master: flags.includes('master') };
      });
  } finally {
    redis.disconnect();
  }
}

/** Every key the masters hold, with its value (DUMP) and time to live. */
type Snapshot = Map<string, { dump: Buffer; ttl: number }>;

async function snapshot(redis: Cluster): Promise<Snapshot> {
  const keys = new Map<string, { dump: Buffer; ttl: number }>();
  for (const node of redis.nodes('master')) {
    for (const key of await node.keys('*')) {
      const [dump, ttl] = await Promise.all([node.dumpBuffer(key), node.pttl(key)]);
      if (dump) keys.set(key, { dump, ttl });
    }
  }
  return keys;
}

/** Puts the masters back as `before`: what a replica that missed every write since holds. */
async function restore(redis: Cluster, before: Snapshot): Promise<void> {
  for (const node of redis.nodes('master')) {
    for (const key of await node.keys('*')) {
      if (!before.has(key)) await node.del(key);
    }
  }
  for (const [key, { dump, ttl }] of before) {
    await redis.restore(key, Math.max(ttl, 0), dump, 'REPLACE');
  }
}

/**
 * Only in the e2e-cluster project, on a cluster of its own (it fails over). A failover loses
 * what the master had not yet sent to its replica. That loss is made certain here: every key
 * is put back as it was before a write (DUMP and RESTORE: the data of a replica that missed
 * the write's replication), then a replica takes over from its master. The cluster then
 * holds the profile's derived data from before the write: its old search keys and its old
 * read model entry, which says Complete. The worker sees the masters change and derives them
 * again from the engine for the profiles it saved lately (RepairRecentSaves), so GET and the
 * searches answer the profile as the engine holds it (docs/scaling.md, "What a failover
 * costs").
 */
describe('Derived data lost with a failover is repaired from the engine (RepairRecentSaves)', () => {
  let cluster: { url: string; nodes: string; ports: number[]; children: ChildProcess[] };
  let dir: string;
  let redis: Cluster;
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  const profile = async (id: number) =>
    (await request(app.http).get(`${base()}/${id}`).set('Authorization', auth).expect(200)).body;
  const byFirstName = async (firstName: string): Promise<number[]> =>
    (
      await request(app.http)
        .get(`${base()}/Name`)
        .query({ firstName })
        .set('Authorization', auth)
        .expect(200)
    ).body.map((found: { ProfileId: number }) => found.ProfileId);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pcp-failover-repair-'));
    cluster = await engines.startRedisCluster({ dir });
    redis = new Cluster([{ host: '127.0.0.1', port: cluster.ports[0] }]);
    await redis.ping();
    app = await startTestApp({
      env: {
        REDIS_URL: cluster.url,
        REDIS_CLUSTER_NODES: cluster.nodes,
      },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(async () => {
    await app?.close();
    redis?.disconnect();
    await Promise.all((cluster?.children ?? []).map((child) => engines.stop(child)));
  });

  it("after a failover that lost a write's derived data, GET and searches answer the saved profile", async () => {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Beforehand' } })
      .expect(202);
    const id = created.body.ProfileId as number;
    await eventually(async () =>
      (await profile(id)).UpdateStatus === 'Complete' ? true : undefined,
    );
    await eventually(async () =>
      (await byFirstName('Beforehand')).includes(id) ? true : undefined,
    );

    // What every master holds now, to be put back after the write: the state a promoted
    // replica that missed the write's replication would have.
    const before = await snapshot(redis);
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerName: { FirstName: 'Afterwards' } })
      .expect(202);
    await eventually(async () => {
      const body = await profile(id);
      return body.UpdateStatus === 'Complete' && body.CustomerName.FirstName === 'Afterwards'
        ? true
        : undefined;
    });
    await restore(redis, before);
    // The failover itself (a replica taking over its master's slots) is what the worker sees.
    const replica = (await clusterNodes(cluster.ports[0])).find((node) => !node.master)!;
    const promoted = new Redis({ port: replica.port, host: '127.0.0.1', lazyConnect: true });
    await promoted.connect();
    try {
      await promoted.cluster('FAILOVER');
      await eventually(async () => ((await promoted.role())[0] === 'master' ? true : undefined));
    } finally {
      promoted.disconnect();
    }
    await engines.waitForClusterOk(cluster.ports);

    // The engine's version, not the one the new masters hold.
    await eventually(async () => {
      const body = await profile(id);
      return body.CustomerName.FirstName === 'Afterwards' && body.UpdateStatus === 'Complete'
        ? true
        : undefined;
    }, 45000);
    await eventually(
      async () => ((await byFirstName('Afterwards')).includes(id) ? true : undefined),
      45000,
    );
    expect(await byFirstName('Beforehand')).toEqual([]);
  }, 120000);
});
