import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { APPLY_PROFILE_WRITES, CONSENT_EXPIRY, type Profile } from '@app/profiles';
import { DO_NOT_CONTACT_PROPAGATION } from '@app/consents';
import {
  CRASH_POINTS,
  type CrashPointName,
  CrashPoints,
  JobQueue,
  leaseKey,
  RedisService,
} from '@app/shared';
import { configureTestTenant, type TestPrograms, testPreference } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { DAY_MS, runJob } from '../jobs/job-helpers';
import { runLeaseName } from '../../libs/bulk/src/keys';
import { countsSettle, reportKey } from './report-helpers';

type Json = Record<string, any>;

/** A small seeded generator (mulberry32): a failing run is replayed with REPORTS_SEED. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}

const SEED = Number(process.env.REPORTS_SEED ?? 20260131);
const OPERATIONS = Number(process.env.REPORTS_OPERATIONS ?? 70);
const CRASH_AT: CrashPointName[] = [
  CRASH_POINTS.applyAfterHistory,
  CRASH_POINTS.applyBeforeSave,
  CRASH_POINTS.applyAfterSave,
];

/*
 * Item 4 of the reports (docs/reports.md, "Tests"): a seeded random mix of creates, merges
 * (consents, preferences, customer types), archives, deletes, erasures, bulk imports (the
 * fast path), expiries, do-not-contact listings and unlistings, and workers killed at the
 * apply step's crash points (one of them in an import), rebuilds started while writes are
 * being applied, profile merges, then every count compared with a recount of the stored
 * profiles: equal. The daily series must count each profile's creation, deletion, erasure
 * and merge once: created minus deleted, erased and merged is the number of profiles
 * counted now.
 */
