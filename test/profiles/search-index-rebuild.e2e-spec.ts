import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { CRASH_POINTS, CrashPoints, leaseKey, RedisService } from '@app/shared';
import {
  KeyIndexRebuildPlan,
  type RebuildPartition,
} from '../../libs/profiles/src/read/search/key-index-rebuild-plan';
import { configureTestTenant } from '../harness/configuration';
import { type EngineCommand, recordEngineCommands } from '../harness/engine-commands';
import { deleteRedisKeys } from '../harness/redis-keys';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

const LAST_NAMES = [
  'Abbott',
  'Baxter',
  'Carver',
  'Dalton',
  'Easton',
  'Fulton',
  'Garner',
  'Hollis',
  'Ingram',
  'Jarvis',
  'Mercer',
  'Norris',
];

/**
 * The search key index's rebuild after Redis lost it (issue 41, item 4): partitions of each
 * client's profile ids (here 4 ids each, read 2 at a time), each taken by one worker under
 * a lease with a checkpoint. A worker killed halfway leaves its partition to the next one
 * at its checkpoint; two workers share a rebuild; searches never answer from the
 * incomplete index, and answer every profile by its current name once it is built.
 */
describe('The search key index rebuild', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  let plan: KeyIndexRebuildPlan;
  /** Profile id by its current last name; the names each profile had before. */
  const ids = new Map<string, number>();
  const oldNames: string[] = [];
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      env: {
        MONITOR_ENGINE_COMMANDS: 'true',
        SEARCH_INDEX_REBUILD_PARTITION: '4',
        SEARCH_INDEX_REBUILD_PAGE: '2',
        // The rebuild starts after each sweep: soon after the index is lost.
        SWEEP_INTERVAL_MS: '300',
        // The sweep drops the markers of applied writes once they are this old (reading the
        // profile by `_id`): before the rebuilds, so that only the rebuild reads profiles.
        STALE_WRITE_MS: '1000',
      },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    redis = app.api.get(RedisService);
    plan = new KeyIndexRebuildPlan(redis);
    await app.startWorker();
    for (const lastName of LAST_NAMES) {
      ids.set(lastName, await write(base(), lastName));
    }
    // Two profiles renamed: found by their new names only, whatever the rebuild read.
    for (const [from, to] of [
      ['Carver', 'Kendall'],
      ['Garner', 'Lawson'],
    ]) {
      const id = ids.get(from)!;
      await write(`${base()}/${id}`, to);
      ids.delete(from);
      ids.set(to, id);
      oldNames.push(from);
    }
    // Ids 1 to 12: three partitions of two pages each (the last one's end is where ids end).
    expect([...ids.values()].sort((a, b) => a - b)).toEqual(
      Array.from({ length: LAST_NAMES.length }, (_, i) => i + 1),
    );
    await eventually(async () => ((await isBuilt()) ? true : undefined));
    const markers = app.api.get<Connection>(getConnectionToken()).collection('pending_profiles');
    await eventually(async () => ((await markers.countDocuments()) === 0 ? true : undefined));
  });
  afterEach(() => {
    // A point left armed by a failed test would freeze a later rebuild.
    for (const worker of app.workers) worker.get(CrashPoints).disarmAll();
  });
  afterAll(() => app.close());

  /** A create or a full update with this last name, until it is Complete; the profile id. */
  async function write(path: string, lastName: string): Promise<number> {
    const res = await request(app.http)
      .post(path)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Pat', LastName: lastName } })
      .expect(202);
    const id = res.body.ProfileId as number;
    await eventually(async () => {
      const got = await request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
      return got.body.UpdateStatus === 'Complete' && got.body.CustomerName?.LastName === lastName
        ? true
        : undefined;
    });
    return id;
  }

  async function byLastName(lastName: string): Promise<number[]> {
    const res = await request(app.http)
      .get(`${base()}/Name`)
      .query({ lastName })
      .set('Authorization', auth)
      .expect(200);
    return res.body.map((profile: { ProfileId: number }) => profile.ProfileId);
  }

  /** Every profile by its current name, none by an old one. */
  async function everyProfileFoundByItsCurrentName(): Promise<void> {
    for (const [lastName, id] of ids) expect(await byLastName(lastName)).toEqual([id]);
    for (const lastName of oldNames) expect(await byLastName(lastName)).toEqual([]);
  }

  const isBuilt = async () => (await redis.client.exists(redis.key('kx', 'built'))) === 1;

  /** Redis lost the index: its sets, its marker, any plan of an earlier rebuild. */
  const indexLost = () => deleteRedisKeys(redis, redis.key('kx', '*'));

  /** The partition whose checkpoint moved past its start and is not done (the one stopped). */
  async function stoppedPartition(): Promise<RebuildPartition & { next: number }> {
    const stored = await plan.read();
    const started = stored?.partitions.filter(
      (partition): partition is RebuildPartition & { next: number } =>
        partition.next !== 'done' && partition.next > partition.from,
    );
    expect(started).toHaveLength(1);
    return started![0];
  }

  /** How many partitions are left, once only `count` are. */
  const untilLeft = (count: number) =>
    eventually(async () => ((await plan.read())?.left === count ? true : undefined));

  /** The profile ids of this tenant that the commands read from `profiles` by `_id`. */
  function profileIdsRead(commands: EngineCommand[]): number[] {
    const read = new Set<number>();
    for (const command of commands) {
      if (command.name !== 'find' || command.collection !== 'profiles') continue;
      for (const filter of command.filters) {
        const key = (filter as { _id?: unknown })._id;
        if (typeof key !== 'string' || !key.startsWith(`${tenant.clientId}|`)) continue;
        read.add(Number(key.slice(tenant.clientId.length + 1)));
      }
    }
    return [...read].sort((a, b) => a - b);
  }

  const idsOf = (partition: RebuildPartition) => {
    const last = Math.max(...ids.values());
    return [...ids.values()]
      .filter((id) => id >= partition.from && id <= (partition.to ?? last))
      .sort((a, b) => a - b);
  };

  it('resumes a partition at its checkpoint after its worker was killed, and ends complete', async () => {
    const first = app.workers[0];
    const reached = first.get(CrashPoints).arm(CRASH_POINTS.indexRebuildAfterCheckpoint);
    await indexLost();
    await reached;
    const stopped = await stoppedPartition();
    // Its first page (two ids) is in the index, and checkpointed.
    expect(stopped.next).toBe(stopped.from + 2);
    await app.killWorker(first);

    const second = await app.startWorker();
    const commands = await recordEngineCommands([second], async () => {
      // The other partitions are taken at once; the stopped one is held by the dead worker's
      // lease until it lapses (PARTITION_LEASE_MS): here, when the test drops it.
      await untilLeft(1);
      expect(await isBuilt()).toBe(false);
      await redis.client.del(leaseKey(app.settings.queuePrefix, `kx-rebuild:${stopped.n}`));
      await eventually(async () => ((await isBuilt()) ? true : undefined));
    });
    const read = profileIdsRead(commands);
    const partitionIds = idsOf(stopped);
    // Not one profile before the checkpoint read again; every one after it read.
    expect(partitionIds.filter((id) => id < stopped.next && read.includes(id))).toEqual([]);
    const rest = partitionIds.filter((id) => id >= stopped.next);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.filter((id) => !read.includes(id))).toEqual([]);
    // The plan is spent once the index is built.
    expect(await plan.read()).toBeNull();
    await everyProfileFoundByItsCurrentName();
  });

  it('is shared by two workers, and searches never answer from the incomplete index', async () => {
    const first = app.workers[0];
    const stall = first.get(CrashPoints).stall(CRASH_POINTS.indexRebuildAfterCheckpoint);
    await indexLost();
    await stall.reached;
    const held = await stoppedPartition();

    const second = await app.startWorker();
    const byOther = await recordEngineCommands([second], async () => {
      await untilLeft(1);
      // The index holds only part of the profiles now: searches still find every one.
      expect(await isBuilt()).toBe(false);
      await everyProfileFoundByItsCurrentName();
      stall.resume();
      await eventually(async () => ((await isBuilt()) ? true : undefined));
    });
    // The second worker rebuilt every partition but the one the first held.
    const read = profileIdsRead(byOther);
    const others = [...ids.values()].filter((id) => !idsOf(held).includes(id));
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((id) => !read.includes(id))).toEqual([]);
    expect(read.filter((id) => idsOf(held).includes(id))).toEqual([]);
    await everyProfileFoundByItsCurrentName();
  });
});
