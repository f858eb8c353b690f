import request from 'supertest';
import { RedisService } from '@app/shared';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * GET reads the profile read model in Redis (issue 9, point 2): the worker publishes each
 * saved profile; a lost entry is rebuilt from the database, never served stale; a delete
 * is a 404 at once.
 */
describe('The profile read model', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const entryKey = (id: number) => redis.key('pm', `${tenant.clientId}|${id}`);
  const get = (id: number) => request(app.http).get(`${base()}/${id}`).set('Authorization', auth);

  async function create(firstName: string): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: firstName } })
      .expect(202);
    return res.body.ProfileId;
  }

  const complete = (id: number) =>
    eventually(async () => {
      const res = await get(id);
      return res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    redis = app.api.get(RedisService);
  });
  afterAll(() => app.close());

  it('is published by the worker with every save', async () => {
    const id = await create('Ann');
    await complete(id);
    const entry = await redis.client.hgetall(entryKey(id));
    expect(Number(entry.v)).toBe(1);
    expect(JSON.parse(entry.doc).d.CustomerName.FirstName).toBe('Ann');
  });

  it('a lost entry is rebuilt from the database, pending writes included', async () => {
    const id = await create('Bob');
    await complete(id);
    const [worker] = app.workers;
    await app.stopWorker(worker);
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerName: { FirstName: 'Bobby' } })
      .expect(202);
    await redis.client.del(entryKey(id));
    const pending = (await get(id).expect(200)).body;
    expect(pending.UpdateStatus).toBe('Pending Update');
    expect(pending.CustomerName.FirstName).toBe('Bob');
    expect(await redis.client.hget(entryKey(id), 'acc')).toBe('2');

    await app.startWorker();
    await eventually(async () =>
      (await complete(id)).CustomerName.FirstName === 'Bobby' ? true : undefined,
    );
  });

  it('a deleted profile is a 404 at once', async () => {
    const id = await create('Cy');
    await complete(id);
    await request(app.http).delete(`${base()}/${id}`).set('Authorization', auth).expect(204);
    await get(id).expect(404);
    expect(JSON.parse((await redis.client.hget(entryKey(id), 'doc'))!).s).toBe('deleted');
  });
});