describe('Reports: counts equal a recount after a random mix with crashes', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let auth: string;
  const ids = new Set<number>();
  const emails = new Map<number, string>();
  const v4 = () => `/Profiles/v4/${tenant.clientId}`;
  const random = generator(SEED);
  const pending: Promise<unknown>[] = [];
  const fire = (test: request.Test) => {
    pending.push(
      test.then(
        () => undefined,
        () => undefined,
      ),
    );
  };

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        BULK_RUN_LEASE_MS: '2000',
        BULK_IMPORT_DAILY_LIMIT: '1000',
        // A killed worker's running jobs count against TENANT_MAX_RUNNING until their marks
        // lapse (15 s, the fair queue's RUNNING_TTL_MS): with the default cap of 4, as many as
        // the one live worker runs, the mix waited for them after each kill. Not a cap to
        // test here.
        TENANT_MAX_RUNNING: '100',
      },
    });
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
  });
  afterAll(() => app.close());

  const consents = () =>
    ['Terms', 'Marketing', 'Sms']
      .filter(() => random.chance(0.6))
      .map((ConsentType) => ({ ConsentType, ConsentStatus: random.pick([1, 2, 4]) }));
  const emailPreferences = () => [
    ...(random.chance(0.6)
      ? [
          testPreference(programs.newsletter.email, {
            PreferenceType: random.pick([1, 2]),
            ...(random.chance(0.3) ? { MatchType: 'Implied' } : {}),
          }),
        ]
      : []),
    ...(random.chance(0.3)
      ? [
          testPreference(programs.offers.email, {
            ConsentAssociations: [{ ConsentType: 'Marketing' }],
          }),
        ]
      : []),
  ];
  const body = (email: string) => ({
    CustomerType: random.pick(['Customer', 'Prospect']),
    Consents: consents(),
    Emails: [
      {
        EmailAddress: email,
        EmailPreferences: emailPreferences(),
        Consents: random.chance(0.5)
          ? [
              {
                ConsentType: 'Email',
                ConsentStatus: 1,
                // Expires within days: the expiry job marks it.
                ExpirationDate: new Date(Date.now() + (1 + random.int(20)) * DAY_MS).toISOString(),
              },
            ]
          : [],
      },
    ],
    ...(random.chance(0.4)
      ? { ProfilePreferences: [testPreference(programs.newsletter.solicit)] }
      : {}),
  });

  let serial = 0;
  async function create(): Promise<void> {
    const email = `mix${serial++}@example.com`;
    const res = await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send(body(email))
      .expect(202);
    ids.add(res.body.ProfileId);
    emails.set(res.body.ProfileId, email);
  }

  const someone = () => random.pick([...ids]);

  function merge(): void {
    const id = someone();
    const change = random.int(4);
    const patch =
      change === 0
        ? {
            Consents: [
              {
                ConsentType: random.pick(['Terms', 'Marketing', 'Sms']),
                ConsentStatus: random.pick([1, 2, 3, 4]),
              },
            ],
          }
        : change === 1
          ? { Emails: [{ EmailAddress: emails.get(id), EmailPreferences: emailPreferences() }] }
          : change === 2
            ? { CustomerType: random.pick(['Customer', 'Prospect']) }
            : {
                Emails: [
                  {
                    EmailAddress: emails.get(id),
                    Consents: [{ ConsentType: 'Email', ConsentStatus: random.pick([1, 3]) }],
                  },
                ],
              };
    fire(request(app.http).post(`${v4()}/Profile/${id}`).set('Authorization', auth).send(patch));
  }

  /** One profile absorbs another (docs/profile-merge.md); refused ones (409, 404) are fine. */
  let mergesAccepted = 0;
  async function profileMerge(): Promise<void> {
    const survivor = someone();
    const absorbed = someone();
    if (survivor === absorbed) return;
    const res = await request(app.http)
      .post(`${v4()}/Profile/${survivor}/Merge`)
      .set('Authorization', auth)
      .send({ AbsorbedProfileId: absorbed, ReasonCode: 'DUPLICATE' });
    if (res.status === 202) mergesAccepted++;
  }

  let imports = 0;
  async function bulkImport(crash: boolean): Promise<void> {
    const created = await request(app.http)
      .post(`${v4()}/Bulk/Import`)
      .set('Authorization', auth)
      .send({ Name: `Mix ${imports++}`, MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' })
      .expect(201);
    const token = created.body.AccessToken as number;
    const records = Array.from({ length: 4 + random.int(8) }, () => {
      const email = `imp${serial++}@example.com`;
      return { ...body(email), AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: email }] };
    });
    await request(app.http)
      .post(`${v4()}/Bulk/Import/${token}/Stage`)
      .set('Authorization', auth)
      .send(records)
      .expect(200);
    const [worker] = app.workers;
    const reached = crash
      ? worker.get(CrashPoints).arm(CRASH_POINTS.importCreateAfterSave, { everyFlow: true })
      : undefined;
    await request(app.http)
      .post(`${v4()}/Bulk/Import/${token}/Execute`)
      .set('Authorization', auth)
      .expect(202);
    if (reached) {
      await reached;
      await app.killWorker(worker);
      // The dead run's lease lapses (here at once); Execute again resumes the import.
      await app.api
        .get(RedisService)
        .client.del(leaseKey(app.settings.queuePrefix, runLeaseName(tenant.clientId, token)));
      await app.startWorker();
      await request(app.http)
        .post(`${v4()}/Bulk/Import/${token}/Execute`)
        .set('Authorization', auth)
        .expect(202);
    }
    await eventually(async () => {
      const res = await request(app.http)
        .get(`${v4()}/Bulk/Import/${token}`)
        .set('Authorization', auth);
      return ['Completed', 'Failed'].includes(res.body.Status) ? true : undefined;
    }, 60000);
    for (const { Emails } of records) {
      const res = await request(app.http)
        .get(
          `${v4()}/Profile/AlternateId?alternateIdType=CRM&alternateId=${Emails[0].EmailAddress}`,
        )
        .set('Authorization', auth);
      if (res.status === 200) {
        ids.add(res.body.ProfileId);
        emails.set(res.body.ProfileId, Emails[0].EmailAddress);
      }
    }
  }

  let list: number | undefined;
  async function doNotContact(): Promise<void> {
    list ??= (
      await request(app.http)
        .post(`${v4()}/DoNotContactLists`)
        .set('Authorization', auth)
        .send({ Name: 'Mix list', ListType: 'Email' })
    ).body.ListId as number;
    const email = emails.get(someone())!;
    const entries = `${v4()}/DoNotContactLists/${list}/Entries`;
    if (random.chance(0.7))
      await request(app.http)
        .post(entries)
        .set('Authorization', auth)
        .send({ Entries: [{ Value: email }] });
    else
      await request(app.http)
        .delete(`${entries}/${encodeURIComponent(email)}`)
        .set('Authorization', auth);
    await runJob(app, DO_NOT_CONTACT_PROPAGATION);
  }

  /**
   * Stored profiles carrying a change their marks have not reached: saved and not counted in
   * full (current counts by `seen`, daily events by `told`). A mark may stay below the
   * profile's appliedSeq for good when its last passes changed nothing countable (an erasure
   * of a deleted profile, a write that repeats a consent's answer): only what a profile
   * carries says what is uncounted. The test's own reading (a scan), never the service's.
   */
  async function uncounted(): Promise<string[]> {
    const redis = app.api.get(RedisService).client;
    const [seen, told] = await Promise.all([
      redis.hgetall(reportKey(app, tenant.clientId, 'seen')),
      redis.hgetall(reportKey(app, tenant.clientId, 'told')),
    ]);
    const db = app.api.get<Connection>(getConnectionToken());
    const docs = (await db
      .collection('profiles')
      .find({ clientId: tenant.clientId } as object)
      .toArray()) as unknown as Profile[];
    return docs.flatMap(({ profileId, state, appliedSeq, countDeltas }) =>
      (countDeltas ?? [])
        .filter(({ to }) => Number(seen[profileId] ?? 0) < to || Number(told[profileId] ?? 0) < to)
        .map(
          ({ from, to }) =>
            `${profileId} ${state} appliedSeq ${appliedSeq}: delta ${from}-${to}, seen ${seen[profileId]}, told ${told[profileId]}`,
        ),
    );
  }

  /** A write whose worker dies at a crash point of the apply step; a new worker carries on. */
  async function killDuringWrite(): Promise<void> {
    const id = someone();
    const [worker] = app.workers;
    const reached = worker.get(CrashPoints).arm(random.pick(CRASH_AT));
    const write = request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({ Consents: [{ ConsentType: 'Terms', ConsentStatus: random.pick([1, 2, 3]) }] });
    fire(write);
    // The write may be refused before it reaches the point (no kill then).
    const hit = await Promise.race([
      reached.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
    ]);
    worker.get(CrashPoints).disarmAll();
    if (!hit) return;
    await app.killWorker(worker);
    await app.api
      .get(RedisService)
      .client.del(leaseKey(app.settings.queuePrefix, `profile:${tenant.clientId}|${id}`));
    await app.startWorker();
    // What Bull's retry of the dead job does once its lock lapses (here at once).
    await app.api
      .get(JobQueue)
      .enqueue(APPLY_PROFILE_WRITES, { clientId: tenant.clientId, profileId: id });
  }

  it(
    `holds for seed ${SEED}, ${OPERATIONS} operations`,
    async () => {
      for (let k = 0; k < 8; k++) await create();
      let importCrashed = false;
      for (let op = 0; op < OPERATIONS; op++) {
        // Every tenth operation also merges two profiles (beside the mix's own roll).
        if (op % 10 === 5 && ids.size > 4) await profileMerge();
        const roll = random.next();
        if (roll < 0.12) await create();
        else if (roll < 0.5) merge();
        else if (roll < 0.56)
          fire(
            request(app.http)
              .put(`${v4()}/Profile/Preferences/${someone()}/Archive`)
              .set('Authorization', auth)
              .send({ GlobalDeactivate: true }),
          );
        else if (roll < 0.61 && ids.size > 4)
          fire(request(app.http).delete(`${v4()}/Profile/${someone()}`).set('Authorization', auth));
        else if (roll < 0.65 && ids.size > 4)
          fire(
            request(app.http)
              .post(`${v4()}/Profile/${someone()}/Erasure`)
              .set('Authorization', auth)
              .send({ ReasonCode: 'GDPR-ART17' }),
          );
        else if (roll < 0.72) {
          await bulkImport(!importCrashed);
          importCrashed = true;
        } else if (roll < 0.78) {
          app.advance((3 + random.int(15)) * DAY_MS);
          await runJob(app, CONSENT_EXPIRY);
        } else if (roll < 0.84) await doNotContact();
        else if (roll < 0.88)
          // A rebuild while the writes fired before it are still being applied.
          await request(app.http)
            .post('/Profiles/v4/Reports/Rebuilds')
            .set('Authorization', `Bearer ${app.settings.operatorToken}`)
            .send({ ClientId: tenant.clientId, Restart: true })
            .expect(202);
        else await killDuringWrite();
      }
      await Promise.all(pending);
      // Every profile's writes applied (or the profile gone); then each profile's job once
      // more, as Bull's retries of killed jobs would, so nothing waits for a lapsed lock.
      for (const id of ids) {
        await eventually(async () => {
          const res = await request(app.http)
            .get(`${v4()}/Profile/${id}`)
            .set('Authorization', auth);
          return res.status !== 200 || res.body.UpdateStatus === 'Complete' ? true : undefined;
        }, 90000);
        await app.api
          .get(JobQueue)
          .enqueue(APPLY_PROFILE_WRITES, { clientId: tenant.clientId, profileId: id });
      }
      const counts = await countsSettle(app, tenant.clientId, 120000);
      // Every saved change counted in full, its daily events too (each profile's job came).
      await eventually(
        async () => ((await uncounted()).length === 0 ? true : undefined),
        60000,
      ).catch(async (error) => {
        throw new Error(`${String(error)}; uncounted: ${(await uncounted()).join('; ')}`);
      });
      const drift = await app.api
        .get(RedisService)
        .client.hget(reportKey(app, tenant.clientId, 'meta'), 'drift');
      expect(Number(drift ?? 0)).toBe(0);

      // Each creation, deletion and erasure counted once, on some day.
      const profilesNow = Object.entries(counts)
        .filter(([key]) => key.startsWith('p|'))
        .reduce((sum, [, n]) => sum + n, 0);
      // From before the first write to the moved clock's today (the route's default end).
      const from = new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10);
      const series = await request(app.http)
        .get(`${v4()}/Reports/Daily?from=${from}`)
        .set('Authorization', auth)
        .expect(200);
      const sum = (event: string) =>
        series.body.Days.reduce((total: number, day: Json) => total + day[event], 0);
      const balance =
        sum('ProfilesCreated') -
        sum('ProfilesDeleted') -
        sum('ProfilesErased') -
        sum('ProfilesMerged');
      expect(balance).toBe(profilesNow);
      // Merges were driven and counted (one the worker refused, e.g. of a profile deleted
      // meanwhile, merges nothing).
      expect(mergesAccepted).toBeGreaterThan(0);
      expect(sum('ProfilesMerged')).toBeGreaterThan(0);
      expect(sum('ProfilesMerged')).toBeLessThanOrEqual(mergesAccepted);
      for (const day of series.body.Days as Json[])
        for (const [event, n] of Object.entries(day))
          if (event !== 'Date') expect(n).toBeGreaterThanOrEqual(0);
    },
    15 * 60 * 1000,
  );
});
