import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { CRASH_POINTS, CrashPoints, RedisService } from '@app/shared';
import { configureTestTenant, type TestPrograms, testPreference } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { exportPageKey, exportRunLeaseName } from '../../libs/bulk/src/keys';
import { BULK_EXPORT_EXPIRY } from '../../libs/bulk/src/worker/bulk-jobs';
import { runJob } from '../jobs/job-helpers';

const HOUR = 60 * 60 * 1000;
/** Rows per stored page in this suite (BULK_EXPORT_PAGE_ROWS): small, so exports take several runs. */
const PAGE_ROWS = 2;
const LEASE_MS = 2000;

type Row = Record<string, unknown> & { ProfileId: number };

/** Supertest keeps a body of an unknown media type as text with this parser (the response stream). */
const asText = ((res: IncomingMessage, done: (error: Error | null, body: string) => void) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => done(null, text));
}) as unknown as Parameters<request.Test['parse']>[0];

/** The Message of an error answer (the stream's parser keeps it as text). */
const messageOf = (body: unknown) =>
  (typeof body === 'string'
    ? (JSON.parse(body) as { Message: string })
    : (body as { Message: string })
  ).Message;

/** A local receiver of export callbacks: what it was POSTed, in order; answers 204. */
async function startCallbackReceiver() {
  const received: { path: string; type: string | undefined; body: unknown }[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        type: req.headers['content-type'],
        body: JSON.parse(text),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The Connectivity (Bulk) API's exports (docs/bulk-export.md), against the real engine,
 * Redis and one worker: Initiate and its refusals, Status, Rows (paging, keepAlive), the
 * NDJSON Stream, Commit, tokens of others and expired ones, the older routes, the
 * callback, LastDateTime and criteria, rows under concurrent writes, a worker dying.
 */
describe('Bulk export', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  let n = 0;
  const v4 = (clientId = tenant.clientId) => `/Profiles/v4/${clientId}`;
  const base = (clientId = tenant.clientId) => `${v4(clientId)}/Bulk/Export`;
  const fresh = () => `E-${Date.now().toString(36)}-${n++}`;

  const initiate = (body: object = {}, authorization = auth) =>
    request(app.http).post(base()).set('Authorization', authorization).send(body);
  const status = (token: number) =>
    request(app.http).get(`${base()}/${token}`).set('Authorization', auth);
  const rows = (token: number, query = '') =>
    request(app.http).get(`${base()}/${token}/Rows${query}`).set('Authorization', auth);
  const stream = (token: number, query = '') =>
    request(app.http)
      .get(`${base()}/${token}/Stream${query}`)
      .set('Authorization', auth)
      .buffer(true)
      .parse(asText);
  const commit = (token: number, query = '') =>
    request(app.http).post(`${base()}/${token}/Commit${query}`).set('Authorization', auth);

  /** A new export of the profiles saved since `since`; its token. */
  async function exported(body: object): Promise<number> {
    const res = await initiate(body);
    expect(res.status).toBe(201);
    return res.body.AccessToken as number;
  }
  /** The export once it is Complete. */
  const complete = (token: number) =>
    eventually(async () => {
      const res = await status(token);
      if (['Failed', 'Error'].includes(res.body.Status)) {
        throw new Error(`export ${token}: ${JSON.stringify(res.body)}`);
      }
      return res.body.Status === 'Complete' ? res.body : undefined;
    });
  const getProfile = (profileId: number) =>
    request(app.http).get(`${v4()}/Profile/${profileId}`).set('Authorization', auth);
  /** The profile once every write of it is applied (GET's answer). */
  const applied = (profileId: number) =>
    eventually(async () => {
      const res = await getProfile(profileId);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
  async function created(body: object = {}): Promise<number> {
    const res = await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Ann' }, ...body });
    expect(res.status).toBe(202);
    await applied(res.body.ProfileId);
    return res.body.ProfileId as number;
  }
  /** `count` new profiles, each applied, saved after the returned `since`. */
  async function newProfiles(count: number, body: (i: number) => object = () => ({})) {
    const since = new Date().toISOString();
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push(await created(body(i)));
    return { since, ids };
  }
  const db = () => app.api.get<Connection>(getConnectionToken());
  /** Stored page `page` of an export, read in the engine (null once removed). */
  const storedPage = (token: number, page = 1) =>
    db()
      .collection('bulk_export_pages')
      .findOne({ _id: exportPageKey(tenant.clientId, token, page) } as object);

  beforeAll(async () => {
    app = await startTestApp({
      workers: 1,
      env: { BULK_EXPORT_PAGE_ROWS: String(PAGE_ROWS), BULK_RUN_LEASE_MS: String(LEASE_MS) },
    });
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    other = await createTestTenant(app);
  });
  afterAll(() => app.close());

  it('refuses an Initiate naming the field and value, and takes no token then', async () => {
    const first = await exported({});
    const refusals: [object, RegExp][] = [
      [{ LastDateTime: 'yesterday' }, /^Invalid LastDateTime \(value "yesterday"\)/],
      [
        { MatchCriteria: 'AlternateID' },
        /^Invalid MatchType \(value missing\): MatchCriteria AlternateID needs/,
      ],
      [
        { MatchCriteria: 'AlternateID', MatchType: 'Nope' },
        /^Invalid MatchType \(value "Nope"\): not an active alternate id type/,
      ],
      [
        { MatchCriteria: 'EmailAddress', MatchType: 'CRM' },
        /^Invalid MatchType \(value "CRM"\): only MatchCriteria AlternateID/,
      ],
      [{ MatchCriteria: 'Email' }, /^Invalid MatchCriteria \(value "Email"\)/],
      [
        { CallbackURL: 'ftp://127.0.0.1/x' },
        /^Invalid CallbackURL \(value "ftp:\/\/127.0.0.1\/x"\): must be an http or https URL/,
      ],
      [
        { CallbackURL: 'not a url' },
        /^Invalid CallbackURL \(value "not a url"\): must be an absolute http or https URL/,
      ],
      [{ Bogus: 1 }, /Unknown field Bogus/],
    ];
    for (const [body, message] of refusals) {
      const res = await initiate(body);
      expect(res.status).toBe(400);
      expect(res.body.Message).toMatch(message);
    }
    expect(await exported({})).toBe(first + 1);
  });

  it('exports the profiles saved since LastDateTime: Processing, then Complete; rows in the GET shape with archived preferences', async () => {
    const before = await created();
    const solicit = programs.newsletter.solicit;
    const { since, ids } = await newProfiles(3, (i) =>
      i === 0
        ? {
            ProfilePreferences: [testPreference(solicit)],
            Emails: [
              {
                EmailAddress: `${fresh()}@example.com`,
                EmailAddressType: 'Personal',
                EmailPreferences: [testPreference(programs.newsletter.email)],
              },
            ],
          }
        : { CustomerName: { FirstName: `P${i}`, LastName: 'Row' } },
    );
    // Archived: no retrieval shows it any more; only the export does.
    await request(app.http)
      .put(`${v4()}/Profile/Preferences/${ids[0]}/Archive`)
      .set('Authorization', auth)
      .send({
        ProfilePreferences: [{ ProgramId: solicit.ProgramId, FilterId: solicit.FilterId }],
        Reason_Code: 'Moved',
      })
      .expect(204);
    const shown = await applied(ids[0]);
    expect(shown.ProfilePreferences).toEqual([]);

    const res = await initiate({ LastDateTime: since, SegmentName: 'Recent' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      Status: 'Processing',
      SegmentName: 'Recent',
      LastDateTime: since,
      MatchCriteria: null,
      CallbackURL: null,
      CallbackStatus: null,
    });
    const token = res.body.AccessToken as number;
    expect(res.headers.location).toBe(`${base()}/${token}`);
    const done = await complete(token);
    expect(done).toMatchObject({ RowCount: 3 });
    expect(Date.parse(done.Expires)).toBeGreaterThan(Date.now() + 23 * HOUR);

    const page = (await rows(token).expect(200)).body;
    expect(page).toMatchObject({ Count: 3, HasMore: false, Offset: 1, TotalResults: 3 });
    const got = page.UserProfilePreferences as Row[];
    expect(got.map((row) => row.ProfileId)).toEqual(ids);
    expect(got.map((row) => row.ProfileId)).not.toContain(before);
    for (const row of got.slice(1)) expect(row).toEqual(await applied(row.ProfileId));
    // The first: as GET shows it, plus its archived preference (IsActive false, its reason).
    const { ProfilePreferences: archived, ...rest } = got[0];
    const { ProfilePreferences: none, ...getRest } = shown;
    expect(none).toEqual([]);
    expect(rest).toEqual(getRest);
    expect(archived).toEqual([
      expect.objectContaining({
        ProgramId: solicit.ProgramId,
        FilterId: solicit.FilterId,
        IsActive: false,
        PreferenceAttributes: [{ Key: '$Reason_Code', Value: 'Moved' }],
      }),
    ]);
  });

  it('pages rows by offset (from 1) and limit across the stored pages; the NDJSON stream has every row', async () => {
    const { since, ids } = await newProfiles(5);
    const token = await exported({ LastDateTime: since });
    const done = await complete(token);
    expect(done.RowCount).toBe(5);
    const idsOf = (body: { UserProfilePreferences: Row[] }) =>
      body.UserProfilePreferences.map((row) => row.ProfileId);

    const first = (await rows(token, '?limit=2&keepAlive=true').expect(200)).body;
    expect(first).toMatchObject({ Count: 2, HasMore: true, Limit: 2, Offset: 1, TotalResults: 5 });
    expect(idsOf(first)).toEqual(ids.slice(0, 2));
    // Rows 2 to 4 lie on the first three stored pages (2 rows each).
    const middle = (await rows(token, '?offset=2&limit=3&keepAlive=true').expect(200)).body;
    expect(middle).toMatchObject({ Count: 3, HasMore: true, Offset: 2 });
    expect(idsOf(middle)).toEqual(ids.slice(1, 4));
    const last = (await rows(token, '?offset=5&limit=2&keepAlive=true').expect(200)).body;
    expect(last).toMatchObject({ Count: 1, HasMore: false });
    expect(idsOf(last)).toEqual([ids[4]]);
    const past = (await rows(token, '?offset=9&keepAlive=true').expect(200)).body;
    expect(past).toMatchObject({ Count: 0, HasMore: false, Limit: 500, TotalResults: 5 });
    for (const [query, message] of [
      ['?limit=0', /^Invalid limit \(value "0"\)/],
      ['?limit=1001', /^Invalid limit \(value "1001"\)/],
      ['?offset=0', /^Invalid offset \(value "0"\)/],
      ['?limit=', /^Invalid limit \(value ""\)/],
      ['?keepAlive=', /^Invalid keepAlive \(value ""\)/],
      ['?keepAlive=maybe', /^Invalid keepAlive \(value "maybe"\)/],
    ] as const) {
      const res = await rows(token, query);
      expect(res.status).toBe(400);
      expect(res.body.Message).toMatch(message);
    }

    const ndjson = await stream(token, '?keepAlive=true');
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const text = ndjson.body as string;
    expect(Buffer.byteLength(text)).toBe(done.ByteCount);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    const all = (await rows(token, '?keepAlive=true').expect(200)).body.UserProfilePreferences;
    expect(lines).toEqual(all);
    expect(lines.map((row) => row.ProfileId)).toEqual(ids);
    expect((await status(token)).body.Status).toBe('Complete');
  });

  it('keepAlive=true keeps it Complete and starts Expires again; read to the end without it, it is Retrieved and still readable', async () => {
    const { since } = await newProfiles(3);
    const token = await exported({ LastDateTime: since });
    const { Expires } = await complete(token);
    app.advance(HOUR);
    try {
      await rows(token, '?keepAlive=true').expect(200);
      const kept = (await status(token)).body;
      expect(kept.Status).toBe('Complete');
      expect(Date.parse(kept.Expires) - Date.parse(Expires)).toBeGreaterThanOrEqual(HOUR - 5000);
      // Not the end: still Complete.
      await rows(token, '?limit=1').expect(200);
      expect((await status(token)).body.Status).toBe('Complete');
      await rows(token, '?offset=2').expect(200);
      expect((await status(token)).body).toMatchObject({
        Status: 'Retrieved',
        Expires: kept.Expires,
      });
      expect((await rows(token).expect(200)).body.Count).toBe(3);
    } finally {
      app.advance(-HOUR);
    }
  });

  it('Commit: Retrieved, rows removed by _id (409 after); with keepFiles=true still readable', async () => {
    const { since } = await newProfiles(3);
    const removed = await exported({ LastDateTime: since });
    const kept = await exported({ LastDateTime: since });
    await complete(removed);
    await complete(kept);

    const res = await commit(removed).expect(200);
    expect(res.body).toMatchObject({ AccessToken: removed, Status: 'Retrieved', RowCount: 3 });
    const gone = await rows(removed).expect(409);
    expect(gone.body.Message).toContain('committed without keepFiles');
    await stream(removed).expect(409);
    const pages = db().collection('bulk_export_pages');
    await eventually(async () => {
      const left = await Promise.all(
        [1, 2].map((page) =>
          pages.findOne({ _id: exportPageKey(tenant.clientId, removed, page) } as object),
        ),
      );
      return left.every((doc) => doc === null) ? true : undefined;
    });
    // Committing again answers the same.
    expect((await commit(removed).expect(200)).body.Status).toBe('Retrieved');

    expect((await commit(kept, '?keepFiles=true').expect(200)).body.Status).toBe('Retrieved');
    expect((await rows(kept).expect(200)).body.Count).toBe(3);
    expect(
      await pages.findOne({ _id: exportPageKey(tenant.clientId, kept, 1) } as object),
    ).not.toBeNull();
  });

  it("an unknown token and another client's token: 404 on every route", async () => {
    const token = await exported({});
    await complete(token);
    const otherAuth = await other.bearer();
    const paths = (clientId: string, t: number) =>
      [
        ['get', `${base(clientId)}/${t}`],
        ['get', `${base(clientId)}/${t}/Rows`],
        ['get', `${base(clientId)}/${t}/Stream`],
        ['post', `${base(clientId)}/${t}/Commit`],
        ['get', `${v4(clientId)}/status/Token/${t}`],
        ['get', `${v4(clientId)}/export/Segment/${t}`],
        ['post', `${v4(clientId)}/export/Schedule/Commit/${t}`],
        ['get', `/Profiles/v4/Async/${clientId}/Export/${t}/Status`],
      ] as const;
    for (const [method, path, authorization] of [
      ...paths(tenant.clientId, 999_999).map((p) => [...p, auth] as const),
      // The other client has no export of this token: its own key finds nothing.
      ...paths(other.clientId, token).map((p) => [...p, otherAuth] as const),
    ]) {
      const res = await request(app.http)[method](path).set('Authorization', authorization);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body.Message).toMatch(/^No bulk export has AccessToken \d+$/);
    }
    expect((await status(token)).body.Status).toBe('Complete');
  });

  it('an expired export: Status Expired and its rows removed; Rows, Stream and Commit answer 401 without a challenge', async () => {
    const { since } = await newProfiles(1);
    const token = await exported({ LastDateTime: since });
    await complete(token);
    app.advance(25 * HOUR);
    try {
      for (const res of [await rows(token), await stream(token), await commit(token)]) {
        expect(res.status).toBe(401);
        expect(messageOf(res.body)).toMatch(new RegExp(`^AccessToken ${token} expired at `));
        expect(res.headers['www-authenticate']).toBeUndefined();
      }
      expect((await status(token).expect(200)).body.Status).toBe('Expired');
      await eventually(async () =>
        (await db()
          .collection('bulk_export_pages')
          .findOne({ _id: exportPageKey(tenant.clientId, token, 1) } as object)) === null
          ? true
          : undefined,
      );
    } finally {
      app.advance(-25 * HOUR);
    }
  });

  it('an export nobody touches after its Expires: the expiry sweep expires it, removes its rows, and a week later its record', async () => {
    const { since } = await newProfiles(1);
    const token = await exported({ LastDateTime: since });
    await complete(token);
    const page = () => storedPage(token);
    const stored = () =>
      db()
        .collection('bulk_exports')
        .findOne({ _id: `${tenant.clientId}|${token}` } as object);
    expect(await page()).not.toBeNull();
    // Before Expires the sweep leaves it as it is.
    await runJob(app, BULK_EXPORT_EXPIRY);
    expect((await stored())!.status).toBe('Complete');
    app.advance(25 * HOUR);
    try {
      const run = await runJob(app, BULK_EXPORT_EXPIRY);
      // This one, and those of the tests before that nobody read again.
      expect(run.counts!.expired).toBeGreaterThanOrEqual(1);
      // Read in the engine, not through a route (a request would expire it too).
      expect((await stored())!.status).toBe('Expired');
      await eventually(async () => ((await page()) === null ? true : undefined));
      await eventually(async () => ((await stored())?.purgedAt ? true : undefined));
      // The record stays a week (its status says Expired), then goes (404).
      const status = await request(app.http).get(`${base()}/${token}`).set('Authorization', auth);
      expect({ code: status.status, state: status.body.Status }).toEqual({
        code: 200,
        state: 'Expired',
      });
      await runJob(app, BULK_EXPORT_EXPIRY);
      expect(await stored()).not.toBeNull();
      app.advance(8 * 24 * HOUR);
      try {
        const run = await runJob(app, BULK_EXPORT_EXPIRY);
        expect(run.counts!.removed).toBeGreaterThanOrEqual(1);
        expect(await stored()).toBeNull();
        await request(app.http).get(`${base()}/${token}`).set('Authorization', auth).expect(404);
      } finally {
        app.advance(-8 * 24 * HOUR);
      }
    } finally {
      app.advance(-25 * HOUR);
    }
  });

  it('an expiry schedule Redis lost is rebuilt from the exports: an export past its Expires still expires and its rows go', async () => {
    const { since } = await newProfiles(1);
    const token = await exported({ LastDateTime: since });
    await complete(token);
    const page = () => storedPage(token);
    const redis = app.api.get(RedisService);
    await redis.client.del(
      redis.key('bulk-export-expiry'),
      redis.key('bulk-export-expiry', 'built'),
    );
    app.advance(25 * HOUR);
    try {
      const run = await runJob(app, BULK_EXPORT_EXPIRY);
      expect(run.counts!.rescheduled).toBeGreaterThanOrEqual(1);
      expect(await redis.client.exists(redis.key('bulk-export-expiry', 'built'))).toBe(1);
      const stored = await db()
        .collection('bulk_exports')
        .findOne({ _id: `${tenant.clientId}|${token}` } as object);
      expect(stored!.status).toBe('Expired');
      await eventually(async () => ((await page()) === null ? true : undefined));
      expect((await runJob(app, BULK_EXPORT_EXPIRY)).counts!.rescheduled).toBe(0);
    } finally {
      app.advance(-25 * HOUR);
    }
  });

  it('the older routes answer the notes’ shapes', async () => {
    const { since, ids } = await newProfiles(2);
    const created = await request(app.http)
      .post(`${v4()}/export/Segment/Weekly`)
      .set('Authorization', auth)
      .send({ LastDateTime: since });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['AccessToken']);
    const token = created.body.AccessToken as number;
    expect(Number.isInteger(token)).toBe(true);
    const done = await complete(token);
    expect(done).toMatchObject({ SegmentName: 'Weekly', RowCount: 2 });

    const byToken = await request(app.http)
      .get(`${v4()}/status/Token/${token}`)
      .set('Authorization', auth)
      .expect(200);
    expect(byToken.body).toEqual({
      AccessToken: token,
      Expires: done.Expires,
      Status: 'Complete',
      RowCount: 2,
      ByteCount: done.ByteCount,
    });
    const asynchronous = await request(app.http)
      .get(`/Profiles/v4/Async/${tenant.clientId}/Export/${token}/Status`)
      .set('Authorization', auth)
      .expect(200);
    expect(asynchronous.body).toEqual({
      AccessToken: token,
      Status: 'Complete',
      RowCount: 2,
      ByteCount: done.ByteCount,
    });
    const page = await request(app.http)
      .get(`${v4()}/export/Segment/${token}?limit=1&offset=2`)
      .set('Authorization', auth)
      .expect(200);
    expect(page.body).toMatchObject({
      Count: 1,
      HasMore: false,
      Limit: 1,
      Offset: 2,
      TotalResults: 2,
    });
    expect(page.body.UserProfilePreferences[0].ProfileId).toBe(ids[1]);
    // The legacy prefix serves them too.
    await request(app.http)
      .get(`/Profiles/v2/${tenant.clientId}/status/Token/${token}`)
      .set('Authorization', auth)
      .expect(200);
    const committed = await request(app.http)
      .post(`${v4()}/export/Schedule/Commit/${token}?keepFiles=true`)
      .set('Authorization', auth)
      .expect(200);
    expect(committed.body).toMatchObject({ AccessToken: token, Status: 'Retrieved' });
  });

  it('POSTs the status to the CallbackURL when Complete; a callback that fails does not fail the export', async () => {
    const receiver = await startCallbackReceiver();
    const { received, port } = receiver;
    try {
      const { since } = await newProfiles(1);
      const token = await exported({
        LastDateTime: since,
        CallbackURL: `http://127.0.0.1:${port}/done?x=1`,
      });
      const done = await complete(token);
      await eventually(async () => (received.length ? true : undefined));
      expect(received).toEqual([
        {
          path: '/done?x=1',
          type: 'application/json',
          body: { AccessToken: token, Status: 'Complete', RowCount: 1, ByteCount: done.ByteCount },
        },
      ]);
      await eventually(async () =>
        (await status(token)).body.CallbackStatus === 'Delivered' ? true : undefined,
      );
    } finally {
      await receiver.close();
    }
    // Nobody listens there now: three attempts, then given up; the export is Complete.
    const token = await exported({
      LastDateTime: new Date().toISOString(),
      CallbackURL: `http://127.0.0.1:${port}/gone`,
    });
    await complete(token);
    const failed = await eventually(async () => {
      const body = (await status(token)).body;
      return body.CallbackStatus === 'Failed' ? body : undefined;
    });
    expect(failed).toMatchObject({ Status: 'Complete', RowCount: 0 });
  }, 40_000);

  it('MatchCriteria: only profiles holding such an element, each row carrying its key', async () => {
    const email = `${fresh()}@example.com`;
    const crm = fresh();
    const { since, ids } = await newProfiles(
      3,
      (i) =>
        [
          {
            Emails: [
              { EmailAddress: `other-${email}`, EmailAddressType: 'Personal' },
              { EmailAddress: email, EmailAddressType: 'Personal', IsDefault: true },
            ],
          },
          { AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: crm }] },
          {},
        ][i],
    );
    const keyed = async (body: object) => {
      const token = await exported({ LastDateTime: since, ...body });
      await complete(token);
      return ((await rows(token).expect(200)).body.UserProfilePreferences as Row[]).map((row) => [
        row.ProfileId,
        row.MatchKey,
      ]);
    };
    expect(await keyed({ MatchCriteria: 'EmailAddress' })).toEqual([[ids[0], email]]);
    expect(await keyed({ MatchCriteria: 'AlternateID', MatchType: 'crm' })).toEqual([
      [ids[1], crm],
    ]);
    expect(await keyed({ MatchCriteria: 'PhoneNumber' })).toEqual([]);
    expect(await keyed({ MatchCriteria: 'ProfileID' })).toEqual(ids.map((id) => [id, String(id)]));
    expect(await keyed({})).toEqual(ids.map((id) => [id, undefined]));
  });

  it('under concurrent writes every row is one applied state of its profile (two fields written together agree)', async () => {
    const { since, ids } = await newProfiles(6, () => ({
      CustomerName: { FirstName: 'v0', LastName: 'v0' },
    }));
    let writing = true;
    let version = 0;
    const writer = (async () => {
      while (writing) {
        version++;
        const id = ids[version % ids.length];
        await request(app.http)
          .post(`${v4()}/Profile/${id}`)
          .set('Authorization', auth)
          .send({ CustomerName: { FirstName: `v${version}`, LastName: `v${version}` } })
          .expect(202);
      }
    })();
    let exports = 0;
    try {
      // Several exports while the writes go on (each of 3 pages, so of several runs).
      for (; exports < 3; exports++) {
        const token = await exported({ LastDateTime: since });
        await complete(token);
        const got = (await rows(token).expect(200)).body.UserProfilePreferences as {
          ProfileId: number;
          CustomerName: { FirstName: string; LastName: string };
        }[];
        expect(got.map((row) => row.ProfileId)).toEqual(ids);
        for (const row of got) expect(row.CustomerName.LastName).toBe(row.CustomerName.FirstName);
      }
    } finally {
      writing = false;
      await writer;
    }
    expect(version).toBeGreaterThan(exports);
    // Every write applied before the next test counts what was saved since its start.
    for (const id of ids) await applied(id);
  }, 60_000);

  it('a run that fails is retried from its saved progress (every row once); five failures in a row: Failed, and the callback says so', async () => {
    const crashPoints = app.workers[0].get(CrashPoints, { strict: false });
    // Two failed runs (Error), each after its page was written: the retries go on.
    const { since, ids } = await newProfiles(5);
    crashPoints.failNext(CRASH_POINTS.bulkExportAfterPage, 2);
    const recovered = await exported({ LastDateTime: since });
    expect((await complete(recovered)).RowCount).toBe(5);
    const got = (await rows(recovered).expect(200)).body.UserProfilePreferences as Row[];
    expect(got.map((row) => row.ProfileId)).toEqual(ids);

    const receiver = await startCallbackReceiver();
    const { port } = receiver;
    const received = () => receiver.received.map(({ body }) => body);
    try {
      crashPoints.failNext(CRASH_POINTS.bulkExportAfterPage, 5);
      const token = await exported({
        LastDateTime: since,
        CallbackURL: `http://127.0.0.1:${port}/failed`,
      });
      const failed = await eventually(async () => {
        const body = (await status(token)).body;
        return body.Status === 'Failed' ? body : undefined;
      });
      expect(failed).toMatchObject({ AccessToken: token, RowCount: 0 });
      await eventually(async () => (received().length ? true : undefined));
      expect(received()).toEqual([
        { AccessToken: token, Status: 'Failed', RowCount: 0, ByteCount: 0 },
      ]);
      const refused = await rows(token).expect(409);
      expect(refused.body.Message).toContain('Failed');
    } finally {
      crashPoints.disarmAll();
      await receiver.close();
    }
  }, 60_000);

  it('a worker dying between the end of an export and the queueing of its callback: the sweep queues it once its attempts would be over', async () => {
    const receiver = await startCallbackReceiver();
    const { port } = receiver;
    const received = () => receiver.received.map(({ body }) => body);
    const [worker] = app.workers;
    try {
      const reached = worker
        .get(CrashPoints, { strict: false })
        .arm(CRASH_POINTS.bulkExportAfterEnd);
      const { since } = await newProfiles(1);
      const token = await exported({
        LastDateTime: since,
        CallbackURL: `http://127.0.0.1:${port}/late`,
      });
      await reached;
      await app.killWorker(worker);
      await app.startWorker();
      const ended = (await status(token).expect(200)).body;
      expect(ended).toMatchObject({ Status: 'Complete', CallbackStatus: 'Pending' });
      // While its attempts could still be running, the sweep queues nothing.
      expect((await runJob(app, BULK_EXPORT_EXPIRY)).counts!.callbacks).toBe(0);
      app.advance(60_000);
      try {
        const run = await runJob(app, BULK_EXPORT_EXPIRY);
        expect(run.counts!.callbacks).toBeGreaterThanOrEqual(1);
        await eventually(async () =>
          (await status(token)).body.CallbackStatus === 'Delivered' ? true : undefined,
        );
        expect(received()).toEqual([
          { AccessToken: token, Status: 'Complete', RowCount: 1, ByteCount: ended.ByteCount },
        ]);
      } finally {
        app.advance(-60_000);
      }
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('a worker dying between a page and its save: the next run writes that page again; every profile once', async () => {
    const { since, ids } = await newProfiles(5);
    const [worker] = app.workers;
    const reached = worker
      .get(CrashPoints, { strict: false })
      .arm(CRASH_POINTS.bulkExportAfterPage);
    const token = await exported({ LastDateTime: since });
    // Page 1 is written; the worker dies before the export saved it.
    await reached;
    await app.killWorker(worker);
    expect((await status(token).expect(200)).body).toMatchObject({
      Status: 'Processing',
      RowCount: 0,
    });
    // Its run lease lapses; a new worker; a status read after a lease without progress
    // queues the run again.
    await app.api
      .get(RedisService)
      .client.del(
        `${app.settings.queuePrefix}:lease:${exportRunLeaseName(tenant.clientId, token)}`,
      );
    await app.startWorker();
    app.advance(LEASE_MS);
    try {
      await status(token).expect(200);
      const done = await complete(token);
      expect(done.RowCount).toBe(5);
      const got = (await rows(token).expect(200)).body.UserProfilePreferences as Row[];
      expect(got.map((row) => row.ProfileId)).toEqual(ids);
    } finally {
      app.advance(-LEASE_MS);
    }
  }, 60_000);
});
