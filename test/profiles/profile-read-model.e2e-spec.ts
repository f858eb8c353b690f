import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Profile } from '../../libs/profiles/src/domain/profile.schema';
import { RedisService } from '@app/shared';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { fullProfileBodyOn } from '../harness/profile-fixtures';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * GET reads the profile read model in Redis: the worker publishes each
 * saved profile; a lost entry is rebuilt from the database, never served stale; a delete
 * is a 404 at once.
 */
describe('The profile read model', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  let programs: TestPrograms;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const entryKey = (id: number) => redis.tagged('pm', `${tenant.clientId}|${id}`);
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
    ({ programs } = await configureTestTenant(app, tenant));
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

  it('the worker stores a profile in the shape the schema gives it, and publishes the same', async () => {
    // The worker saves through the driver (no mongoose cast): what it stores must be what
    // the schema's cast would store, and what a rebuilt read-model entry then shows.
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send(fullProfileBodyOn(programs))
      .expect(202);
    const id: number = res.body.ProfileId;
    await complete(id);
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomFields: [{ Name: 'Tier', Value: 'silver' }] })
      .expect(202);
    await complete(id);

    const model = app.workers[0].get<Model<Profile>>(getModelToken(Profile.name));
    const stored = await model.collection.findOne({ _id: `${tenant.clientId}|${id}` } as object);
    const cast = new model(stored).toObject({ versionKey: false });
    expect(canonical(stored)).toEqual(canonical(cast));
    const published = JSON.parse((await redis.client.hget(entryKey(id), 'doc'))!);
    expect(canonical(published.d)).toEqual(canonical(stored!.data));
    expect(stored!.data.CustomFields.map((f: { Value: string }) => f.Value)).toContain('silver');
  });
});

/** JSON with dates as ISO text, keys sorted and undefined members left out. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, member]) => member !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, member]) => [key, canonical(member)]),
    );
  }
  return value;
}
