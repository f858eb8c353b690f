import request from 'supertest';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { TenantAdminService } from '@app/auth';
import { APPLY_PROFILE_WRITES } from '@app/profiles';
import { CRASH_POINTS, CrashPoints, JobQueue, leaseKey, RedisService } from '@app/shared';
import { configureTestTenant, type TestPrograms, testPreference } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { deleteRedisKeys } from '../harness/redis-keys';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';
import { runLeaseName } from '../../libs/bulk/src/keys';
import { countsSettle, liveCounts, recount, reportKey } from './report-helpers';

type Json = Record<string, any>;

/*
 * The reports (docs/reports.md) against the real engine, Redis and worker: counts kept by
 * the apply step equal a recount of the stored profiles after writes, crashes, deletes,
 * erasures and rebuilds; the routes answer them named and narrowed; a rebuild restores
 * them from the profiles while writes go on.
 */
describe('Reports', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let auth: string;
  let profiles: ReturnType<typeof profileClient>;
  const v4 = () => `/Profiles/v4/${tenant.clientId}`;
  const report = (path: string, authorization = auth) =>
    request(app.http).get(`${v4()}/Reports/${path}`).set('Authorization', authorization);
  const merge = async (id: number, body: Json) =>
    request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send(body)
      .expect(202);

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    profiles = profileClient(app, tenant);
  });
  afterAll(() => app.close());
  afterEach(async () => {
    for (const nest of [app.api, ...app.workers]) nest.get(CrashPoints).disarmAll();
    if (!app.workers.length) await app.startWorker();
  });

  /** A customer with a granted and a denied consent and an email opt-in. */
  async function customer(email: string, customerType = 'Customer'): Promise<number> {
    const id = await profiles.create({
      CustomerType: customerType,
      Consents: [
        { ConsentType: 'Terms', ConsentStatus: 1 },
        { ConsentType: 'Marketing', ConsentStatus: 2 },
      ],
      Emails: [
        {
          EmailAddress: email,
          EmailPreferences: [testPreference(programs.newsletter.email)],
          Consents: [{ ConsentType: 'Email', ConsentStatus: 1 }],
        },
      ],
    });
    await profiles.complete(id);
    return id;
  }

  it('counts what the writes leave, and answers it named and narrowed, as JSON and CSV', async () => {
    const first = await customer('first@example.com');
    await customer('second@example.com', 'Prospect');
    await merge(first, { Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] });
    await profiles.complete(first);
    await countsSettle(app, tenant.clientId);

    const counts = (await report('Counts').expect(200)).body;
    expect(counts.Status).toBe('Current');
    expect(counts.Drift).toBe(0);
    expect(counts.Profiles).toEqual([
      { CustomerType: 'Customer', Active: 1, Inactive: 0 },
      { CustomerType: 'Prospect', Active: 1, Inactive: 0 },
    ]);
    const terms = counts.Consents.filter((row: Json) => row.ConsentType === 'Terms');
    expect(terms.map((row: Json) => [row.Level, row.Status, row.Count])).toEqual([
      ['Profile', 'Granted', 1],
      ['Profile', 'Revoked', 1],
    ]);
    expect(counts.Consents).toContainEqual({
      ConsentType: 'Email',
      Level: 'Email',
      ConsentVersion: '1.0',
      Status: 'Granted',
      Count: 2,
    });
    expect(counts.Preferences).toEqual([
      expect.objectContaining({
        ProgramId: programs.newsletter.email.ProgramId,
        ProgramName: 'Newsletter',
        FilterName: 'News by email',
        ChannelId: 'Email',
        PreferenceType: 'OptIn',
        Status: 'Active',
        MatchType: 'Expressed',
        Count: 2,
      }),
    ]);

    const prospects = (await report('Counts?customerType=prospect').expect(200)).body;
    expect(prospects.Profiles).toEqual([{ CustomerType: 'Prospect', Active: 1, Inactive: 0 }]);
    expect(prospects.Consents.find((row: Json) => row.ConsentType === 'Terms').Status).toBe(
      'Granted',
    );
    const marketing = (await report('Counts?consentType=MARKETING').expect(200)).body;
    expect(marketing.Consents.map((row: Json) => [row.Status, row.Count])).toEqual([['Denied', 2]]);
    expect((await report('Counts?channel=sms').expect(200)).body.Preferences).toEqual([]);
    expect(
      (await report(`Counts?programId=${programs.offers.email.ProgramId}`).expect(200)).body
        .Preferences,
    ).toEqual([]);

    const today = new Date().toISOString().slice(0, 10);
    const daily = (await report(`Daily?from=${today}&to=${today}`).expect(200)).body;
    expect(daily.Days).toEqual([
      expect.objectContaining({
        Date: today,
        ProfilesCreated: 2,
        Grants: 4,
        Denials: 2,
        Revocations: 1,
        OptIns: 2,
      }),
    ]);
    const series = (await report('Daily').expect(200)).body;
    expect(series.Days).toHaveLength(30);
    expect(series.To).toBe(today);

    const csv = await report(`Daily/Csv?from=${today}&to=${today}`).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename=".*\.csv"$/);
    expect(csv.text.split('\r\n')[0]).toMatch(/^Date,Grants,Denials,Revocations,/);
    expect(csv.text.split('\r\n')[1]).toMatch(new RegExp(`^${today},4,2,1,`));
    const countsCsv = await report('Counts/Csv').expect(200);
    expect(countsCsv.text).toContain('Consents,,Terms,Profile,1.0,,,,,,,,,Revoked,1');
  });

  it('refuses bad ranges and parameters (400), and callers without the reports area (403)', async () => {
    expect((await report('Daily?from=2026-01-10&to=2026-01-01').expect(400)).body.Message).toMatch(
      /must not be after/,
    );
    expect((await report('Daily?from=2025-01-01&to=2026-12-31').expect(400)).body.Message).toMatch(
      /at most 400/,
    );
    await report('Daily?from=2026-02-30').expect(400);
    await report('Counts?colour=blue').expect(400);
    // A blank filter reads as absent (as every text parameter does); an overlong one is refused.
    expect((await report('Counts?consentType=%20&channel=').expect(200)).body).toEqual(
      (await report('Counts').expect(200)).body,
    );
    expect(
      (await report(`Counts?customerType=${'x'.repeat(257)}`).expect(400)).body.Message,
    ).toMatch(/customerType .* at most 256 characters/);
    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(tenant.clientId, 'Desk', [{ area: 'profiles', access: 'write' }]);
    await admin.defineUserGroup(tenant.clientId, 'Analysts', [{ area: 'reports', access: 'read' }]);
    await admin.addUser({ clientId: tenant.clientId, userId: 'desk', group: 'Desk' });
    await admin.addUser({ clientId: tenant.clientId, userId: 'analyst', group: 'Analysts' });
    await report('Counts', tenant.signed({ userId: 'desk' })).expect(403);
    await report('Counts', tenant.signed({ userId: 'analyst' })).expect(200);
  });

  /** Kills the worker right after it saved a merge of `id`, before anything after the save. */
  async function dieAfterSave(id: number, body: Json): Promise<void> {
    const [worker] = app.workers;
    const reached = worker.get(CrashPoints).arm(CRASH_POINTS.applyAfterSave);
    await merge(id, body);
    await reached;
    await app.killWorker(worker);
    // The profile is saved with the pass's change on it; the counts do not hold it yet.
    const db = app.api.get<Connection>(getConnectionToken());
    const stored = await db
      .collection('profiles')
      .findOne({ _id: `${tenant.clientId}|${id}` } as object);
    expect(stored?.countDeltas?.length).toBeGreaterThan(0);
    expect(await liveCounts(app, tenant.clientId)).not.toEqual(await recount(app, tenant.clientId));
    // The dead worker's lease lapses (here at once) and a new worker starts.
    await app.api
      .get(RedisService)
      .client.del(leaseKey(app.settings.queuePrefix, `profile:${tenant.clientId}|${id}`));
    await app.startWorker();
  }

  it('a worker dying after the save, before the count: the retried job counts it once (heal path)', async () => {
    const id = await customer('crash@example.com');
    await countsSettle(app, tenant.clientId);
    await dieAfterSave(id, { Consents: [{ ConsentType: 'Marketing', ConsentStatus: 1 }] });
    // What Bull runs once the dead worker's lock lapses: the profile's job, with nothing
    // left to apply, whose heal path counts the stored change.
    await app.api
      .get(JobQueue)
      .enqueue(APPLY_PROFILE_WRITES, { clientId: tenant.clientId, profileId: id });
    await countsSettle(app, tenant.clientId);
    // Bull's own retry of the dead job, later, counts nothing again (the marks say so).
    await merge(id, { Consents: [{ ConsentType: 'Marketing', ConsentStatus: 3 }] });
    await profiles.complete(id);
    await countsSettle(app, tenant.clientId);
  });

  it('a worker dying after the save, before the count: the next write carries the change, counted once', async () => {
    const id = await customer('crash-next@example.com');
    await countsSettle(app, tenant.clientId);
    await dieAfterSave(id, { Consents: [{ ConsentType: 'Marketing', ConsentStatus: 1 }] });
    await merge(id, {
      Emails: [
        {
          EmailAddress: 'crash-next@example.com',
          Consents: [{ ConsentType: 'Email', ConsentStatus: 3 }],
        },
      ],
    });
    await profiles.complete(id);
    await countsSettle(app, tenant.clientId);
  });

  it('counts that fail after the save are counted by a job of their own, once', async () => {
    const id = await customer('count-fails@example.com');
    await countsSettle(app, tenant.clientId);
    const redis = app.api.get(RedisService).client;
    const meta = reportKey(app, tenant.clientId, 'meta');
    const seen = reportKey(app, tenant.clientId, 'seen');
    const kept = await redis.hgetall(meta);
    // The counting script fails (WRONGTYPE on its first command) until the hash is back.
    await redis.del(meta);
    await redis.set(meta, 'broken');
    await merge(id, { Consents: [{ ConsentType: 'Marketing', ConsentStatus: 1 }] });
    await profiles.complete(id);
    const stored = await app.api
      .get<Connection>(getConnectionToken())
      .collection('profiles')
      .findOne({ _id: `${tenant.clientId}|${id}` } as object);
    // Saved with its change, not counted; no write of the profile follows.
    expect(stored?.countDeltas?.at(-1)?.to).toBe(stored?.appliedSeq);
    expect(Number(await redis.hget(seen, String(id)))).toBeLessThan(stored?.appliedSeq);
    await redis.del(meta);
    await redis.hset(meta, kept);
    await countsSettle(app, tenant.clientId);
    await eventually(async () =>
      Number(await redis.hget(seen, String(id))) === stored?.appliedSeq ? true : undefined,
    );
  });

  it('a delete and an erasure take the profile out of the counts; the tombstone keeps no counts', async () => {
    const deleted = await customer('deleted@example.com');
    const erased = await customer('erased@example.com');
    await request(app.http).delete(`${v4()}/Profile/${deleted}`).set('Authorization', auth);
    await request(app.http)
      .post(`${v4()}/Profile/${erased}/Erasure`)
      .set('Authorization', auth)
      .send({ ReasonCode: 'GDPR-ART17' })
      .expect(202);
    const db = app.api.get<Connection>(getConnectionToken());
    const tombstone = (id: number) =>
      db.collection('profiles').findOne({ _id: `${tenant.clientId}|${id}` } as object);
    await eventually(async () =>
      (await tombstone(erased))?.state === 'deleted' ? true : undefined,
    );
    await eventually(async () =>
      (await tombstone(deleted))?.state === 'deleted' ? true : undefined,
    );
    expect((await tombstone(erased))?.countDeltas).toBeUndefined();
    expect((await tombstone(deleted))?.countDeltas).toBeUndefined();
    await countsSettle(app, tenant.clientId);
    const today = new Date().toISOString().slice(0, 10);
    const day = (await report(`Daily?from=${today}&to=${today}`).expect(200)).body.Days[0];
    expect(day.ProfilesDeleted).toBe(1);
    expect(day.ProfilesErased).toBe(1);
  });

  it('a profile merge is its own kind: the absorbed profile merged, its consents and preferences moved, not granted anew', async () => {
    // A tenant of its own: the day's series counts only this test's writes.
    const own = await createTestTenant(app);
    const { programs: ownPrograms } = await configureTestTenant(app, own);
    const ownAuth = await own.bearer();
    const ownProfiles = profileClient(app, own);
    const people: number[] = [];
    for (const email of ['ann@example.com', 'ben@example.com', 'cat@example.com'])
      people.push(
        await ownProfiles.create({
          Consents: [
            { ConsentType: 'Terms', ConsentStatus: 1 },
            { ConsentType: 'Marketing', ConsentStatus: 2 },
          ],
          Emails: [
            {
              EmailAddress: email,
              EmailPreferences: [testPreference(ownPrograms.newsletter.email)],
            },
          ],
        }),
      );
    const survivor = await ownProfiles.create({
      Emails: [{ EmailAddress: 'cat.work@example.com' }],
    });
    for (const id of [...people, survivor]) await ownProfiles.complete(id);
    await request(app.http)
      .post(`/Profiles/v4/${own.clientId}/Profile/${survivor}/Merge`)
      .set('Authorization', ownAuth)
      .send({ AbsorbedProfileId: people[2], ReasonCode: 'DUPLICATE' })
      .expect(202);
    await eventually(async () => {
      const res = await request(app.http)
        .get(`/Profiles/v4/${own.clientId}/Profile/${people[2]}`)
        .set('Authorization', ownAuth);
      return res.status === 404 ? true : undefined;
    });
    await ownProfiles.complete(survivor);

    const counts = await countsSettle(app, own.clientId);
    const profilesNow = Object.entries(counts)
      .filter(([key]) => key.startsWith('p|'))
      .reduce((sum, [, n]) => sum + n, 0);
    expect(profilesNow).toBe(3);
    const today = new Date().toISOString().slice(0, 10);
    const day = (
      await request(app.http)
        .get(`/Profiles/v4/${own.clientId}/Reports/Daily?from=${today}&to=${today}`)
        .set('Authorization', ownAuth)
        .expect(200)
    ).body.Days[0];
    // Three people granted Terms and denied Marketing, once each; the merge moved the third
    // one's two consents and opt-in to the survivor, which had none.
    expect(day).toMatchObject({
      Grants: 3,
      Denials: 3,
      OptIns: 3,
      ConsentsMoved: 2,
      PreferencesMoved: 1,
      ProfilesCreated: 4,
      ProfilesMerged: 1,
      ProfilesDeleted: 0,
    });
    expect(
      day.ProfilesCreated - day.ProfilesDeleted - day.ProfilesErased - day.ProfilesMerged,
    ).toBe(profilesNow);
  });

  it("an import's new profiles are counted once, those a resumed run creates under a dead worker's saved ids too", async () => {
    await countsSettle(app, tenant.clientId);
    const today = new Date().toISOString().slice(0, 10);
    const createdToday = async () =>
      (await report(`Daily?from=${today}&to=${today}`).expect(200)).body.Days[0]
        .ProfilesCreated as number;
    const before = await createdToday();
    const imports = `${v4()}/Bulk/Import`;
    const token = (
      await request(app.http)
        .post(imports)
        .set('Authorization', auth)
        .send({ Name: 'Reports', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' })
        .expect(201)
    ).body.AccessToken as number;
    const record = (n: number) => ({
      CustomerType: 'Prospect',
      Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }],
      Emails: [{ EmailAddress: `imported${n}@example.com` }],
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: `reports-${n}` }],
    });
    // Two stages, two chunks: the worker dies once the first is applied and the second's
    // ids are saved; the next run creates the second's profiles under them (the fast path).
    for (const records of [
      [record(1), record(2)],
      [record(3), record(4)],
    ])
      await request(app.http)
        .post(`${imports}/${token}/Stage`)
        .set('Authorization', auth)
        .send(records)
        .expect(200);
    const [worker] = app.workers;
    const reached = worker.get(CrashPoints).arm(CRASH_POINTS.bulkRunAfterChunk);
    const execute = () =>
      request(app.http).post(`${imports}/${token}/Execute`).set('Authorization', auth).expect(202);
    await execute();
    await reached;
    await app.killWorker(worker);
    await app.api
      .get(RedisService)
      .client.del(leaseKey(app.settings.queuePrefix, runLeaseName(tenant.clientId, token)));
    await app.startWorker();
    await execute();
    const ended = await eventually(async () => {
      const res = await request(app.http).get(`${imports}/${token}`).set('Authorization', auth);
      return ['Completed', 'Failed'].includes(res.body.Status) ? res.body : undefined;
    });
    expect(ended).toMatchObject({ Status: 'Completed', Processed: 4 });
    await countsSettle(app, tenant.clientId);
    expect(await createdToday()).toBe(before + 4);
  });

  it('the operator rebuilds wrong counts from the profiles while writes go on', async () => {
    const ids = await Promise.all([customer('r1@example.com'), customer('r2@example.com')]);
    await countsSettle(app, tenant.clientId);
    const redis = app.api.get(RedisService).client;
    await redis.hincrby(reportKey(app, tenant.clientId, 'now'), 'p|customer|1', 40);
    await redis.hset(
      reportKey(app, tenant.clientId, 'now'),
      'c|nobody|Profile|x|1%2E0|Granted',
      '3',
    );
    const operator = `Bearer ${app.settings.operatorToken}`;
    await request(app.http)
      .post('/Profiles/v4/Reports/Rebuilds')
      .send({ ClientId: tenant.clientId })
      .expect(401);
    await request(app.http)
      .post('/Profiles/v4/Reports/Rebuilds')
      .set('Authorization', operator)
      .send({ ClientId: tenant.clientId, Colour: 1 })
      .expect(400);
    await request(app.http)
      .post('/Profiles/v4/Reports/Rebuilds')
      .set('Authorization', operator)
      .send({ ClientId: tenant.clientId, Restart: true })
      .expect(202, { ClientId: tenant.clientId, Status: 'Queued' });
    // Writes while it runs are counted in the live counts and in the rebuild's.
    for (let k = 0; k < 6; k++) {
      await merge(ids[k % 2], {
        Consents: [{ ConsentType: 'Marketing', ConsentStatus: k % 2 ? 1 : 3 }],
      }).catch(() => undefined);
    }
    await Promise.all(ids.map((id) => profiles.complete(id)));
    await countsSettle(app, tenant.clientId, 60000);
  });

  it('counts lost with Redis are rebuilt when a reader or a writer finds them missing', async () => {
    const id = await customer('lost@example.com');
    await countsSettle(app, tenant.clientId);
    await deleteRedisKeys(app.api.get(RedisService), reportKey(app, tenant.clientId, '*'));
    const first = (await report('Counts').expect(200)).body;
    expect(['NotBuilt', 'Building', 'Current']).toContain(first.Status);
    await merge(id, { Consents: [{ ConsentType: 'Marketing', ConsentStatus: 1 }] });
    await countsSettle(app, tenant.clientId, 60000);
    expect((await report('Counts').expect(200)).body.Status).toBe('Current');
  });
});
