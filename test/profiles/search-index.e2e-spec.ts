import { CommandBus } from '@nestjs/cqrs';
import request from 'supertest';
import { RedisService } from '@app/shared';
import { RebuildSearchKeyIndexCommand } from '../../libs/profiles/src/read/search/rebuild-search-key-index/rebuild-search-key-index.command';
import type { Profile } from '../../libs/profiles/src/domain/profile.schema';
import { ProfileKeyIndex } from '../../libs/profiles/src/read/search/profile-key-index.service';
import { configureTestTenant } from '../harness/configuration';
import { describeCommand, recordEngineCommands } from '../harness/engine-commands';
import { createTestTenant, type TestTenant } from '../harness/session';
import { deleteRedisKeys } from '../harness/redis-keys';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * Exact-match searches read their candidates from the search key index (Redis sets kept by
 * the worker), not by reading every profile; the index is a superset checked in code, and
 * it is rebuilt from the profiles when Redis lost it. A key's set past SEARCH_INDEX_SET_SPLIT
 * ids is split into parts by id range (key-set-encoding.ts): 4 here, so a few profiles do it.
 */
describe('Searches through the search key index', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let redis: RedisService;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const indexKey = (key: string) => redis.tagged('kx', `${tenant.clientId}:${key}`);
  const SPLIT = 4;

  /** A split key's range flag (-s) and its parts' numbers; null for a set of plain ids. */
  async function layout(key: string): Promise<{ shift: number; parts: number[] } | null> {
    const members = (await redis.client.smembers(key)).map(Number);
    const flag = members.find((member) => member < 0);
    if (flag === undefined) return null;
    return { shift: -flag, parts: members.filter((member) => member >= 0) };
  }

  /** How many ids each part of a split key holds. */
  async function partSizes(key: string): Promise<number[]> {
    const split = await layout(key);
    return Promise.all((split?.parts ?? []).map((hi) => redis.client.scard(`${key}:${hi}`)));
  }

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
    app = await startTestApp({
      env: { MONITOR_ENGINE_COMMANDS: 'true', SEARCH_INDEX_SET_SPLIT: String(SPLIT) },
    });
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

  it('keeps a large key split by id range, every part small, and reads every id back', async () => {
    const index = app.api.get(ProfileKeyIndex);
    // A client of its own with no profiles: only the index is written and read.
    const clientId = `${tenant.clientId}-enc`;
    const key = redis.tagged('kx', `${clientId}:tag:crowd`);
    const holder = (profileId: number, tags: string[]) =>
      ({
        clientId,
        profileId,
        state: 'active',
        data: { ProfileTags: tags.map((Name) => ({ Name })) },
      }) as Pick<Profile, 'clientId' | 'profileId' | 'state' | 'data'> as Profile;
    const add = (ids: number[]) => index.addAll(ids.map((id) => holder(id, ['crowd'])));
    const found = () => index.candidates(clientId, [['tag:crowd']]);

    // Up to the limit: the ids themselves.
    await add([5, 6, 7]);
    expect(await layout(key)).toBeNull();
    expect((await redis.client.smembers(key)).map(Number).sort((a, b) => a - b)).toEqual([5, 6, 7]);

    // Past it: parts by id range, none past the limit, every id read back.
    const sparse = [8, 9, 40, 41, 300, 1000, 70000];
    await add(sparse);
    const split = await layout(key);
    expect(split?.parts.length).toBeGreaterThan(1);
    expect(Math.max(...(await partSizes(key)))).toBeLessThanOrEqual(SPLIT);
    expect(await found()).toEqual([5, 6, 7, ...sparse]);

    // Denser later: a part past the limit splits the key again in smaller ranges.
    const dense = Array.from({ length: 60 }, (_, n) => 100 + n);
    for (const id of dense) await add([id]);
    expect((await layout(key))!.shift).toBeLessThan(split!.shift);
    expect(Math.max(...(await partSizes(key)))).toBeLessThanOrEqual(SPLIT);
    const all = [5, 6, 7, 8, 9, 40, 41, ...dense, 300, 1000, 70000];
    expect(await found()).toEqual(all);

    // With other keys: a plain set and the split one, in every group (AND) or any (OR).
    await index.addAll([4, 9, 130, 70000, 70001].map((id) => holder(id, ['few'])));
    expect(await layout(redis.tagged('kx', `${clientId}:tag:few`))).not.toBeNull();
    await index.addAll([130, 131, 200].map((id) => holder(id, ['pair'])));
    expect(await index.candidates(clientId, [['tag:crowd'], ['tag:few']])).toEqual([9, 130, 70000]);
    expect(await index.candidates(clientId, [['tag:pair'], ['tag:crowd'], ['tag:few']])).toEqual([
      130,
    ]);
    expect(await index.candidates(clientId, [['tag:crowd'], ['tag:pair', 'tag:few']])).toEqual([
      9, 130, 131, 70000,
    ]);
    expect(await index.candidates(clientId, [['tag:crowd'], ['tag:none']])).toEqual([]);
    // Two plain sets: the smaller read, the other asked which of its ids it holds.
    await index.addAll([131, 999].map((id) => holder(id, ['duo'])));
    expect(await index.candidates(clientId, [['tag:pair'], ['tag:duo']])).toEqual([131]);
    expect(await index.candidates(clientId, [['tag:duo'], ['tag:crowd']])).toEqual([131]);
    expect(await index.candidates(clientId, [['tag:pair', 'tag:few']])).toEqual([
      4, 9, 130, 131, 200, 70000, 70001,
    ]);
    for (const [id, tag] of [
      ...[4, 9, 130, 70000, 70001].map((id) => [id, 'few'] as const),
      ...[130, 131, 200].map((id) => [id, 'pair'] as const),
      ...[131, 999].map((id) => [id, 'duo'] as const),
    ]) {
      await index.afterSave(holder(id, [tag]), holder(id, []));
    }

    // Removed ids are gone; an emptied part leaves its base, the last one the key.
    await index.afterSave(holder(70000, ['crowd']), holder(70000, []));
    expect(await found()).toEqual(all.filter((id) => id !== 70000));
    const hi = Math.floor(70000 / 2 ** (await layout(key))!.shift);
    expect((await layout(key))!.parts).not.toContain(hi);
    expect(await redis.client.exists(`${key}:${hi}`)).toBe(0);
    for (const id of all.filter((id) => id !== 70000)) {
      await index.afterSave(holder(id, ['crowd']), holder(id, []));
    }
    expect(await found()).toEqual([]);
    expect(await redis.client.exists(key)).toBe(0);

    // A set of the encoding before (plain ids past the limit) is read, and split when added to.
    const old = redis.tagged('kx', `${clientId}:tag:old`);
    await redis.client.sadd(old, 1, 2, 3, 4, 5, 6, 7, 8);
    expect(await index.candidates(clientId, [['tag:old']])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await index.addAll([holder(9, ['old'])]);
    expect(await layout(old)).not.toBeNull();
    expect(await index.candidates(clientId, [['tag:old']])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('searches find every profile of a key split in parts, and none that left it', async () => {
    const ids = await Promise.all(
      Array.from({ length: 3 * SPLIT }, (_, n) =>
        write(base(), {
          CustomerType: 'Customer',
          CustomerName: { FirstName: `Member${n}`, LastName: 'Crowdson' },
          Emails: [{ EmailAddress: `crowd${n}@example.com` }],
          ProfileTags: [{ Name: 'crowd' }],
        }),
      ),
    );
    const sorted = [...ids].sort((a, b) => a - b);
    const search = async (query: string) =>
      (
        await request(app.http).get(`${base()}/${query}`).set('Authorization', auth).expect(200)
      ).body
        .map((profile: { ProfileId: number }) => profile.ProfileId)
        .sort((a: number, b: number) => a - b);
    // The keys are split, in more than one part each.
    for (const key of ['tag:crowd', 'last:crowdson', 'last~row']) {
      expect((await layout(indexKey(key)))?.parts.length).toBeGreaterThan(1);
    }
    expect(await search('Tags?tags[0]=crowd')).toEqual(sorted);
    expect(await search('Name?lastName=Crowdson')).toEqual(sorted);
    expect(await search('PartialName?lastName=rowds')).toEqual(sorted);

    // One leaves the tag: the others are still found, it no longer.
    const [gone, ...rest] = sorted;
    await request(app.http)
      .put(`${base()}/${gone}`)
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { FirstName: 'Member', LastName: 'Crowdson' },
        Emails: [{ EmailAddress: `gone@example.com` }],
      })
      .expect(202);
    await eventually(async () =>
      (await search('Tags?tags[0]=crowd')).includes(gone) ? undefined : true,
    );
    expect(await search('Tags?tags[0]=crowd')).toEqual(rest);
  });
});
