import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import { RedisService } from '@app/shared';
import { RebuildSearchKeyIndexCommand } from '../../libs/profiles/src/commands/rebuild-search-key-index/rebuild-search-key-index.command';
import { configureTestTenant } from '../harness/configuration';
import { describeCommand, recordEngineCommands } from '../harness/engine-commands';
import { createTestTenant, type TestTenant } from '../harness/session';
import { deleteRedisKeys } from '../harness/redis-keys';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * Exact-match searches read their candidates from the search key index (Redis sets kept by
 * the worker), not by reading every profile; the index is a superset checked in code, and
 * it is rebuilt from the profiles when Redis lost it.
 */
describe('Searches through the search key index', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const indexKey = (key: string) => redis.tagged('kx', `${tenant.clientId}:${key}`);

  async function write(path: string, body: object): Promise<number> {
    const res = await request(app.http)
      .post(path)
      .set('Authorization', auth)
      .send(body)
      .expect(202);
    const id = res.body.ProfileId as number;
    await eventually(async () => {
      const got = await request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
      return got.body.UpdateStatus === 'Complete' ? got : undefined;
    });
    return id;
  }

  const byEmail = async (email: string) =>
    (
      await request(app.http)
        .get(`${base()}/Email`)
        .query({ emailAddress: email })
        .set('Authorization', auth)
        .expect(200)
    ).body.map((profile: { ProfileId: number }) => profile.ProfileId);

  beforeAll(async () => {
    app = await startTestApp({ env: { MONITOR_ENGINE_COMMANDS: 'true' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    redis = app.api.get(RedisService);
    await eventually(async () =>
      (await redis.client.exists(redis.key('kx', 'built'))) ? true : undefined,
    );
  });
  afterAll(() => app.close());

  it('finds a profile once its write is Complete, without reading profiles by any other filter', async () => {
    const id = await write(base(), {
      CustomerType: 'Customer',
      Emails: [{ EmailAddress: 'Kim@Example.com' }],
    });
    const commands = await recordEngineCommands([app.api], async () => {
      expect(await byEmail('kim@example.COM')).toEqual([id]);
    });
    expect(commands.map(describeCommand)).toEqual([]);
  });

  it('a changed email leaves the old key, and a stale member is never returned', async () => {
    const id = await write(base(), {
      CustomerType: 'Customer',
      Emails: [{ EmailAddress: 'old@example.com' }],
    });
    expect(await byEmail('old@example.com')).toEqual([id]);
    const put = await request(app.http)
      .put(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', Emails: [{ EmailAddress: 'new@example.com' }] })
      .expect(202);
    expect(put.body.ProfileId).toBe(id);
    await eventually(async () => ((await byEmail('new@example.com')).length ? true : undefined));
    expect(await byEmail('old@example.com')).toEqual([]);
    expect(await redis.client.sismember(indexKey('email:old@example.com'), id)).toBe(0);

    // A member left behind (a crash between a save and its removal) is checked and dropped.
    await redis.client.sadd(indexKey('email:new@example.com'), 999999);
    await redis.client.sadd(indexKey('email:old@example.com'), id);
    expect(await byEmail('new@example.com')).toEqual([id]);
    expect(await byEmail('old@example.com')).toEqual([]);
  });

  it('answers from the database while the index is lost, and rebuilds it', async () => {
    const id = await write(base(), {
      CustomerType: 'Customer',
      Emails: [{ EmailAddress: 'lost@example.com' }],
      ProfileTags: [{ Name: 'rebuilt' }],
    });
    await deleteRedisKeys(redis, redis.key('kx', '*'));
    expect(await byEmail('lost@example.com')).toEqual([id]);

    await app.workers[0].get(CommandBus).execute(new RebuildSearchKeyIndexCommand());
    // The worker's own periodic run may hold the partition and finish it (the command then
    // leaves it to that run): either way the index is marked built.
    await eventually(async () =>
      (await redis.client.exists(redis.key('kx', 'built'))) === 1 ? true : undefined,
    );
    expect(await redis.client.sismember(indexKey('email:lost@example.com'), id)).toBe(1);
    expect(await redis.client.sismember(indexKey('tag:rebuilt'), id)).toBe(1);
    const commands = await recordEngineCommands([app.api], async () => {
      expect(await byEmail('lost@example.com')).toEqual([id]);
    });
    expect(commands.filter((c) => c.collection === 'profiles').map(describeCommand)).toEqual([]);
  });
});
