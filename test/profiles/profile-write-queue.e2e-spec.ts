import { getQueueToken } from '@nestjs/bull';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Queue } from 'bull';
import type { Connection } from 'mongoose';
import request from 'supertest';
import {
  CRASH_POINTS,
  CrashPoints,
  type FairItem,
  JOBS_QUEUE,
  RedisService,
  TenantFairQueue,
} from '@app/shared';
import { ProfileReadModel } from '../../libs/profiles/src/read/profile-read-model.service';
import { ProfileRepository } from '../../libs/profiles/src/persistence/profile.repository';
import { configureTestTenant } from '../harness/configuration';
import { recordEngineCommands } from '../harness/engine-commands';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/**
 * The write path's promises: per profile, writes apply in acceptance order, exactly
 * once in effect, with several workers, across a crash, a lost job and a lost Redis;
 * a write that cannot apply is recorded as failed and shown, never dropped.
 */
describe('Queued profile writes', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let db: Connection;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      env: { MAX_WRITE_ATTEMPTS: '2', MONITOR_ENGINE_COMMANDS: 'true' },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    db = app.api.get<Connection>(getConnectionToken());
  });
  afterAll(() => app.close());
  afterEach(async () => {
    for (const worker of [...app.workers]) await app.stopWorker(worker);
  });

  const get = (id: number) => request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
  const merge = (id: number, body: object) =>
    request(app.http).post(`${base()}/${id}`).set('Authorization', auth).send(body).expect(202);
  const complete = (id: number) =>
    eventually(async () => {
      const res = await get(id);
      return res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });

  /**
   * The profile's pending marker ages past STALE_WRITE_MS: here, at once (the sweeper, on
   * its next round, treats it as any stale marker; a worker sweeps as it starts too).
   */
  const markerAges = (id: number) =>
    db
      .collection('pending_profiles')
      .updateOne({ _id: `${tenant.clientId}|${id}` } as object, { $set: { since: new Date(0) } });

  async function createProfile(): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' })
      .expect(202);
    return res.body.ProfileId;
  }

  it('applies writes in acceptance order with two workers racing for them', async () => {
    const id = await createProfile();
    for (let n = 0; n < 20; n++) {
      await merge(id, { CustomerName: { FirstName: `n${n}` }, ProfileTags: [{ Name: `t${n}` }] });
    }
    await app.startWorker();
    await app.startWorker();
    const profile = await complete(id);
    expect(profile.CustomerName.FirstName).toBe('n19');
    expect(profile.ProfileTags.map((t: { Name: string }) => t.Name)).toEqual(
      Array.from({ length: 20 }, (_, n) => `t${n}`),
    );
    const updates = await request(app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    // Records of applied writes are kept for the last WRITE_RECORDS_KEPT (20) writes.
    expect(updates.body.Updates.map((u: { Sequence: number }) => u.Sequence)).toEqual(
      Array.from({ length: 20 }, (_, i) => 21 - i),
    );
    expect(new Set(updates.body.Updates.map((u: { Status: string }) => u.Status))).toEqual(
      new Set(['Complete']),
    );
  });

  it('orders writes accepted concurrently by their sequence numbers', async () => {
    const id = await createProfile();
    await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        merge(id, { CustomFields: [{ Name: `f${n}`, Value: `${n}` }] }),
      ),
    );
    await app.startWorker();
    const profile = await complete(id);
    expect(profile.CustomFields).toHaveLength(10);
    const writes = await db
      .collection('profile_writes')
      .find({ clientId: tenant.clientId, profileId: id })
      .sort({ seq: 1 })
      .toArray();
    expect(writes.map((w) => w.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });

  it('loses no write accepted while workers are applying earlier ones', async () => {
    await app.startWorker();
    await app.startWorker();
    const id = await createProfile();
    // Acceptance and application overlap: nothing but the worker may write the profile.
    await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        merge(id, { CustomFields: [{ Name: `c${n}`, Value: `${n}` }] }),
      ),
    );
    const profile = await complete(id);
    expect(profile.CustomFields.map((f: { Name: string }) => f.Name).sort()).toEqual(
      Array.from({ length: 30 }, (_, n) => `c${n}`).sort(),
    );
    const stored = await db
      .collection('profiles')
      .findOne({ _id: `${tenant.clientId}|${id}` } as object);
    expect(stored?.appliedSeq).toBe(31);
  });

  it('never serves an older profile, nor applies a write twice, when a worker crashed after saving and before publishing', async () => {
    const id = await createProfile();
    await merge(id, { CustomerName: { FirstName: 'first' } });
    await merge(id, { CustomerName: { FirstName: 'second' } });
    const worker = await app.startWorker();
    expect((await complete(id)).CustomerName.FirstName).toBe('second');
    await app.stopWorker(worker);

    // The state such a crash leaves: write 3 saved in the database, the read model still
    // holding seq 2 and the dirty mark the worker set before the save.
    const readModel = app.api.get(ProfileReadModel);
    const saved = (await app.api.get(ProfileRepository).findOne(tenant.clientId, id))!;
    expect(saved.appliedSeq).toBe(3);
    await readModel.forget(tenant.clientId, id);
    await readModel.publish({
      ...saved,
      appliedSeq: 2,
      data: { ...saved.data!, CustomerName: { ...saved.data!.CustomerName, FirstName: 'first' } },
    });
    await readModel.markDirty(tenant.clientId, id, 3);
    const served = (await get(id)).body;
    expect(served.CustomerName.FirstName).toBe('second');
    expect(served.UpdateStatus).toBe('Complete');

    await app.startWorker();
    await app.api
      .get<Queue>(getQueueToken(JOBS_QUEUE))
      .add('apply-profile-writes', { clientId: tenant.clientId, profileId: id });
    await eventually(async () => {
      const entry = await readModel.read(tenant.clientId, id);
      return entry?.appliedSeq === 3 ? entry : undefined;
    });
    expect((await complete(id)).CustomerName.FirstName).toBe('second');
    const stored = await db
      .collection('profiles')
      .findOne({ _id: `${tenant.clientId}|${id}` } as object);
    expect(stored?.appliedSeq).toBe(3);
  });

  it('applies writes accepted while no worker ran, after the worker restarts', async () => {
    const id = await createProfile();
    const worker = await app.startWorker();
    await complete(id);
    await app.stopWorker(worker);
    await merge(id, { DefaultLocale: 'fr-ca' });
    expect((await get(id)).body.UpdateStatus).toBe('Pending Update');
    await app.startWorker();
    expect((await complete(id)).DefaultLocale).toBe('fr-ca');
  });

  it('records a write that keeps failing as failed, shows why, and goes on with the next', async () => {
    const id = await createProfile();
    await merge(id, { DefaultLocale: 'it-it' });
    await merge(id, { CustomerName: { LastName: 'After' } });
    // Poison write 2 (as a bug or a damaged record would).
    await db
      .collection('profile_writes')
      .updateOne({ _id: `${tenant.clientId}|${id}|2` } as object, { $set: { body: '{not json' } });
    await app.startWorker();
    const profile = await complete(id);
    expect(profile.DefaultLocale).toBeUndefined();
    expect(profile.CustomerName.LastName).toBe('After');
    const updates = await request(app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    const failed = updates.body.Updates.find((u: { Sequence: number }) => u.Sequence === 2);
    expect(failed).toMatchObject({
      Status: 'Failed',
      Operation: 'merge',
      FailureReason: expect.stringContaining('Gave up after 2 attempts'),
    });
  });

  it('gives a write up after MAX_WRITE_ATTEMPTS starts that never finished (a hang raises no error)', async () => {
    const id = await createProfile();
    const worker = await app.startWorker();
    await complete(id);
    await app.stopWorker(worker);
    await merge(id, { DefaultLocale: 'es-es' });
    await merge(id, { CustomerName: { LastName: 'Next' } });
    // Two earlier attempts at write 2 started and hung (each counted itself at its start).
    const redis = app.api.get(RedisService).client;
    await redis.set(`${app.settings.queuePrefix}:wstart:{${tenant.clientId}|${id}}:2`, '2');
    await app.startWorker();
    const profile = await complete(id);
    expect(profile.DefaultLocale).toBeUndefined();
    expect(profile.CustomerName.LastName).toBe('Next');
    const updates = await request(app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    expect(updates.body.Updates.find((u: { Sequence: number }) => u.Sequence === 2)).toMatchObject({
      Status: 'Failed',
      FailureReason: 'Gave up after 2 attempts that did not finish',
    });
  });

  it('does not let one profile with hundreds of queued writes hold the worker slots', async () => {
    const busy = await createProfile();
    const other = await createProfile();
    const worker = await app.startWorker();
    await complete(busy);
    await complete(other);
    // The busy profile's job stops in its first pass (history written, not saved), holding a
    // worker slot.
    const stall = worker.get(CrashPoints).stall(CRASH_POINTS.applyAfterHistory);
    await merge(busy, { CustomerName: { FirstName: 'b1' } });
    await stall.reached;
    const backlog = 400;
    for (let n = 2; n <= backlog; n++) await merge(busy, { CustomerName: { FirstName: `b${n}` } });
    // Coalesced: the backlog waits as a few queued jobs, not one job per write (399). Not
    // exactly one: on a slow machine the sweeper (every SWEEP_INTERVAL_MS, 1 s here) forces
    // a job for the profile whose writes wait past STALE_WRITE_MS while the stalled job
    // holds its lease; each such job, finding the lease taken, asks again through the flag.
    expect((await queuedJobs()).filter((data) => data.profileId === busy).length).toBeLessThan(10);
    // Another profile's write, accepted behind all of them, is applied meanwhile.
    await merge(other, { CustomerName: { FirstName: 'other' } });
    expect((await complete(other)).CustomerName.FirstName).toBe('other');
    expect((await get(busy)).body.UpdateStatus).toBe('Pending Update');
    stall.resume();
    // The backlog is applied in acceptance order, each write once.
    expect((await complete(busy)).CustomerName.FirstName).toBe(`b${backlog}`);
    const history = await request(app.http)
      .get(`${base()}/${busy}/History/StandardFields`)
      .set('Authorization', auth)
      .expect(200);
    const names = history.body
      .map((entry: { CustomerName?: { FirstName?: string } }) => entry.CustomerName?.FirstName)
      .filter((name: string | undefined) => name?.startsWith('b'));
    expect(names).toEqual(Array.from({ length: backlog }, (_, n) => `b${n + 1}`));
  });

  // Last: a test that empties Bull's queue leaves the tenant's fair queue with items whose
  // turns went with it, and the tests after it waited behind them until the sweeper
  // (STALE_WRITE_MS) or the fair queue's idle top-up (FAIR_IDLE_TOP_UP_MS) moved them.
  it('loses no write when Redis loses its jobs: the sweeper re-enqueues them', async () => {
    const id = await createProfile();
    await merge(id, { DefaultLocale: 'de-de' });
    // Redis forgets every job of this app (a flush, a failover without persistence).
    const queue = app.api.get<Queue>(getQueueToken(JOBS_QUEUE));
    await queue.empty();
    expect(await queue.getWaitingCount()).toBe(0);
    await markerAges(id);
    await app.startWorker();
    expect((await complete(id)).DefaultLocale).toBe('de-de');
  });

  it("inserts a profile's pending marker once while it is fresh, and the sweeper still finds every write", async () => {
    const id = await createProfile(); // its create inserted the marker
    const commands = await recordEngineCommands([app.api], async () => {
      await merge(id, { DefaultLocale: 'it-it' });
      await merge(id, { CustomerName: { FirstName: 'Second' } });
    });
    const inserts = (collection: string) =>
      commands.filter((c) => c.name === 'insert' && c.collection === collection);
    expect(inserts('profile_writes')).toHaveLength(2);
    expect(inserts('pending_profiles')).toEqual([]);
    // The jobs are lost: the marker the create left is what brings the writes back.
    await app.api.get<Queue>(getQueueToken(JOBS_QUEUE)).empty();
    await markerAges(id);
    await app.startWorker();
    const profile = await complete(id);
    expect(profile.DefaultLocale).toBe('it-it');
    expect(profile.CustomerName.FirstName).toBe('Second');
  });

  /** The payloads of the apply jobs waiting: in the fair queue, or delayed in Bull. */
  async function queuedJobs(): Promise<{ profileId: number }[]> {
    const waiting = await app.api.get(TenantFairQueue).waiting();
    const delayed = await app.api.get<Queue>(getQueueToken(JOBS_QUEUE)).getDelayed();
    const items = [
      ...waiting,
      ...delayed.flatMap((job) => (job.data as { item?: FairItem }).item ?? []),
    ];
    return items.map((item) => item.payload as { profileId: number });
  }
});

// An api of its own, started once the first one is closed (one live api per file).
describe('Queued profile writes: the wait bound of DELETE', () => {
  it('answers a delete with 202 when the worker does not apply it in time, and applies it later', async () => {
    const quick = await startTestApp({ workers: 0, env: { SYNC_WRITE_TIMEOUT_MS: '200' } });
    try {
      const other = await createTestTenant(quick);
      await configureTestTenant(quick, other);
      const otherAuth = await other.bearer();
      const created = await request(quick.http)
        .post(`/Profiles/v4/${other.clientId}/Profile`)
        .set('Authorization', otherAuth)
        .send({ CustomerType: 'Customer' })
        .expect(202);
      const path = `/Profiles/v4/${other.clientId}/Profile/${created.body.ProfileId}`;
      await request(quick.http).delete(path).set('Authorization', otherAuth).expect(202);
      await quick.startWorker();
      await eventually(async () =>
        (await request(quick.http).get(path).set('Authorization', otherAuth)).status === 404
          ? true
          : undefined,
      );
    } finally {
      await quick.close();
    }
  });
});
