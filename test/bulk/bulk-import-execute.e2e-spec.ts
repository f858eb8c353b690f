import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { CRASH_POINTS, CrashPoints, RedisService } from '@app/shared';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import {
  exceptionPageKey,
  importChunkKey,
  importKey,
  runLeaseName,
} from '../../libs/bulk/src/keys';
import { BULK_IMPORT_CLEANUP } from '../../libs/bulk/src/worker/bulk-jobs';
import { runJob } from '../jobs/job-helpers';

const HOUR = 60 * 60 * 1000;

/**
 * Bulk import, Execute (docs/bulk.md): the worker applies the staged records as ordinary
 * profile writes; statuses, counters, exceptions found against stored profiles, Refresh*,
 * Delete, the older Async route, a worker dying mid-import, the daily limit. Real engine
 * and Redis, one worker (a test starts another after killing it).
 */
describe('Bulk import: Execute', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  let n = 0;
  const v4 = () => `/Profiles/v4/${tenant.clientId}`;
  const base = () => `${v4()}/Bulk/Import`;
  const fresh = () => `X-${Date.now().toString(36)}-${n++}`;
  const record = (alternateId: string, extra: object = {}) => ({
    CustomerType: 'Customer',
    CustomerName: { FirstName: 'Ann' },
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: alternateId }],
    ...extra,
  });

  async function newImport(body: object = {}): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ Name: 'Execute', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM', ...body });
    expect(res.status).toBe(201);
    return res.body.AccessToken as number;
  }
  const stage = (token: number, records: unknown[]) =>
    request(app.http).post(`${base()}/${token}/Stage`).set('Authorization', auth).send(records);
  const execute = (token: number) =>
    request(app.http).post(`${base()}/${token}/Execute`).set('Authorization', auth);
  const status = (token: number) =>
    request(app.http).get(`${base()}/${token}`).set('Authorization', auth);
  const exceptions = (token: number) =>
    request(app.http).get(`${base()}/${token}/Exceptions`).set('Authorization', auth);
  const byAlternateId = (value: string) =>
    request(app.http)
      .get(`${v4()}/Profile/AlternateId?alternateIdType=CRM&alternateId=${value}`)
      .set('Authorization', auth);

  /** The import once it is Completed (or Failed). */
  const ended = (token: number) =>
    eventually(async () => {
      const res = await status(token);
      return ['Completed', 'Failed'].includes(res.body.Status) ? res.body : undefined;
    });
  /** The profile holding the CRM id, once every write of it is applied. */
  const applied = (value: string) =>
    eventually(async () => {
      const res = await byAlternateId(value);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
  const stored = (profileId: number) =>
    app.api
      .get<Connection>(getConnectionToken())
      .collection('profiles')
      .findOne({ _id: `${tenant.clientId}|${profileId}` } as object);

  beforeAll(async () => {
    app = await startTestApp({
      workers: 1,
      env: { BULK_RUN_LEASE_MS: '2000', BULK_IMPORT_DAILY_LIMIT: '1000' },
    });
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
  });
  // A crash test that fails before restarting its worker must not fail the tests after it.
  afterEach(async () => {
    if (app.workers.length === 0) await app.startWorker();
  });
  afterAll(() => app.close());

  it('applies the staged records as profile writes: Queued, then Completed with the counters', async () => {
    const [a, b] = [fresh(), fresh()];
    const token = await newImport();
    await stage(token, [
      record(a, { Emails: [{ EmailAddress: `${a}@example.com`, EmailAddressType: 'Personal' }] }),
      record(b, { CustomerName: { FirstName: 'Bea' } }),
      { CustomerType: 'Customer' }, // no CRM id: refused by Stage
    ]).expect(200);

    const res = await execute(token).expect(202);
    expect(res.body).toMatchObject({ AccessToken: token, Status: 'Queued', Pending: 2 });
    expect(res.headers.location).toBe(`${base()}/${token}`);
    expect(res.headers.link).toBe(`<${base()}/${token}>; rel="monitor"`);

    expect(await ended(token)).toMatchObject({
      Status: 'Completed',
      TotalRecordsReceived: 3,
      ValidationSuccessful: 2,
      ValidationFailed: 1,
      Processed: 2,
      Pending: 0,
      NotHonored: 0,
      Exceptions: 1,
    });
    const first = await applied(a);
    expect(first.Emails.map((e: { EmailAddress: string }) => e.EmailAddress)).toEqual([
      `${a}@example.com`,
    ]);
    expect((await applied(b)).CustomerName.FirstName).toBe('Bea');
    // The import is over: no Stage, no second Execute.
    await stage(token, [record(fresh())]).expect(409);
    const again = await execute(token).expect(409);
    expect(again.body.Message).toContain('Completed');
  });

  it('merges into existing profiles, and refuses what the stored profile does not allow (NotHonored)', async () => {
    const [held, other, created] = [fresh(), fresh(), fresh()];
    // A profile holding `held`, and another holding the Loyalty id a record claims.
    await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send(record(held, { CustomerName: { FirstName: 'Old', LastName: 'Kept' } }))
      .expect(202);
    await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send(
        record(other, {
          AlternateIds: [
            { AlternateIdType: 'CRM', AlternateId: other },
            { AlternateIdType: 'Loyalty', AlternateId: `L-${other}` },
          ],
        }),
      )
      .expect(202);
    await applied(held);
    await applied(other);

    const token = await newImport();
    await stage(token, [
      {
        CustomerName: { FirstName: 'New' },
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: held }],
      },
      record(created, {
        AlternateIds: [
          { AlternateIdType: 'CRM', AlternateId: created },
          { AlternateIdType: 'Loyalty', AlternateId: `L-${other}` },
        ],
      }),
      // A create needs CustomerType: known only when the record is applied.
      { AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: fresh() }] },
    ]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({
      Status: 'Completed',
      Processed: 1,
      NotHonored: 2,
      Exceptions: 2,
      Pending: 0,
    });
    const merged = await applied(held);
    expect(merged.CustomerName).toMatchObject({ FirstName: 'New', LastName: 'Kept' });
    const page = (await exceptions(token).expect(200)).body;
    expect(page).toMatchObject({ Count: 2, TotalResults: 2, HasMore: false });
    expect(page.Exceptions[0]).toMatchObject({
      RecordNumber: 2,
      Stage: 1,
      Index: 1,
      AlternateId: created,
    });
    expect(page.Exceptions[0].Reason).toContain(`L-${other}`);
    expect(page.Exceptions[1]).toMatchObject({ RecordNumber: 3, Stage: 1, Index: 2 });
    expect(page.Exceptions[1].Reason).toContain('CustomerType');
    await byAlternateId(created).expect(404);
  });

  it('a consent dated before the stored one is refused unless the import allows prior consents', async () => {
    const [plain, allowed] = [fresh(), fresh()];
    // Terms granted on that date.
    const consent = (ConsentDate: string) => ({
      Consents: [
        {
          ConsentType: 'Terms',
          ConsentVersion: '1.0',
          Locale: 'en-us',
          ConsentStatus: 1,
          ConsentDate,
        },
      ],
    });
    for (const id of [plain, allowed]) {
      await request(app.http)
        .post(`${v4()}/Profile`)
        .set('Authorization', auth)
        .send(record(id, consent('2026-02-01T00:00:00.000Z')))
        .expect(202);
      await applied(id);
    }
    const older = (id: string) => ({
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: id }],
      ...consent('2025-06-01T00:00:00.000Z'),
    });
    const refusing = await newImport();
    await stage(refusing, [older(plain)]).expect(200);
    await execute(refusing).expect(202);
    expect(await ended(refusing)).toMatchObject({ Processed: 0, NotHonored: 1, Exceptions: 1 });
    const [exception] = (await exceptions(refusing).expect(200)).body.Exceptions;
    expect(exception.Reason).toBe(
      'Consents[0].ConsentDate "2025-06-01T00:00:00.000Z" (ConsentType "Terms") is earlier than the stored consent\'s "2026-02-01T00:00:00.000Z": a prior consent, imported only with AllowPriorConsents true',
    );
    expect((await applied(plain)).Consents[0]).toMatchObject({
      ConsentStatus: 1,
      ConsentDate: '2026-02-01T00:00:00.000Z',
    });

    const allowing = await newImport({ AllowPriorConsents: true });
    await stage(allowing, [older(allowed)]).expect(200);
    await execute(allowing).expect(202);
    expect(await ended(allowing)).toMatchObject({ Processed: 1, NotHonored: 0, Exceptions: 0 });
    const restated = await eventually(async () => {
      const profile = await applied(allowed);
      return profile.Consents[0].ConsentDate === '2025-06-01T00:00:00.000Z' ? profile : undefined;
    });
    expect(restated.Consents[0]).toMatchObject({ ConsentStatus: 1, ConsentType: 'Terms' });
  });

  it('a record whose pair a profile holds merges into it, and the profile the batch saved for it first is gone', async () => {
    // The batch saves every first record as a new profile, then claims the pairs: a held
    // pair sends the record into its holder and removes the profile saved for it.
    const [held, heldToo, created] = [fresh(), fresh(), fresh()];
    for (const value of [held, heldToo]) {
      await request(app.http)
        .post(`${v4()}/Profile`)
        .set('Authorization', auth)
        .send(record(value, { CustomerName: { FirstName: 'Old', LastName: 'Kept' } }))
        .expect(202);
      await applied(value);
    }
    const token = await newImport();
    await stage(token, [
      record(held, { CustomerName: { FirstName: 'New' } }),
      record(created),
      record(heldToo, { CustomerName: { FirstName: 'Newer' } }),
    ]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 3, NotHonored: 0 });
    const [first, second, third] = [
      await applied(held),
      await applied(created),
      await applied(heldToo),
    ];
    expect(first.CustomerName).toMatchObject({ FirstName: 'New', LastName: 'Kept' });
    expect(third.CustomerName).toMatchObject({ FirstName: 'Newer', LastName: 'Kept' });
    expect(second.ProfileId).toBeGreaterThan(third.ProfileId);
    // The ids reserved beside the created one were saved, then removed: no profile, no
    // claim, no history.
    for (const id of [second.ProfileId - 1, second.ProfileId + 1]) {
      expect(await stored(id)).toBeNull();
      await request(app.http).get(`${v4()}/Profile/${id}`).set('Authorization', auth).expect(404);
      const pages = await app.api
        .get<Connection>(getConnectionToken())
        .collection('profile_history')
        .findOne({ _id: `${tenant.clientId}|${id}|p0` } as object);
      expect(pages).toBeNull();
    }
    const history = await request(app.http)
      .get(`${v4()}/Profile/${first.ProfileId}/History/StandardFields`)
      .set('Authorization', auth)
      .expect(200);
    expect(JSON.stringify(history.body)).toContain('New');
  });

  it('Refresh* replaces the named collections of a matched profile instead of merging them', async () => {
    const id = fresh();
    await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send(
        record(id, {
          ProfileTags: [{ Name: 'old-tag' }],
          Emails: [{ EmailAddress: `old-${id}@example.com`, EmailAddressType: 'Personal' }],
        }),
      )
      .expect(202);
    await applied(id);
    const token = await newImport({ RefreshTags: true });
    await stage(token, [
      {
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: id }],
        ProfileTags: [{ Name: 'new-tag' }],
        Emails: [{ EmailAddress: `new-${id}@example.com`, EmailAddressType: 'Personal' }],
      },
    ]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 1 });
    const profile = await applied(id);
    // Tags replaced; emails (RefreshContacts false) merged.
    expect(profile.ProfileTags.map((t: { Name: string }) => t.Name)).toEqual(['new-tag']);
    expect(profile.Emails.map((e: { EmailAddress: string }) => e.EmailAddress).sort()).toEqual([
      `new-${id}@example.com`,
      `old-${id}@example.com`,
    ]);
  });

  it("Operation Delete deletes the profiles holding the records' ids; an id nobody holds is an exception", async () => {
    const [gone, unknown] = [fresh(), fresh()];
    await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send(record(gone))
      .expect(202);
    const profileId = (await applied(gone)).ProfileId as number;
    const token = await newImport({ Operation: 'Delete' });
    await stage(token, [record(gone), record(unknown)]).expect(200);
    // The older route of the notes executes the same import.
    const res = await request(app.http)
      .post(`/Profiles/v4/Async/${tenant.clientId}/Import/${token}/Execute`)
      .set('Authorization', auth)
      .expect(202);
    expect(res.body).toMatchObject({ AccessToken: token, Status: 'Queued' });
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 1, NotHonored: 1 });
    await eventually(async () => ((await byAlternateId(gone)).status === 404 ? true : undefined));
    await request(app.http)
      .get(`${v4()}/Profile/${profileId}`)
      .set('Authorization', auth)
      .expect(404);
    const page = (await exceptions(token).expect(200)).body;
    expect(page.Exceptions).toEqual([
      expect.objectContaining({
        RecordNumber: 2,
        AlternateId: unknown,
        Reason: expect.stringContaining('No profile has AlternateId'),
      }),
    ]);
  });

  it('Execute refuses an unknown token (404) and an expired one (401); Status stays readable while the import is kept', async () => {
    await execute(999_999).expect(404);
    const token = await newImport();
    await stage(token, [record(fresh())]).expect(200);
    await execute(token).expect(202);
    await ended(token);
    const expired = await newImport();
    app.advance(13 * HOUR);
    try {
      const res = await execute(expired).expect(401);
      expect(res.body.Message).toContain('expired');
      // Ended less than DataStageDuration (3) days ago: still readable.
      await status(token).expect(200);
      await exceptions(token).expect(200);
      app.advance(3 * 24 * HOUR);
      await status(token).expect(401);
    } finally {
      app.setNow(new Date());
    }
  });

  it('the cleanup removes staged data past its kept time by `_id`, then the import (401, then 404)', async () => {
    const engine = app.api.get<Connection>(getConnectionToken());
    const exists = async (collection: string, _id: string) =>
      (await engine.collection(collection).findOne({ _id } as object)) !== null;
    const idle = await newImport();
    await stage(idle, [record(fresh()), { CustomerType: 'Customer' }]).expect(200);
    const ran = await newImport({ DataStageDuration: 2 });
    await stage(ran, [record(fresh()), { CustomerType: 'Customer' }]).expect(200);
    await execute(ran).expect(202);
    await ended(ran);
    const stored = (token: number) =>
      Promise.all([
        exists('bulk_import_chunks', importChunkKey(tenant.clientId, token, 1)),
        exists('bulk_import_exceptions', exceptionPageKey(tenant.clientId, token, 1)),
        exists('bulk_imports', importKey(tenant.clientId, token)),
      ]);
    expect(await stored(idle)).toEqual([true, true, true]);
    try {
      // Past Expires: the idle import's data goes; the executed one is kept 2 days after its end.
      app.advance(13 * HOUR);
      const first = await runJob(app, BULK_IMPORT_CLEANUP);
      expect(first.outcome).toBe('ok');
      expect(await stored(idle)).toEqual([false, false, true]);
      expect(await stored(ran)).toEqual([true, true, true]);
      await status(idle).expect(401);
      await status(ran).expect(200);
      app.advance(2 * 24 * HOUR);
      await runJob(app, BULK_IMPORT_CLEANUP);
      expect(await stored(ran)).toEqual([false, false, true]);
      await status(ran).expect(401);
      // The documents themselves 30 days after their data.
      app.advance(31 * 24 * HOUR);
      await runJob(app, BULK_IMPORT_CLEANUP);
      expect(await stored(idle)).toEqual([false, false, false]);
      expect(await stored(ran)).toEqual([false, false, false]);
      await status(idle).expect(404);
    } finally {
      app.setNow(new Date());
    }
  });

  it('a removal schedule Redis lost is rebuilt from the imports: their data still goes, each at its time', async () => {
    const engine = app.api.get<Connection>(getConnectionToken());
    const exists = async (collection: string, _id: string) =>
      (await engine.collection(collection).findOne({ _id } as object)) !== null;
    const idle = await newImport();
    await stage(idle, [record(fresh())]).expect(200);
    const ran = await newImport({ DataStageDuration: 2 });
    await stage(ran, [record(fresh())]).expect(200);
    await execute(ran).expect(202);
    await ended(ran);
    const chunk = (token: number) =>
      exists('bulk_import_chunks', importChunkKey(tenant.clientId, token, 1));
    // Redis loses the schedule and its marker (as a Redis without persistence that restarts).
    const redis = app.api.get(RedisService);
    await redis.client.del(redis.key('bulk-removals'), redis.key('bulk-removals', 'built'));
    try {
      app.advance(13 * HOUR);
      const first = await runJob(app, BULK_IMPORT_CLEANUP);
      expect(first.outcome).toBe('ok');
      // Both imports (and those of earlier tests) were scheduled again by the rebuild.
      expect(first.counts!.rescheduled).toBeGreaterThanOrEqual(2);
      expect(await redis.client.exists(redis.key('bulk-removals', 'built'))).toBe(1);
      // Past Expires: the idle import's data goes; the executed one keeps its 2 days.
      expect([await chunk(idle), await chunk(ran)]).toEqual([false, true]);
      expect(await exists('bulk_imports', importKey(tenant.clientId, idle))).toBe(true);
      // The marker is there: the next run rebuilds nothing.
      expect((await runJob(app, BULK_IMPORT_CLEANUP)).counts!.rescheduled).toBe(0);
      app.advance(2 * 24 * HOUR);
      await runJob(app, BULK_IMPORT_CLEANUP);
      expect(await chunk(ran)).toBe(false);
      // A rebuild again after the data went: the records still wait their kept time.
      await redis.client.del(redis.key('bulk-removals'), redis.key('bulk-removals', 'built'));
      await runJob(app, BULK_IMPORT_CLEANUP);
      expect(await exists('bulk_imports', importKey(tenant.clientId, idle))).toBe(true);
      app.advance(31 * 24 * HOUR);
      await runJob(app, BULK_IMPORT_CLEANUP);
      expect(await exists('bulk_imports', importKey(tenant.clientId, idle))).toBe(false);
      expect(await exists('bulk_imports', importKey(tenant.clientId, ran))).toBe(false);
    } finally {
      app.setNow(new Date());
    }
  });

  it("a batch's new profiles are the profiles the Data API makes of the same body: data, history, search, claims, tags", async () => {
    const [imported, direct] = [fresh(), fresh()];
    const body = (id: string) =>
      record(id, {
        Emails: [{ EmailAddress: `${id}@example.com`, EmailAddressType: 'Personal' }],
        ProfileTags: [{ Name: 'batch-made' }],
      });
    await request(app.http)
      .post(`${v4()}/Profile/AlternateId?alternateIdType=CRM&alternateId=${direct}`)
      .set('Authorization', auth)
      .send(body(direct))
      .expect(202);
    const token = await newImport();
    await stage(token, [body(imported)]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 1 });

    const mine = await applied(imported);
    const theirs = await applied(direct);
    expect(mine.Emails).toHaveLength(1);
    expect(comparable(mine, imported)).toEqual(comparable(theirs, direct));
    for (const category of [
      'StandardFields',
      'ContactElements',
      'CustomFields',
      'Preferences',
      'Consents',
    ]) {
      const history = async (profileId: number, id: string) =>
        comparable(
          (
            await request(app.http)
              .get(`${v4()}/Profile/${profileId}/History/${category}`)
              .set('Authorization', auth)
              .expect(200)
          ).body,
          id,
        );
      const entries = await history(mine.ProfileId, imported);
      expect(entries).toEqual(await history(theirs.ProfileId, direct));
      if (category === 'ContactElements')
        expect(JSON.stringify(entries)).toContain('ID@example.com');
    }
    // Found by its email (the search keys), and its claim holds: an upsert merges into it.
    const found = await request(app.http)
      .get(`${v4()}/Profile/Email?emailAddress=${imported}@example.com`)
      .set('Authorization', auth)
      .expect(200);
    expect(JSON.stringify(found.body)).toContain(`"ProfileId":${mine.ProfileId}`);
    const merged = await request(app.http)
      .post(`${v4()}/Profile/AlternateId?alternateIdType=CRM&alternateId=${imported}`)
      .set('Authorization', auth)
      .send({ CustomerName: { FirstName: 'Later' } })
      .expect(202);
    expect(merged.body.ProfileId).toBe(mine.ProfileId);
    expect((await applied(imported)).CustomerName.FirstName).toBe('Later');
  });

  it('alternate ids an import stores inactive are found with matchInactive=true only, as the Data API finds them', async () => {
    const [created, held, newLoyalty, oldLoyalty] = [fresh(), fresh(), fresh(), fresh()];
    // An existing profile holding an active Loyalty id, which the import deactivates.
    const first = await newImport();
    await stage(first, [
      record(held, {
        AlternateIds: [
          { AlternateIdType: 'CRM', AlternateId: held },
          { AlternateIdType: 'Loyalty', AlternateId: oldLoyalty },
        ],
      }),
    ]).expect(200);
    await execute(first).expect(202);
    await ended(first);
    const token = await newImport();
    await stage(token, [
      // A new profile (the batch path) with an inactive Loyalty id.
      record(created, {
        AlternateIds: [
          { AlternateIdType: 'CRM', AlternateId: created },
          { AlternateIdType: 'Loyalty', AlternateId: newLoyalty, IsActive: false },
        ],
      }),
      // A merge (the ordinary path) deactivating the held profile's Loyalty id.
      record(held, {
        AlternateIds: [
          { AlternateIdType: 'CRM', AlternateId: held },
          { AlternateIdType: 'Loyalty', AlternateId: oldLoyalty, IsActive: false },
        ],
      }),
    ]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 2 });
    const loyalty = (value: string, query = '') =>
      request(app.http)
        .get(`${v4()}/Profile/AlternateId?alternateIdType=Loyalty&alternateId=${value}${query}`)
        .set('Authorization', auth);
    const createdId = (await applied(created)).ProfileId;
    const heldId = (await applied(held)).ProfileId;
    for (const [value, profileId] of [
      [newLoyalty, createdId],
      [oldLoyalty, heldId],
    ] as const) {
      await loyalty(value).expect(404);
      expect((await loyalty(value, '&matchInactive=true').expect(200)).body.ProfileId).toBe(
        profileId,
      );
    }
  });

  it("a new profile's events, and a merge's, as after Data API writes (docs/events.md)", async () => {
    const id = fresh();
    const first = await newImport();
    await stage(first, [record(id)]).expect(200);
    await execute(first).expect(202);
    await ended(first);
    const profile = await applied(id);
    const events = async () =>
      (
        await request(app.http)
          .get(`${v4()}/Profile/${profile.ProfileId}/Events`)
          .set('Authorization', auth)
          .expect(200)
      ).body.Events as Array<Record<string, any>>;
    const created = await events();
    expect(created.map((event) => [event.EventId, event.EventType])).toEqual([
      [`${profile.ProfileId}-1-0`, 'profile.created'],
      [`${profile.ProfileId}-1-1`, 'contacts.alternateid.added'],
    ]);
    expect(created[0].Data).toMatchObject({
      ProfileId: profile.ProfileId,
      CustomerName: { FirstName: 'Ann' },
    });
    // A second import of the same id: a merge, the ordinary way.
    const second = await newImport();
    await stage(second, [record(id, { CustomerName: { FirstName: 'Bea' } })]).expect(200);
    await execute(second).expect(202);
    await ended(second);
    const merged = await eventually(async () => {
      const all = await events();
      return all.length > 2 ? all : undefined;
    });
    expect(merged.slice(2).map((event) => event.EventType)).toEqual([
      'profile.updated',
      'standardfield.firstname.updated',
    ]);
    expect(merged[3]).toMatchObject({
      Data: { FirstName: 'Bea' },
      PreviousData: { FirstName: 'Ann' },
    });
  });

  it('a new profile whose email is on a do-not-contact list gets the mark, as after a Data API create', async () => {
    const id = fresh();
    const list = await request(app.http)
      .post(`${v4()}/DoNotContactLists`)
      .set('Authorization', auth)
      .send({ Name: `Complaints ${id}`, ListType: 'Email' })
      .expect(201);
    await request(app.http)
      .post(`${v4()}/DoNotContactLists/${list.body.ListId}/Entries`)
      .set('Authorization', auth)
      .send({ Entries: [{ Value: `${id}@example.com`, Reason_Code: 'Complaint' }] })
      .expect(200);
    const token = await newImport();
    await stage(token, [
      record(id, { Emails: [{ EmailAddress: `${id}@example.com`, EmailAddressType: 'Personal' }] }),
    ]).expect(200);
    await execute(token).expect(202);
    await ended(token);
    const marked = await eventually(async () => {
      const profile = await applied(id);
      const preferences = (profile.Emails[0].EmailPreferences ?? []) as { FilterId: unknown }[];
      return preferences.some((p) => p.FilterId === programs.dnc.email.FilterId)
        ? profile
        : undefined;
    });
    expect(marked.Emails[0].EmailAddress).toBe(`${id}@example.com`);
  });

  it("a worker dying after a batch's new profiles are saved: the next run finishes them, and creates none twice", async () => {
    const ids = [fresh(), fresh(), fresh()];
    const token = await newImport();
    await stage(
      token,
      ids.map((id) => record(id, { ProfileTags: [{ Name: 'imported' }] })),
    ).expect(200);
    const [worker] = app.workers;
    const reached = worker
      .get(CrashPoints, { strict: false })
      .arm(CRASH_POINTS.importCreateAfterSave, { everyFlow: true }); // both slices of the batch
    await execute(token).expect(202);
    await reached;
    await app.killWorker(worker);
    expect((await status(token).expect(200)).body).toMatchObject({
      Status: 'Processing',
      Processed: 0,
    });
    // Saved, but not yet claimed: the alternate ids find nothing.
    await byAlternateId(ids[0]).expect(404);
    await app.api
      .get(RedisService)
      .client.del(`${app.settings.queuePrefix}:lease:${runLeaseName(tenant.clientId, token)}`);
    await app.startWorker();
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 3, Pending: 0 });
    const profileIds = [];
    for (const id of ids) {
      const profile = await applied(id);
      profileIds.push(profile.ProfileId);
      const doc = (await stored(profile.ProfileId))!;
      expect(doc.appliedSeq).toBe(1);
      expect(doc.importMarks).toEqual([{ accessToken: token, n: ids.indexOf(id) + 1 }]);
    }
    // One profile per record: no other profile of the tenant holds these ids.
    const holders = await app.api
      .get<Connection>(getConnectionToken())
      .collection('profiles')
      .find({ clientId: tenant.clientId, 'data.AlternateIds.AlternateId': { $in: ids } })
      .toArray();
    expect(holders.map((doc) => doc.profileId).sort()).toEqual([...profileIds].sort());
  }, 60_000);

  it('a stopping worker ends its run after the chunk at hand (not its slice): the next worker applies the rest', async () => {
    const ids = [fresh(), fresh()];
    const token = await newImport();
    // Two stages: two chunks, one record each.
    await stage(token, [record(ids[0])]).expect(200);
    await stage(token, [record(ids[1])]).expect(200);
    const [worker] = app.workers;
    const stall = worker
      .get(CrashPoints, { strict: false })
      .stall(CRASH_POINTS.importCreateAfterSave);
    await execute(token).expect(202);
    await stall.reached;
    // SIGTERM's path: the worker stops taking jobs and waits for the running one, which
    // then finishes chunk 1 and hands chunk 2 over instead of going on within its slice.
    const stopped = app.stopWorker(worker);
    stall.resume();
    await stopped;
    expect((await status(token).expect(200)).body).toMatchObject({
      Status: 'Processing',
      Processed: 1,
    });
    await app.startWorker();
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 2, Pending: 0 });
    for (const id of ids) expect((await applied(id)).AlternateIds[0].AlternateId).toBe(id);
  }, 60_000);

  it("a run builds each next chunk's new profiles while it applies a chunk: the same outcome as record order", async () => {
    const [a, b, c, d, heldId] = [fresh(), fresh(), fresh(), fresh(), fresh()];
    // A profile holding heldId already (a first import).
    const first = await newImport();
    await stage(first, [record(heldId)]).expect(200);
    await execute(first).expect(202);
    await ended(first);
    const holder = await applied(heldId);
    const token = await newImport();
    // Four stages: four chunks. Chunk 2 names a again (built ahead as new, it must merge
    // into the profile chunk 1 made) and chunk 3 a pair a profile held before the import.
    await stage(token, [record(a), record(b)]).expect(200);
    await stage(token, [record(c), record(a, { ProfileTags: [{ Name: 'again' }] })]).expect(200);
    await stage(token, [record(heldId, { ProfileTags: [{ Name: 'held' }] })]).expect(200);
    await stage(token, [record(d)]).expect(200);
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 6, Pending: 0 });
    const profiles = new Map<string, Record<string, any>>();
    for (const id of [a, b, c, d, heldId]) profiles.set(id, await applied(id));
    expect(profiles.get(a)!.ProfileTags.map((tag: { Name: string }) => tag.Name)).toEqual([
      'again',
    ]);
    expect(profiles.get(heldId)!.ProfileId).toBe(holder.ProfileId);
    expect(profiles.get(heldId)!.ProfileTags.map((tag: { Name: string }) => tag.Name)).toEqual([
      'held',
    ]);
    const writes = app.api.get<Connection>(getConnectionToken()).collection('profile_writes');
    for (const id of [b, c, d]) {
      // Created by the fast path (no write record), once.
      const doc = (await stored(profiles.get(id)!.ProfileId))!;
      expect(doc.appliedSeq).toBe(1);
      expect(await writes.findOne({ _id: `${doc._id}|1` } as object)).toBeNull();
    }
    expect((await stored(profiles.get(a)!.ProfileId))!.appliedSeq).toBe(2);
    // One profile per record's id.
    const holders = await app.api
      .get<Connection>(getConnectionToken())
      .collection('profiles')
      .find({
        clientId: tenant.clientId,
        state: 'active',
        'data.AlternateIds.AlternateId': { $in: [a, b, c, d, heldId] },
      })
      .toArray();
    expect(holders).toHaveLength(5);
  }, 60_000);

  it("a worker dying after a chunk saved the next chunk's ids: the next run creates that chunk's profiles under them, as they were built", async () => {
    const ids = [fresh(), fresh(), fresh(), fresh()];
    const token = await newImport();
    await stage(token, [record(ids[0]), record(ids[1])]).expect(200);
    await stage(token, [record(ids[2]), record(ids[3])]).expect(200);
    const [worker] = app.workers;
    const reached = worker.get(CrashPoints, { strict: false }).arm(CRASH_POINTS.bulkRunAfterChunk);
    await execute(token).expect(202);
    await reached;
    await app.killWorker(worker);
    const imports = app.api.get<Connection>(getConnectionToken()).collection('bulk_imports');
    const job = (await imports.findOne({ _id: `${tenant.clientId}|${token}` } as object))!;
    expect(job).toMatchObject({ appliedChunks: 1, processed: 2 });
    // The next chunk's ids, saved with the chunk done, and the instant they were built at.
    expect(job.newProfiles).toMatchObject({ chunk: 2, at: 0 });
    const saved = JSON.parse(job.newProfiles.ids) as { index: number; profileId: number }[];
    expect(saved.map(({ index }) => index)).toEqual([0, 1]);
    await app.api
      .get(RedisService)
      .client.del(`${app.settings.queuePrefix}:lease:${runLeaseName(tenant.clientId, token)}`);
    await app.startWorker();
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 4, Pending: 0 });
    const writes = app.api.get<Connection>(getConnectionToken()).collection('profile_writes');
    for (const [k, id] of ids.slice(2).entries()) {
      const profile = await applied(id);
      // Under the saved id, by the fast path (no write record), built at the saved instant.
      expect(profile.ProfileId).toBe(saved[k].profileId);
      const doc = (await stored(profile.ProfileId))!;
      expect(doc.appliedSeq).toBe(1);
      expect(doc.importMarks).toEqual([{ accessToken: token, n: k + 3 }]);
      expect(new Date(doc.createdAt).toISOString()).toBe(job.newProfiles.now);
      expect(await writes.findOne({ _id: `${doc._id}|1` } as object)).toBeNull();
    }
  }, 60_000);

  it('a worker dying mid-import on ordinary writes: the next run goes on from the saved progress and applies no record twice', async () => {
    const ids = [fresh(), fresh(), fresh()];
    // The profiles exist (a first import): the second import's records are merges.
    const first = await newImport();
    await stage(
      first,
      ids.map((id) => record(id)),
    ).expect(200);
    await execute(first).expect(202);
    await ended(first);
    const token = await newImport();
    await stage(
      token,
      ids.map((id) => record(id, { ProfileTags: [{ Name: 'second' }] })),
    ).expect(200);
    const [worker] = app.workers;
    const reached = worker.get(CrashPoints, { strict: false }).arm(CRASH_POINTS.bulkRunAfterRecord);
    await execute(token).expect(202);
    // Record 1 is accepted; the worker dies before the import saved its progress.
    await reached;
    await app.killWorker(worker);
    expect((await status(token).expect(200)).body).toMatchObject({
      Status: 'Processing',
      Processed: 0,
    });
    // Its run lease lapses (BULK_RUN_LEASE_MS); a new worker, and Execute queues the run again.
    await app.api
      .get(RedisService)
      .client.del(`${app.settings.queuePrefix}:lease:${runLeaseName(tenant.clientId, token)}`);
    await app.startWorker();
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 3, Pending: 0 });
    for (const id of ids) await applied(id);
    // Record 1 was accepted twice (before and after the crash) and applied once: its
    // profile took the create and two merges, the second passed over (no change, no history).
    const profile = await applied(ids[0]);
    const doc = (await stored(profile.ProfileId))!;
    expect(doc.appliedSeq).toBe(3);
    expect(doc.importMarks).toEqual([
      { accessToken: first, n: 1 },
      { accessToken: token, n: 1 },
    ]);
    // Applied twice, the profile would carry seq 3's acceptance time as its ModifiedDate.
    const writes = app.api.get<Connection>(getConnectionToken()).collection('profile_writes');
    const acceptedAt = async (seq: number) =>
      (
        (await writes.findOne({ _id: `${tenant.clientId}|${profile.ProfileId}|${seq}` } as object))!
          .acceptedAt as Date
      ).toISOString();
    expect(doc.data.Edited.ModifiedDate).toBe(await acceptedAt(2));
    expect(await acceptedAt(3)).not.toBe(await acceptedAt(2));
    expect(profile.ProfileTags.map((tag: { Name: string }) => tag.Name)).toContain('second');
  }, 60_000);
});

