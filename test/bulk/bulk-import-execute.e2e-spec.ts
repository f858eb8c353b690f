import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { RedisService } from '@app/shared';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { exceptionPageKey, importChunkKey, importKey } from '../../libs/bulk/src/keys';
import { BULK_IMPORT_CLEANUP } from '../../libs/bulk/src/worker/bulk.job-definitions';
import { runJob } from '../jobs/job-helpers';
import { HOUR, useImportSuite } from './import-helpers';

/**
 * Bulk import, Execute (docs/bulk.md): the worker applies the staged records as ordinary
 * profile writes; statuses, counters, exceptions found against stored profiles, Refresh*,
 * Delete, the older Async route, tokens and the cleanup of staged data, the daily limit.
 * New profiles by the batch path: bulk-import-new-profiles; a worker that dies or stops:
 * bulk-import-recovery. Real engine and Redis, one worker.
 */
describe('Bulk import: Execute', () => {
  const suite = useImportSuite();
  const {
    v4,
    base,
    fresh,
    record,
    newImport,
    stage,
    execute,
    status,
    exceptions,
    byAlternateId,
    ended,
    applied,
  } = suite;

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
    await request(suite.app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', suite.auth)
      .send(record(held, { CustomerName: { FirstName: 'Old', LastName: 'Kept' } }))
      .expect(202);
    await request(suite.app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', suite.auth)
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
      await request(suite.app.http)
        .post(`${v4()}/Profile`)
        .set('Authorization', suite.auth)
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

  it('Refresh* replaces the named collections of a matched profile instead of merging them', async () => {
    const id = fresh();
    await request(suite.app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', suite.auth)
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
    await request(suite.app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', suite.auth)
      .send(record(gone))
      .expect(202);
    const profileId = (await applied(gone)).ProfileId as number;
    const token = await newImport({ Operation: 'Delete' });
    await stage(token, [record(gone), record(unknown)]).expect(200);
    // The older route of the notes executes the same import.
    const res = await request(suite.app.http)
      .post(`/Profiles/v4/Async/${suite.tenant.clientId}/Import/${token}/Execute`)
      .set('Authorization', suite.auth)
      .expect(202);
    expect(res.body).toMatchObject({ AccessToken: token, Status: 'Queued' });
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 1, NotHonored: 1 });
    await eventually(async () => ((await byAlternateId(gone)).status === 404 ? true : undefined));
    await request(suite.app.http)
      .get(`${v4()}/Profile/${profileId}`)
      .set('Authorization', suite.auth)
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
    suite.app.advance(13 * HOUR);
    try {
      const res = await execute(expired).expect(401);
      expect(res.body.Message).toContain('expired');
      // Ended less than DataStageDuration (3) days ago: still readable.
      await status(token).expect(200);
      await exceptions(token).expect(200);
      suite.app.advance(3 * 24 * HOUR);
      await status(token).expect(401);
    } finally {
      suite.app.setNow(new Date());
    }
  });

  it('the cleanup removes staged data past its kept time by `_id`, then the import (401, then 404)', async () => {
    const engine = suite.app.api.get<Connection>(getConnectionToken());
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
        exists('bulk_import_chunks', importChunkKey(suite.tenant.clientId, token, 1)),
        exists('bulk_import_exceptions', exceptionPageKey(suite.tenant.clientId, token, 1)),
        exists('bulk_imports', importKey(suite.tenant.clientId, token)),
      ]);
    expect(await stored(idle)).toEqual([true, true, true]);
    try {
      // Past Expires: the idle import's data goes; the executed one is kept 2 days after its end.
      suite.app.advance(13 * HOUR);
      const first = await runJob(suite.app, BULK_IMPORT_CLEANUP);
      expect(first.outcome).toBe('ok');
      expect(await stored(idle)).toEqual([false, false, true]);
      expect(await stored(ran)).toEqual([true, true, true]);
      await status(idle).expect(401);
      await status(ran).expect(200);
      suite.app.advance(2 * 24 * HOUR);
      await runJob(suite.app, BULK_IMPORT_CLEANUP);
      expect(await stored(ran)).toEqual([false, false, true]);
      await status(ran).expect(401);
      // The documents themselves 30 days after their data.
      suite.app.advance(31 * 24 * HOUR);
      await runJob(suite.app, BULK_IMPORT_CLEANUP);
      expect(await stored(idle)).toEqual([false, false, false]);
      expect(await stored(ran)).toEqual([false, false, false]);
      await status(idle).expect(404);
    } finally {
      suite.app.setNow(new Date());
    }
  });

  it('a removal schedule Redis lost is rebuilt from the imports: their data still goes, each at its time', async () => {
    const engine = suite.app.api.get<Connection>(getConnectionToken());
    const exists = async (collection: string, _id: string) =>
      (await engine.collection(collection).findOne({ _id } as object)) !== null;
    const idle = await newImport();
    await stage(idle, [record(fresh())]).expect(200);
    const ran = await newImport({ DataStageDuration: 2 });
    await stage(ran, [record(fresh())]).expect(200);
    await execute(ran).expect(202);
    await ended(ran);
    const chunk = (token: number) =>
      exists('bulk_import_chunks', importChunkKey(suite.tenant.clientId, token, 1));
    // Redis loses the schedule and its marker (as a Redis without persistence that restarts).
    const redis = suite.app.api.get(RedisService);
    await redis.client.del(redis.key('bulk-removals'), redis.key('bulk-removals', 'built'));
    try {
      suite.app.advance(13 * HOUR);
      const first = await runJob(suite.app, BULK_IMPORT_CLEANUP);
      expect(first.outcome).toBe('ok');
      // Both imports (and those of earlier tests) were scheduled again by the rebuild.
      expect(first.counts!.rescheduled).toBeGreaterThanOrEqual(2);
      expect(await redis.client.exists(redis.key('bulk-removals', 'built'))).toBe(1);
      // Past Expires: the idle import's data goes; the executed one keeps its 2 days.
      expect([await chunk(idle), await chunk(ran)]).toEqual([false, true]);
      expect(await exists('bulk_imports', importKey(suite.tenant.clientId, idle))).toBe(true);
      // The marker is there: the next run rebuilds nothing.
      expect((await runJob(suite.app, BULK_IMPORT_CLEANUP)).counts!.rescheduled).toBe(0);
      suite.app.advance(2 * 24 * HOUR);
      await runJob(suite.app, BULK_IMPORT_CLEANUP);
      expect(await chunk(ran)).toBe(false);
      // A rebuild again after the data went: the records still wait their kept time.
      await redis.client.del(redis.key('bulk-removals'), redis.key('bulk-removals', 'built'));
      await runJob(suite.app, BULK_IMPORT_CLEANUP);
      expect(await exists('bulk_imports', importKey(suite.tenant.clientId, idle))).toBe(true);
      suite.app.advance(31 * 24 * HOUR);
      await runJob(suite.app, BULK_IMPORT_CLEANUP);
      expect(await exists('bulk_imports', importKey(suite.tenant.clientId, idle))).toBe(false);
      expect(await exists('bulk_imports', importKey(suite.tenant.clientId, ran))).toBe(false);
    } finally {
      suite.app.setNow(new Date());
    }
  });
});

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
