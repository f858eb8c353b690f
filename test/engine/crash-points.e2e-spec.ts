import type { INestApplicationContext } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import {
  CRASH_POINTS,
  type CrashPointName,
  CrashPoints,
  leaseKey,
  RedisService,
} from '@app/shared';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * One app (no worker until a test starts one) with a configured tenant, and the requests and
 * engine reads the crash tests make. `env` adds settings to the app's.
 */
function crashSuite(env: Record<string, string> = {}) {
  const suite = {} as {
    app: TestApp;
    tenant: TestTenant;
    auth: string;
    db: Connection;
    redis: RedisService;
    programs: TestPrograms;
  };
  beforeAll(async () => {
    suite.app = await startTestApp({ workers: 0, env });
    suite.tenant = await createTestTenant(suite.app);
    ({ programs: suite.programs } = await configureTestTenant(suite.app, suite.tenant));
    suite.auth = await suite.tenant.bearer();
    suite.db = suite.app.api.get<Connection>(getConnectionToken());
    suite.redis = suite.app.api.get(RedisService);
  });
  afterAll(() => suite.app.close());

  const base = () => `/Profiles/v4/${suite.tenant.clientId}/Profile`;
  const get = (id: number) =>
    request(suite.app.http).get(`${base()}/${id}`).set('Authorization', suite.auth);
  const merge = (id: number, body: object) =>
    request(suite.app.http).post(`${base()}/${id}`).set('Authorization', suite.auth).send(body);
  const complete = (id: number, check: (profile: any) => boolean = () => true) =>
    eventually(async () => {
      const res = await get(id);
      return res.body.UpdateStatus === 'Complete' && check(res.body) ? res.body : undefined;
    });
  const firstNames = async (id: number): Promise<string[]> => {
    const res = await request(suite.app.http)
      .get(`${base()}/${id}/History/StandardFields`)
      .set('Authorization', suite.auth)
      .expect(200);
    return res.body.map((entry: any) => entry.CustomerName?.FirstName);
  };
  /** The dead worker's lease on a profile lapses (LEASE_TTL_MS): here, at once. */
  const leaseLapses = (id: number) =>
    suite.redis.client.del(
      leaseKey(suite.app.settings.queuePrefix, `profile:${suite.tenant.clientId}|${id}`),
    );
  /**
   * The profile's pending marker ages past STALE_WRITE_MS: here, at once (the sweeper, on
   * its next round, treats it as any stale marker; a worker sweeps as it starts too).
   */
  const markerAges = (id: number) =>
    suite.db
      .collection('pending_profiles')
      .updateOne({ _id: `${suite.tenant.clientId}|${id}` } as object, {
        $set: { since: new Date(0) },
      });
  async function createProfile(firstName: string): Promise<number> {
    const res = await request(suite.app.http)
      .post(base())
      .set('Authorization', suite.auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: firstName } })
      .expect(202);
    const id: number = res.body.ProfileId;
    await complete(id);
    return id;
  }
  return {
    suite,
    base,
    get,
    merge,
    complete,
    firstNames,
    leaseLapses,
    markerAges,
    createProfile,
  };
}

/**
 * A process may die between any two documents of a multi-document step.
 * Each test arms a crash point (libs/shared/src/crash-points): the flow that reaches it
 * stops there for ever, as a process that died at that instant, nothing after it running;
 * a worker is then killed (app.killWorker), and a new one started (its lease, which would lapse after
 * LEASE_TTL_MS, is dropped at once); the api's frozen request is left behind. What must
 * hold after: the write either completes later or leaves no trace, it applies once, in
 * order, and readers never see a stale state as current.
 */