/** A profile or history answer with what differs between two profiles of one body taken out. */
function comparable(body: unknown, id: string): unknown {
  return JSON.parse(JSON.stringify(body).split(id).join('ID'), (key, value: unknown) =>
    key === 'ProfileId' || /Date(Time)?$/.test(key) || key === 'Id' ? undefined : value,
  );
}

describe('Bulk import: the daily import limit', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;

  beforeAll(async () => {
    app = await startTestApp({ workers: 0, env: { BULK_IMPORT_DAILY_LIMIT: '2' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app.close());

  it('answers 429 with Retry-After past the limit, takes no token, and lets the next in 24 hours later', async () => {
    const initiate = () =>
      request(app.http)
        .post(`/Profiles/v4/${tenant.clientId}/Bulk/Import`)
        .set('Authorization', auth)
        .send({ Name: 'Daily', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' });
    expect((await initiate().expect(201)).body.AccessToken).toBe(1);
    app.advance(HOUR);
    expect((await initiate().expect(201)).body.AccessToken).toBe(2);
    const refused = await initiate().expect(429);
    // The first Initiate leaves the rolling 24 hours 23 hours from now.
    expect(Number(refused.headers['retry-after'])).toBe(23 * 3600);
    expect(refused.body.Message).toContain('daily import limit');
    app.advance(23 * HOUR);
    expect((await initiate().expect(201)).body.AccessToken).toBe(3);
    await initiate().expect(429);
  });
});
