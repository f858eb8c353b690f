import request from 'supertest';
import { RedisService } from '@app/shared';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, type TestTenant } from './harness/session';
import { deleteRedisKeys } from './harness/redis-keys';
import { startTestApp, type TestApp } from './harness/test-app';

describe('Idempotency-Key on writes', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  let n = 0;
  const newKey = () => `key-${Date.now()}-${++n}`;

  beforeAll(async () => {
    app = await startTestApp({ workers: 1 });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app?.close());

  const create = (key: string, body: object) =>
    request(app.http)
      .post(base())
      .set('Authorization', auth)
      .set('Idempotency-Key', key)
      .send(body);

  it('a replay with the same key and body gets the first answer, without a second profile', async () => {
    const key = newKey();
    const first = await create(key, {
      CustomerType: 'Customer',
      CustomerName: { FirstName: 'Ida' },
    });
    expect(first.status).toBe(202);
    const replay = await create(key, {
      CustomerName: { FirstName: 'Ida' },
      CustomerType: 'Customer',
    });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.location).toBe(first.headers.location);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // One profile: the next one created gets the id right after it.
    const next = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' });
    expect(next.body.ProfileId).toBe(first.body.ProfileId + 1);
    // And one write was recorded for it.
    const updates = await request(app.http)
      .get(`${base()}/${first.body.ProfileId}/Updates`)
      .set('Authorization', auth);
    expect(updates.status).toBe(200);
    expect(updates.body.Updates.map((u: { Sequence: number }) => u.Sequence)).toEqual([1]);
  });

  it('the same key with another body is 422 and changes nothing', async () => {
    const key = newKey();
    const first = await create(key, { CustomerType: 'Customer' });
    expect(first.status).toBe(202);
    const reused = await create(key, { CustomerType: 'Prospect' });
    expect(reused.status).toBe(422);
    expect(reused.body.Message).toMatch(/Idempotency-Key .* was used with another request/);
    // Nothing was queued for it: the next profile gets the id right after the first.
    const next = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' });
    expect(next.body.ProfileId).toBe(first.body.ProfileId + 1);
  });

  it('keys are per client: another client may use the same key', async () => {
    const key = newKey();
    expect((await create(key, { CustomerType: 'Customer' })).status).toBe(202);
    const other = await createTestTenant(app);
    await configureTestTenant(app, other);
    const response = await request(app.http)
      .post(`/Profiles/v4/${other.clientId}/Profile`)
      .set('Authorization', await other.bearer())
      .set('Idempotency-Key', key)
      .send({ CustomerType: 'Customer' });
    expect(response.status).toBe(202);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
  });

  it('an error answer is not kept: a retry with the same key runs again', async () => {
    const key = newKey();
    const refused = await create(key, { CustomerType: 'NoSuchType' });
    expect(refused.status).toBe(400);
    const retried = await create(key, { CustomerType: 'NoSuchType' });
    expect(retried.status).toBe(400);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it("a queued write's key is kept in the engine: Redis losing its data replays, never runs again", async () => {
    const key = newKey();
    const first = await create(key, {
      CustomerType: 'Customer',
      CustomerName: { FirstName: 'Kay' },
    });
    expect(first.status).toBe(202);
    // Redis restarted empty: every key of this app's prefix is gone.
    await deleteRedisKeys(app.api.get(RedisService), `${app.settings.queuePrefix}:*`);
    const replay = await create(key, {
      CustomerType: 'Customer',
      CustomerName: { FirstName: 'Kay' },
    });
    expect(replay.status).toBe(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    const next = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' });
    expect(next.body.ProfileId).toBe(first.body.ProfileId + 1);
  });

  it('refuses a malformed key with 400 naming it', async () => {
    const response = await create('bad key with spaces', { CustomerType: 'Customer' });
    expect(response.status).toBe(400);
    expect(response.body.Message).toBe(
      'Invalid Idempotency-Key (value "bad key with spaces"): 1 to 255 visible ASCII characters',
    );
  });
});