describe('Crash points between documents', () => {
  // A killed worker's running jobs count against TENANT_MAX_RUNNING until their marks lapse
  // (15 s, the fair queue's RUNNING_TTL_MS): with the default cap of 4, as many as the one
  // live worker runs, the worker started after a kill waited for them. Not a cap to test here.
  const crash = crashSuite({ TENANT_MAX_RUNNING: '100' });
  const { suite, base, get, merge, complete, firstNames, leaseLapses, markerAges } = crash;
  const { createProfile } = crash;
  afterEach(async () => {
    // Points left armed (a test that failed before reaching them) would freeze a job during
    // the worker's shutdown, which waits for it.
    for (const process of [suite.app.api, ...suite.app.workers])
      process.get(CrashPoints).disarmAll();
    for (const worker of [...suite.app.workers]) await suite.app.stopWorker(worker);
  });

  const arm = (process: INestApplicationContext, point: CrashPointName) =>
    process.get(CrashPoints).arm(point);
  /** A request whose process dies on the way: never awaited for its answer. */
  const abandoned = (pending: request.Test) =>
    void pending.then(
      () => undefined,
      () => undefined,
    );
  const writesOf = (id: number) =>
    suite.db
      .collection('profile_writes')
      .countDocuments({ _id: { $regex: `^${suite.tenant.clientId}\\|${id}\\|` } } as object);
  const marked = async (id: number) =>
    (await suite.db
      .collection('pending_profiles')
      .countDocuments({ _id: `${suite.tenant.clientId}|${id}` } as object)) > 0;

  it('acceptance dying after the marker, before the write: no trace, the marker goes', async () => {
    await suite.app.startWorker();
    const id = await createProfile('Marker');
    const writes = await writesOf(id);
    const reached = arm(suite.app.api, CRASH_POINTS.acceptAfterMarker);
    abandoned(merge(id, { DefaultLocale: 'nl-nl' }));
    await reached;
    expect(await writesOf(id)).toBe(writes);
    expect(await marked(id)).toBe(true);
    const profile = (await get(id).expect(200)).body;
    expect(profile.UpdateStatus).toBe('Complete');
    expect(profile.DefaultLocale).not.toBe('nl-nl');
    // The sweeper removes the marker once it is stale and no write follows appliedSeq.
    await markerAges(id);
    await eventually(async () => ((await marked(id)) ? undefined : true));
    expect((await get(id).expect(200)).body.DefaultLocale).not.toBe('nl-nl');
  });

  it('acceptance dying after the write, before its job: the sweeper applies the write', async () => {
    await suite.app.startWorker();
    const id = await createProfile('Insert');
    const reached = arm(suite.app.api, CRASH_POINTS.acceptAfterWriteInsert);
    abandoned(merge(id, { DefaultLocale: 'nl-nl' }));
    await reached;
    await markerAges(id);
    expect((await complete(id, (p) => p.DefaultLocale === 'nl-nl')).DefaultLocale).toBe('nl-nl');
    // A later write takes the next sequence number and applies after it.
    await merge(id, { DefaultLocale: 'fr-ca' }).expect(202);
    expect((await complete(id, (p) => p.DefaultLocale === 'fr-ca')).DefaultLocale).toBe('fr-ca');
  });

  it('a worker dying after the history, before the save: the next worker applies the write once', async () => {
    const first = await suite.app.startWorker();
    const id = await createProfile('A');
    const reached = arm(first, CRASH_POINTS.applyAfterHistory);
    await merge(id, { CustomerName: { FirstName: 'B' } }).expect(202);
    await reached;
    await suite.app.killWorker(first);
    expect((await get(id).expect(200)).body.CustomerName.FirstName).toBe('A');
    await leaseLapses(id);
    await markerAges(id);
    await suite.app.startWorker();
    await complete(id, (p) => p.CustomerName.FirstName === 'B');
    expect(await firstNames(id)).toEqual(['A', 'B']);
  });

  it('a worker dying after the save, before the publication: readers and searches see the save', async () => {
    const first = await suite.app.startWorker();
    const id = await createProfile('Saved');
    const reached = arm(first, CRASH_POINTS.applyAfterSave);
    await merge(id, { Emails: [{ EmailAddress: 'crash-save@example.com' }] }).expect(202);
    await reached;
    await suite.app.killWorker(first);
    // The read model was marked dirty before the save: GET reads the database.
    const profile = (await get(id).expect(200)).body;
    expect(profile.UpdateStatus).toBe('Complete');
    expect(profile.Emails.map((e: any) => e.EmailAddress)).toEqual(['crash-save@example.com']);
    // The search keys were added before the save.
    const found = await request(suite.app.http)
      .get(`${base()}/Email?emailAddress=crash-save@example.com`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(found.body.map((p: any) => p.ProfileId)).toEqual([id]);
    await leaseLapses(id);
    await suite.app.startWorker();
    await merge(id, { DefaultLocale: 'de-de' }).expect(202);
    await complete(id, (p) => p.DefaultLocale === 'de-de');
    // Each entry shows the standard fields: the create's and the locale change's (the email
    // write changed none), so the saved write was not applied again.
    expect(await firstNames(id)).toEqual(['Saved', 'Saved']);
    const contacts = await request(suite.app.http)
      .get(`${base()}/${id}/History/ContactElements`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(contacts.body).toHaveLength(1);
  });

  it('a worker dying around the save of a write that adds a listed email: the mark comes once', async () => {
    const listRes = await request(suite.app.http)
      .post(`/Profiles/v4/${suite.tenant.clientId}/DoNotContactLists`)
      .set('Authorization', suite.auth)
      .send({ Name: 'Crash registry', ListType: 'Email' })
      .expect((res) => expect(res.status).toBeLessThan(300));
    await request(suite.app.http)
      .post(
        `/Profiles/v4/${suite.tenant.clientId}/DoNotContactLists/${listRes.body.ListId}/Entries`,
      )
      .set('Authorization', suite.auth)
      .send({ Entries: [{ Value: 'listed-1@example.com' }, { Value: 'listed-2@example.com' }] })
      .expect((res) => expect(res.status).toBeLessThan(300));
    const operations = async (id: number): Promise<string[]> =>
      (
        await request(suite.app.http)
          .get(`${base()}/${id}/Updates`)
          .set('Authorization', suite.auth)
          .expect(200)
      ).body.Updates.map((update: any) => update.Operation);
    const listedMark = (email: string) => (profile: any) =>
      profile.Emails.some(
        (e: any) =>
          e.EmailAddress === email &&
          e.EmailPreferences?.some((p: any) => p.FilterId === programDnc.FilterId),
      );
    const programDnc = suite.programs.dnc.email;

    // Dying after the save (the mark is looked up before it: none is lost).
    let worker = await suite.app.startWorker();
    const id = await createProfile('Listed');
    let reached = arm(worker, CRASH_POINTS.applyAfterSave);
    await merge(id, { Emails: [{ EmailAddress: 'listed-1@example.com' }] }).expect(202);
    await reached;
    await suite.app.killWorker(worker);
    await leaseLapses(id);
    await markerAges(id);
    worker = await suite.app.startWorker();
    await complete(id, listedMark('listed-1@example.com'));
    expect((await operations(id)).filter((op) => op === 'dnc-apply')).toHaveLength(1);

    // Dying after the mark was queued, before the save: the retried write queues no second one.
    reached = arm(worker, CRASH_POINTS.applyAfterHistory);
    await merge(id, { Emails: [{ EmailAddress: 'listed-2@example.com' }] }).expect(202);
    await reached;
    await suite.app.killWorker(worker);
    await leaseLapses(id);
    await markerAges(id);
    await suite.app.startWorker();
    await complete(id, listedMark('listed-2@example.com'));
    expect((await operations(id)).filter((op) => op === 'dnc-apply')).toHaveLength(2);
  });

  it('a configuration create dying after its name claims: the name is free again after the grace period', async () => {
    const body = (TypeName: string) => ({
      ConsentTypes: [
        {
          TypeName,
          IsActive: true,
          LocalizedFields: [{ Locale: 'en-us', Name: TypeName }],
          Versions: [
            {
              ConsentVersion: '1.0',
              LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: TypeName }],
            },
          ],
        },
      ],
    });
    const post = () =>
      request(suite.app.http)
        .post(`/Profiles/v4/${suite.tenant.clientId}/ConsentTypes`)
        .set('Authorization', suite.auth)
        .send(body('Crashy'));
    const reached = arm(suite.app.api, CRASH_POINTS.configAfterNameClaims);
    abandoned(post());
    await reached;
    // As far as anyone can tell, a create is in flight: the name stays taken for now.
    await post().expect(409);
    // Time passes (NAME_CLAIM_GRACE_MS): the claim is stale, its entry was never stored.
    await suite.db
      .collection('config_claims')
      .updateOne({ _id: `${suite.tenant.clientId}|consent-type|name:crashy` } as object, {
        $set: { claimedAt: new Date(0) },
      });
    const created = await post().expect(201);
    expect(created.body.ConsentTypes[0].TypeName).toBe('Crashy');
  });

  it('killing the worker again and again under load loses no write, applies none twice, keeps the order', async () => {
    let worker = await suite.app.startWorker();
    const ids = [await createProfile('K0'), await createProfile('K1'), await createProfile('K2')];
    const WRITES = 12;
    let next = 0;
    // One write per profile, all at once; the batches that follow keep the worker busy.
    const sendBatch = async () => {
      const n = next++;
      await Promise.all(
        ids.map((id) =>
          merge(id, {
            CustomerName: { FirstName: `n${n}` },
            ProfileTags: [{ Name: `t${n}` }],
          }).expect(202),
        ),
      );
    };
    const points = [CRASH_POINTS.applyAfterHistory, CRASH_POINTS.applyAfterSave];
    const KILLS = 4;
    for (let round = 0; round < KILLS; round++) {
      // The worker dies applying one of the batch's writes, with the others still queued.
      const reached = arm(worker, points[round % points.length]);
      await sendBatch();
      await sendBatch();
      await reached;
      await suite.app.killWorker(worker);
      for (const id of ids) await leaseLapses(id);
      worker = await suite.app.startWorker();
    }
    while (next < WRITES) await sendBatch();
    for (const [index, id] of ids.entries()) {
      const profile = await complete(id, (p) => p.CustomerName.FirstName === `n${WRITES - 1}`);
      // Order kept, none lost: every tag, in acceptance order.
      expect(profile.ProfileTags.map((t: any) => t.Name)).toEqual(
        Array.from({ length: WRITES }, (_, n) => `t${n}`),
      );
      // None applied twice: each write's change is in the history exactly once.
      expect(await firstNames(id)).toEqual([
        `K${index}`,
        ...Array.from({ length: WRITES }, (_, n) => `n${n}`),
      ]);
    }
  });
});

