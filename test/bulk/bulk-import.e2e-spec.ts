import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, fetchBearer, type TestTenant } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';
import { LeaseService } from '@app/shared';
import { decodeStagedRecords } from '../../libs/bulk/src/domain/bulk-import.schema';
import { importChunkKey, stageLeaseName } from '../../libs/bulk/src/keys';

/** The stage body limit of this suite (BULK_STAGE_MAX_BYTES): above the api's 1 MiB default. */
const STAGE_LIMIT = 2_500_000;
const HOUR = 60 * 60 * 1000;

/**
 * The Connectivity (Bulk) API's imports, first slice: Initiate, Stage, Status, Exceptions
 * (docs/bulk.md), against the real engine and Redis.
 */
describe('Bulk import: Initiate, Stage, Status, Exceptions', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let n = 0;
  const base = (clientId = tenant.clientId) => `/Profiles/v4/${clientId}/Bulk/Import`;
  const fresh = () => `Bulk-${Date.now().toString(36)}-${n++}`;
  const record = (alternateId: string, extra: object = {}) => ({
    CustomerType: 'Customer',
    CustomerName: { FirstName: 'Ann' },
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: alternateId }],
    ...extra,
  });

  const initiate = (body: object, authorization = auth) =>
    request(app.http).post(base()).set('Authorization', authorization).send(body);
  const stage = (token: number, body: unknown, authorization = auth) =>
    request(app.http)
      .post(`${base()}/${token}/Stage`)
      .set('Authorization', authorization)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body));
  const status = (token: number) =>
    request(app.http).get(`${base()}/${token}`).set('Authorization', auth);
  const exceptions = (token: number, query = '') =>
    request(app.http).get(`${base()}/${token}/Exceptions${query}`).set('Authorization', auth);

  async function newImport(body: object = {}): Promise<number> {
    const res = await initiate({
      Name: 'Customers',
      MatchCriteria: 'AlternateIdType',
      MatchValue: 'CRM',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.AccessToken as number;
  }

  const start = (env: Record<string, string> = {}) =>
    startTestApp({ workers: 0, env: { BULK_STAGE_MAX_BYTES: String(STAGE_LIMIT), ...env } });

  beforeAll(async () => {
    app = await start();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    other = await createTestTenant(app);
  });
  afterAll(() => app.close());

  describe('Initiate', () => {
    it('answers 201 with an integer AccessToken, Initiated, Expires in 12 hours, the defaults and zero counters', async () => {
      const res = await initiate({
        Name: 'Day one',
        MatchCriteria: 'AlternateIdType',
        MatchValue: 'crm',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        AccessToken: expect.any(Number),
        Name: 'Day one',
        Status: 'Initiated',
        Expires: expect.any(String),
        Created: expect.any(String),
        DataStageDuration: 3,
        MatchCriteria: 'AlternateIdType',
        MatchValue: 'crm',
        Operation: 'Add',
        AllowPriorConsents: false,
        RefreshAlternateIds: false,
        RefreshContacts: false,
        RefreshCustomFields: false,
        RefreshGroups: false,
        RefreshTags: false,
        TotalRecordsReceived: 0,
        ValidationSuccessful: 0,
        ValidationFailed: 0,
        Processed: 0,
        Pending: 0,
        Exceptions: 0,
        NotHonored: 0,
      });
      expect(Number.isInteger(res.body.AccessToken)).toBe(true);
      expect(Date.parse(res.body.Expires) - Date.parse(res.body.Created)).toBe(12 * HOUR);
    });

    it('echoes what it was given; each import gets a new token', async () => {
      const body = {
        Name: 'Deletes',
        DataStageDuration: 0,
        MatchCriteria: 'AlternateIdType',
        MatchValue: 'Loyalty',
        Operation: 'Delete',
        AllowPriorConsents: true,
        RefreshAlternateIds: true,
        RefreshContacts: true,
        RefreshCustomFields: true,
        RefreshGroups: true,
        RefreshTags: true,
      };
      const first = await initiate(body);
      const second = await initiate(body);
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(first.body).toMatchObject(body);
      expect(second.body.AccessToken).toBeGreaterThan(first.body.AccessToken);
    });

    it('refuses bad input with 400 naming the field and value, and takes no token', async () => {
      const before = await newImport();
      const valid = { Name: 'x', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' };
      const cases: [object, RegExp][] = [
        [{ ...valid, Name: undefined }, /Name/],
        [{ ...valid, Name: 'x'.repeat(101) }, /Name/],
        [{ ...valid, DataStageDuration: 11 }, /DataStageDuration \(value 11\)/],
        [{ ...valid, MatchCriteria: 'EmailAddress' }, /MatchCriteria \(value "EmailAddress"\)/],
        [{ ...valid, MatchValue: 'Passport' }, /MatchValue \(value "Passport"\)/],
        [{ ...valid, Operation: 'Merge' }, /Operation \(value "Merge"\)/],
        [{ ...valid, RefreshTags: 'yes' }, /RefreshTags \(value "yes"\)/],
        [{ ...valid, Unknown: 1 }, /Unknown field Unknown/],
      ];
      for (const [body, message] of cases) {
        const res = await initiate(body);
        expect([res.status, Object.keys(res.body)]).toEqual([400, ['Message']]);
        expect(res.body.Message).toMatch(message);
      }
      expect(await newImport()).toBe(before + 1);
    });
  });

  describe('Stage, Status and Exceptions', () => {
    it('stages valid records, turns invalid ones into exceptions with their reasons, counts both', async () => {
      const token = await newImport();
      const ids = [fresh(), fresh(), fresh()];
      const res = await stage(token, [
        record(ids[0]),
        record(ids[1], { Bogus: 1 }),
        {
          CustomerType: 'Customer',
          AlternateIds: [{ AlternateIdType: 'Loyalty', AlternateId: 'L' }],
        },
        record(ids[2], { CustomerType: 'Martian' }),
        'not an object',
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        AccessToken: token,
        Status: 'Staging',
        TotalRecordsReceived: 5,
        ValidationSuccessful: 1,
        ValidationFailed: 4,
        Exceptions: 4,
        Pending: 1,
        Processed: 0,
      });
      const status1 = await status(token);
      expect(status1.status).toBe(200);
      expect(status1.body).toEqual(res.body);

      const page = await exceptions(token);
      expect(page.status).toBe(200);
      expect(page.body).toEqual({
        Count: 4,
        HasMore: false,
        Limit: 1000,
        Offset: 1,
        TotalResults: 4,
        Exceptions: [
          {
            RecordNumber: 2,
            Stage: 1,
            Index: 1,
            AlternateId: ids[1],
            Reason: 'Unknown field Bogus',
          },
          {
            RecordNumber: 3,
            Stage: 1,
            Index: 2,
            AlternateId: null,
            Reason: expect.stringMatching(/no active AlternateId of type "CRM"/),
          },
          {
            RecordNumber: 4,
            Stage: 1,
            Index: 3,
            AlternateId: ids[2],
            Reason: expect.stringMatching(/CustomerType.*"Martian"/),
          },
          {
            RecordNumber: 5,
            Stage: 1,
            Index: 4,
            AlternateId: null,
            Reason: 'The record is not a JSON object (value "not an object")',
          },
        ],
      });

      // A second stage numbers on and adds to the counters.
      const again = await stage(token, [record(fresh()), record(fresh(), { Bogus: 2 })]);
      expect(again.body).toMatchObject({
        TotalRecordsReceived: 7,
        ValidationSuccessful: 2,
        ValidationFailed: 5,
        Exceptions: 5,
      });
      const last = await exceptions(token, '?offset=5');
      expect(last.body).toMatchObject({ Count: 1, HasMore: false, TotalResults: 5, Offset: 5 });
      expect(last.body.Exceptions).toEqual([
        expect.objectContaining({
          RecordNumber: 7,
          Stage: 2,
          Index: 1,
          Reason: 'Unknown field Bogus',
        }),
      ]);
    });

    it('pages exceptions with limit and offset across stored pages (HasMore, TotalResults)', async () => {
      const token = await newImport();
      // 520 refused records: more than one stored page of 500.
      const records = Array.from({ length: 520 }, (_, i) => record(`bad-${i}`, { Bogus: i }));
      expect((await stage(token, records)).body).toMatchObject({ ValidationFailed: 520 });
      const page = await exceptions(token, '?limit=10&offset=495');
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({
        Count: 10,
        HasMore: true,
        Limit: 10,
        Offset: 495,
        TotalResults: 520,
      });
      expect(page.body.Exceptions.map((e: { RecordNumber: number }) => e.RecordNumber)).toEqual(
        Array.from({ length: 10 }, (_, i) => 495 + i),
      );
      expect(page.body.Exceptions.map((e: { AlternateId: string }) => e.AlternateId)).toEqual(
        Array.from({ length: 10 }, (_, i) => `bad-${494 + i}`),
      );
      const end = await exceptions(token, '?limit=1000&offset=511');
      expect(end.body).toMatchObject({ Count: 10, HasMore: false, TotalResults: 520 });
      const past = await exceptions(token, '?offset=600');
      expect(past.body).toMatchObject({
        Count: 0,
        HasMore: false,
        TotalResults: 520,
        Exceptions: [],
      });
      for (const query of ['?limit=0', '?limit=1001', '?offset=0', '?offset=x']) {
        const bad = await exceptions(token, query);
        expect([query, bad.status]).toEqual([query, 400]);
        expect(bad.body.Message).toMatch(/limit|offset/);
      }
    });

    it('a body that is not an array: 400, nothing counted', async () => {
      const token = await newImport();
      const res = await stage(token, record(fresh()));
      expect(res.status).toBe(400);
      expect(res.body.Message).toMatch(/JSON array of profile records \(value of type object\)/);
      expect((await status(token)).body).toMatchObject({
        Status: 'Initiated',
        TotalRecordsReceived: 0,
      });
    });

    it("an unknown token, or another client's: 404 on every route", async () => {
      const token = await newImport();
      const otherAuth = await other.bearer();
      const theirs = (path: string) =>
        request(app.http)
          .get(`${base(other.clientId)}/${token}${path}`)
          .set('Authorization', otherAuth);
      expect((await theirs('')).status).toBe(404);
      expect((await theirs('/Exceptions')).status).toBe(404);
      const theirStage = await request(app.http)
        .post(`${base(other.clientId)}/${token}/Stage`)
        .set('Authorization', otherAuth)
        .send([record(fresh())]);
      expect(theirStage.status).toBe(404);
      expect(theirStage.body).toEqual({ Message: `No bulk import has AccessToken ${token}` });
      const unknown = 2_000_000_000;
      expect((await status(unknown)).status).toBe(404);
      expect((await exceptions(unknown)).status).toBe(404);
      expect((await stage(unknown, [])).status).toBe(404);
      // Theirs untouched.
      expect((await status(token)).body).toMatchObject({ TotalRecordsReceived: 0 });
    });

    it('a body over BULK_STAGE_MAX_BYTES: 413 in the error shape; one over 1 MiB but under it is taken', async () => {
      const token = await newImport();
      const wide = (count: number) =>
        Array.from({ length: count }, (_, i) => record(`wide-${i}`, { Bogus: 'x'.repeat(9000) }));
      const taken = await stage(token, wide(200)); // about 1.8 MB
      expect(taken.status).toBe(200);
      expect(taken.body).toMatchObject({ TotalRecordsReceived: 200 });
      const refused = await stage(token, wide(300)); // about 2.7 MB
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ Message: expect.any(String) });
      expect((await status(token)).body).toMatchObject({ TotalRecordsReceived: 200 });
      // Other routes keep the 1 MiB default.
      const big = await initiate({
        Name: 'x',
        MatchCriteria: 'AlternateIdType',
        MatchValue: 'CRM',
        Pad: 'x'.repeat(1_100_000),
      });
      expect(big.status).toBe(413);
    });

    it('permissions: profiles write to initiate and stage, read for status', async () => {
      const token = await newImport();
      const admin = app.api.get(TenantAdminService);
      await admin.defineUserGroup(tenant.clientId, 'Bulk viewers', [
        { area: 'profiles', access: 'read' },
      ]);
      await admin.addUser({
        clientId: tenant.clientId,
        userId: 'bulk-viewer',
        group: 'Bulk viewers',
      });
      const viewer = await fetchBearer(app, tenant, 'bulk-viewer');
      const refused = await initiate(
        { Name: 'x', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' },
        viewer,
      );
      expect(refused.status).toBe(403);
      expect((await stage(token, [record(fresh())], viewer)).status).toBe(403);
      const read = await request(app.http).get(`${base()}/${token}`).set('Authorization', viewer);
      expect([read.status, read.body.TotalRecordsReceived]).toEqual([200, 0]);
    });

    it("records the caller's user group may not write are exceptions naming what is not permitted", async () => {
      const token = await newImport();
      const admin = app.api.get(TenantAdminService);
      await admin.defineUserGroup(
        tenant.clientId,
        'Tier desk',
        [{ area: 'profiles', access: 'write' }],
        { customFields: ['Tier'] },
      );
      await admin.addUser({ clientId: tenant.clientId, userId: 'tier-desk', group: 'Tier desk' });
      const desk = await fetchBearer(app, tenant, 'tier-desk');
      const [allowed, hidden] = [fresh(), fresh()];
      const res = await stage(
        token,
        [
          record(allowed, { CustomFields: [{ Name: 'Tier', Value: 'Gold' }] }),
          record(hidden, { CustomFields: [{ Name: 'Hidden', Value: 'x' }] }),
        ],
        desk,
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ValidationSuccessful: 1, ValidationFailed: 1 });
      const page = await exceptions(token);
      expect(page.body.Exceptions).toEqual([
        expect.objectContaining({
          RecordNumber: 2,
          AlternateId: hidden,
          Reason: expect.stringMatching(/^Not permitted: .*Hidden/),
        }),
      ]);
    });

    it('one Stage of an import at a time: 409 while another holds it, nothing counted', async () => {
      const token = await newImport();
      const lease = app.api.get(LeaseService);
      const name = stageLeaseName(tenant.clientId, token);
      const held = await lease.acquire(name, 30_000);
      expect(held).not.toBeNull();
      try {
        const res = await stage(token, [record(fresh())]);
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          Message: `Another Stage of AccessToken ${token} is running; stage again when it has answered`,
        });
      } finally {
        await lease.release(name, held!);
      }
      expect((await status(token)).body).toMatchObject({ TotalRecordsReceived: 0 });
      expect((await stage(token, [record(fresh())])).body).toMatchObject({
        TotalRecordsReceived: 1,
      });
    });

    it('an expired token: 401 on Stage, Status and Exceptions, without a challenge', async () => {
      const token = await newImport();
      await stage(token, [record(fresh())]);
      app.advance(12 * HOUR);
      try {
        for (const res of [
          await stage(token, [record(fresh())]),
          await status(token),
          await exceptions(token),
        ]) {
          expect(res.status).toBe(401);
          expect(res.body.Message).toMatch(new RegExp(`^AccessToken ${token} expired at `));
          expect(res.headers['www-authenticate']).toBeUndefined();
        }
      } finally {
        app.advance(-12 * HOUR);
      }
      expect((await status(token)).body).toMatchObject({ TotalRecordsReceived: 1 });
    });
  });

  describe('Stage as newline-delimited JSON (application/x-ndjson)', () => {
    const ndjson = (token: number, text: string) =>
      request(app.http)
        .post(`${base()}/${token}/Stage`)
        .set('Authorization', auth)
        .set('Content-Type', 'application/x-ndjson')
        .send(text);

    it('reads one record per line, past the 1000 of an array; unreadable lines become exceptions', async () => {
      const token = await newImport();
      const ids = Array.from({ length: 1200 }, () => fresh());
      const lines = [
        ...ids.slice(0, 600).map((id) => JSON.stringify(record(id))),
        '',
        '{"CustomerType": "Customer", ', // not JSON
        ...ids
          .slice(600)
          .map((id) => JSON.stringify(record(id, { CustomerName: { FirstName: 'Zoë 😀' } }))),
        JSON.stringify({ CustomerType: 'Customer' }), // no CRM id
      ];
      const res = await ndjson(token, `${lines.join('\n')}\n`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        Status: 'Staging',
        TotalRecordsReceived: 1202,
        ValidationSuccessful: 1200,
        ValidationFailed: 2,
        Exceptions: 2,
      });
      const page = (await exceptions(token)).body;
      expect(page.Exceptions).toEqual([
        expect.objectContaining({ RecordNumber: 601, Stage: 1, Index: 600, AlternateId: null }),
        expect.objectContaining({ RecordNumber: 1202, Stage: 1, Index: 1201, AlternateId: null }),
      ]);
      expect(page.Exceptions[0].Reason).toMatch(/^Line 602 is not a JSON record/);
      expect(page.Exceptions[1].Reason).toContain('no active AlternateId of type "CRM"');
      // Stored as chunks of 500 in record order, by `_id`, each record as its JSON text.
      const chunks = app.api.get<Connection>(getConnectionToken()).collection<{
        _id: string;
        records: string[];
      }>('bulk_import_chunks');
      const numbers = async (chunk: number) => {
        const stored = await chunks.findOne({ _id: importChunkKey(tenant.clientId, token, chunk) });
        expect(stored?.records.every((text) => typeof text === 'string') ?? true).toBe(true);
        return stored && decodeStagedRecords(stored.records).map((staged) => staged.n);
      };
      const all = [
        ...((await numbers(1)) ?? []),
        ...((await numbers(2)) ?? []),
        ...((await numbers(3)) ?? []),
      ];
      expect([
        (await numbers(1))?.length,
        (await numbers(2))?.length,
        (await numbers(3))?.length,
      ]).toEqual([500, 500, 200]);
      expect(all).toEqual([
        ...Array.from({ length: 600 }, (_, i) => i + 1),
        ...Array.from({ length: 600 }, (_, i) => i + 602),
      ]);
      const last = await chunks.findOne({ _id: importChunkKey(tenant.clientId, token, 3) });
      const [first] = decodeStagedRecords(last!.records);
      expect((first.body as { CustomerName: { FirstName: string } }).CustomerName.FirstName).toBe(
        'Zoë 😀',
      );
    });

    it('a body over BULK_STAGE_MAX_BYTES: 413, and nothing of it is counted', async () => {
      const token = await newImport();
      await ndjson(token, JSON.stringify(record(fresh()))).expect(200);
      const line = JSON.stringify(record('big', { Bogus: 'x'.repeat(9000) }));
      const refused = await ndjson(token, Array.from({ length: 300 }, () => line).join('\n'));
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ Message: expect.stringContaining('BULK_STAGE_MAX_BYTES') });
      expect((await status(token)).body).toMatchObject({ TotalRecordsReceived: 1, Exceptions: 0 });
    });

    it('another media type on Stage: 415 naming the two it takes', async () => {
      const token = await newImport();
      const res = await request(app.http)
        .post(`${base()}/${token}/Stage`)
        .set('Authorization', auth)
        .set('Content-Type', 'text/plain')
        .send('[]');
      expect(res.status).toBe(415);
      expect(res.body.Message).toContain('application/json or application/x-ndjson');
    });
  });

  it('staged records and exceptions survive a restart of the api, stored in order by _id', async () => {
    const token = await newImport();
    const ids = [fresh(), fresh()];
    await stage(token, [record(ids[0]), record('x', { Bogus: true })]);
    const before = (await status(token)).body;

    const { MONGODB_URI, JWT_SECRET, QUEUE_PREFIX } = app.settings.env as Record<string, string>;
    await app.close();
    app = await start({ MONGODB_URI, JWT_SECRET, QUEUE_PREFIX });

    expect((await status(token)).body).toEqual(before);
    expect((await exceptions(token)).body).toMatchObject({ TotalResults: 1, Count: 1 });
    const more = await stage(token, [record(ids[1])]);
    expect(more.body).toMatchObject({ TotalRecordsReceived: 3, ValidationSuccessful: 2 });

    const db = app.api.get<Connection>(getConnectionToken());
    const chunks = db.collection<{ _id: string; records: string[] }>('bulk_import_chunks');
    const read = async (chunk: number) => {
      const stored = await chunks.findOne({ _id: importChunkKey(tenant.clientId, token, chunk) });
      return stored
        ? decodeStagedRecords(stored.records).map((staged) => [
            staged.n,
            (staged.body as { AlternateIds: { AlternateId: string }[] }).AlternateIds[0]
              .AlternateId,
          ])
        : undefined;
    };
    expect(await read(1)).toEqual([[1, ids[0]]]);
    expect(await read(2)).toEqual([[3, ids[1]]]);
    expect(await read(3)).toBeUndefined();
  });
});
