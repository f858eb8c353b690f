import request from 'supertest';
import { LeaseService, RedisService } from '@app/shared';
import { profileLeaseKey, readModelKey } from '../../libs/profiles/src/keys';
import { ProfileReadModel } from '../../libs/profiles/src/read/profile-read-model.service';
import { ProfileRepository } from '../../libs/profiles/src/persistence/profile.repository';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * Redis restarted empty (issue 41): the engine's records of accepted writes decide the
 * UpdateStatus, never what Redis still holds, and the writes whose jobs Redis lost are
 * applied once the worker notices the loss, not after STALE_WRITE_MS (here ten minutes, so
 * only the recovery after the loss can bring them back within the test).
 */
describe('Redis lost its data', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 0,
      env: { STALE_WRITE_MS: '600000', SWEEP_INTERVAL_MS: '600000' },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    redis = app.api.get(RedisService);
  });
  afterAll(() => app.close());
  afterEach(async () => {
    for (const worker of [...app.workers]) await app.stopWorker(worker);
  });

  /** Every key of this app's prefix deleted: Redis restarted with no data. */
  async function redisLosesItsData(): Promise<void> {
    const keys = await redis.client.keys(`${app.settings.queuePrefix}:*`);
    if (keys.length) await redis.client.del(...keys);
  }

  const get = (id: number) => request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
  const merge = (id: number, body: object) =>
    request(app.http).post(`${base()}/${id}`).set('Authorization', auth).send(body).expect(202);

  async function createProfile(email: string): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', Emails: [{ EmailAddress: email }] })
      .expect(202);
    return res.body.ProfileId;
  }

  /**
   * Polls GET until it answers Complete; every Complete seen must hold `lastName` (the
   * last accepted write): a Complete before it would be a lie.
   */
  function completeWith(id: number, lastName: string | undefined) {
    return eventually(async () => {
      const res = await get(id).expect(200);
      if (res.body.UpdateStatus !== 'Complete') return undefined;
      expect(res.body.CustomerName?.LastName).toBe(lastName);
      return res.body;
    });
  }

  it('answers Pending Update, not Complete, when the entry the worker published after the loss knows no accepted write', async () => {
    const id = await createProfile('entry@example.com');
    await app.startWorker();
    await completeWith(id, undefined);
    await app.stopWorker(app.workers[0]);
    for (let n = 1; n <= 4; n++) await merge(id, { CustomerName: { LastName: `w${n}` } });
    expect((await get(id)).body.UpdateStatus).toBe('Pending Update');

    await redisLosesItsData();
    // What a worker that was saving when Redis came back empty publishes: the profile as it
    // applied it, into an entry that no longer counts the writes accepted before.
    const stored = await app.api.get(ProfileRepository).findOne(tenant.clientId, id);
    await app.api.get(ProfileReadModel).publish(stored!);

    expect((await get(id).expect(200)).body.UpdateStatus).toBe('Pending Update');
    const found = await request(app.http)
      .get(`${base()}/Email`)
      .query({ emailAddress: 'entry@example.com' })
      .set('Authorization', auth)
      .expect(200);
    expect(found.body.map((p: { UpdateStatus: string }) => p.UpdateStatus)).toEqual([
      'Pending Update',
    ]);
    const updates = await request(app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    expect(
      updates.body.Updates.filter((u: { Status: string }) => u.Status === 'Pending Update').length,
    ).toBe(4);
    // The rebuilt entry records the last accepted write: the next GET needs no rebuild.
    expect(await redis.client.hget(readModelKey(redis, tenant.clientId, id), 'acc')).toBe(
      String(stored!.appliedSeq + 4),
    );

    await app.startWorker();
    await completeWith(id, 'w4');
  });

  it('applies the writes whose jobs Redis lost once the worker notices the loss, and never calls them Complete before', async () => {
    const ids = [
      await createProfile('a@example.com'),
      await createProfile('b@example.com'),
      await createProfile('c@example.com'),
    ];
    await app.startWorker();
    for (const id of ids) await completeWith(id, undefined);
    // The worker knows the epoch before the loss (it wrote or read it at its start).
    await eventually(async () => ((await redis.client.get(redis.key('epoch'))) ? true : undefined));
    // The profiles' leases are taken: their jobs are put back (delayed) instead of applying.
    const leases = app.api.get(LeaseService);
    for (const id of ids) {
      expect(await leases.acquire(profileLeaseKey(tenant.clientId, id), 600000)).not.toBeNull();
    }
    for (const id of ids) {
      for (let n = 1; n <= 5; n++) await merge(id, { CustomerName: { LastName: `${id}-${n}` } });
    }
    for (const id of ids) expect((await get(id)).body.UpdateStatus).toBe('Pending Update');

    // The jobs, the flags, the read model and the leases go with Redis.
    await redisLosesItsData();
    for (const id of ids) await completeWith(id, `${id}-5`);
    expect(await redis.client.get(redis.key('epoch'))).not.toBeNull();
  });
});