/**
 * A worker that stalls past its lease (a paused machine) and then saves overwrites, on the
 * embedded engine, whatever another worker saved meanwhile. The sweeper is kept out of it
 * (STALE_WRITE_MS of 10 minutes): the job itself notices its lease lapsed and re-queues the
 * profile, and the writes the late save undid are applied again, in order, once each.
 */
describe('A worker stalled past its lease', () => {
  const { suite, merge, complete, firstNames, leaseLapses, createProfile } = crashSuite({
    STALE_WRITE_MS: '600000',
  });

  it('saves late: the writes applied meanwhile are not lost', async () => {
    const stalled = await suite.app.startWorker();
    const id = await createProfile('S0');
    const stall = stalled.get(CrashPoints).stall(CRASH_POINTS.applyBeforeSave);
    await merge(id, { CustomerName: { FirstName: 'S1' } }).expect(202);
    await stall.reached;
    // Its lease lapses; another worker applies that write and the next ones.
    await leaseLapses(id);
    await suite.app.startWorker();
    await merge(id, { CustomerName: { FirstName: 'S2' } }).expect(202);
    await merge(id, { DefaultLocale: 'it-it' }).expect(202);
    await complete(id, (p) => p.DefaultLocale === 'it-it');
    const stored = () =>
      suite.db.collection('profiles').findOne({ _id: `${suite.tenant.clientId}|${id}` } as object);
    expect((await stored())!.appliedSeq).toBe(4);
    // The stalled worker wakes and saves what it computed (seq 2) over seq 4 ...
    const saved = stalled.get(CrashPoints).stall(CRASH_POINTS.applyAfterSave);
    stall.resume();
    await saved.reached;
    expect((await stored())!.appliedSeq).toBe(2);
    saved.resume();
    // ... and the profile comes back to every write, in order, each applied once.
    const healed = await eventually(async () => {
      const doc = await stored();
      return doc!.appliedSeq === 4 && doc!.data.DefaultLocale === 'it-it' ? doc : undefined;
    });
    expect(healed!.data.CustomerName.FirstName).toBe('S2');
    expect(await firstNames(id)).toEqual(['S0', 'S1', 'S2', 'S2']);
    const profile = await complete(id);
    expect(profile.CustomerName.FirstName).toBe('S2');
    expect(profile.DefaultLocale).toBe('it-it');
  });
});
