import request from 'supertest';
import { RedisService } from '@app/shared';
import { readModelKey } from '../../libs/profiles/src/keys';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * Read models follow the working set (issue 41, docs/scaling.md): each entry lives
 * READ_MODEL_TTL_SECONDS after its last publication, accepted write or dirty mark (here 2 s,
 * so that expiry happens within the test), and a GET after that rebuilds it from the engine
 * with the right data and UpdateStatus.
 */
describe('Read models expire and are rebuilt', () => {
  const TTL_MS = 2000;
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const entryKey = (id: number) => readModelKey(redis, tenant.clientId, id);
  const get = (id: number) => request(app.http).get(`${base()}/${id}`).set('Authorization', auth);

  beforeAll(async () => {
    app = await startTestApp({
      env: { READ_MODEL_TTL_SECONDS: String(TTL_MS / 1000) },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    redis = app.api.get(RedisService);
  });
  afterAll(() => app.close());

  async function createdProfile(lastName: string): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { LastName: lastName },
        Emails: [{ EmailAddress: `${lastName}@example.com` }],
      })
      .expect(202);
    const id = res.body.ProfileId as number;
    await eventually(async () =>
      (await get(id).expect(200)).body.UpdateStatus === 'Complete' ? true : undefined,
    );
    return id;
  }
  const expired = (id: number) =>
    eventually(async () => ((await redis.client.exists(entryKey(id))) === 0 ? true : undefined));

  it('a published entry carries the time to live, and a GET after it expired rebuilds it from the engine', async () => {
    const id = await createdProfile('Expiring');
    const ttl = await redis.client.pttl(entryKey(id));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(TTL_MS);

    await expired(id);
    const res = await get(id).expect(200);
    expect(res.body).toMatchObject({
      ProfileId: id,
      UpdateStatus: 'Complete',
      CustomerName: { LastName: 'Expiring' },
    });
    // Rebuilt, with its time to live again.
    expect(await redis.client.hget(entryKey(id), 'acc')).not.toBeNull();
    const again = await redis.client.pttl(entryKey(id));
    expect(again).toBeGreaterThan(0);
    expect(again).toBeLessThanOrEqual(TTL_MS);
  });

  it('an entry that expired while a write was pending answers Pending Update, then Complete with that write', async () => {
    const id = await createdProfile('Before');
    for (const worker of [...app.workers]) await app.stopWorker(worker);
    try {
      await request(app.http)
        .post(`${base()}/${id}`)
        .set('Authorization', auth)
        .send({ CustomerName: { LastName: 'After' } })
        .expect(202);
      // The accepted write renewed the entry's time to live.
      expect(await redis.client.pttl(entryKey(id))).toBeGreaterThan(0);
      await expired(id);
      const pending = await get(id).expect(200);
      expect(pending.body.UpdateStatus).toBe('Pending Update');
      expect(pending.body.CustomerName.LastName).toBe('Before');
    } finally {
      await app.startWorker();
    }
    const done = await eventually(async () => {
      const res = await get(id).expect(200);
      return res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
    expect(done.CustomerName.LastName).toBe('After');
  });
});
