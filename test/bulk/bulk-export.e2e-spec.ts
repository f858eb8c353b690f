import request from 'supertest';
import { testPreference } from '../harness/configuration';
import { eventually } from '../harness/test-app';
import { exportPageKey } from '../../libs/bulk/src/keys';
import { HOUR, type Row, useExportSuite } from './export-helpers';

/**
 * The Connectivity (Bulk) API's exports (docs/bulk-export.md), against the real engine,
 * Redis and one worker: Initiate and its refusals, Status, Rows (paging, keepAlive), the
 * NDJSON Stream, Commit, tokens of others, the older routes, LastDateTime and criteria.
 * Expiry: bulk-export-expiry.e2e-spec.ts; the callback, concurrent writes and a worker
 * dying: bulk-export-runs.e2e-spec.ts.
 */
describe('Bulk export', () => {
  const suite = useExportSuite();
  const {
    v4,
    base,
    fresh,
    initiate,
    status,
    rows,
    stream,
    commit,
    exported,
    complete,
    applied,
    created,
    newProfiles,
    db,
  } = suite;

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
    const solicit = suite.programs.newsletter.solicit;
    const { since, ids } = await newProfiles(3, (i) =>
      i === 0
        ? {
            ProfilePreferences: [testPreference(solicit)],
            Emails: [
              {
                EmailAddress: `${fresh()}@example.com`,
                EmailAddressType: 'Personal',
                EmailPreferences: [testPreference(suite.programs.newsletter.email)],
              },
            ],
          }
        : { CustomerName: { FirstName: `P${i}`, LastName: 'Row' } },
    );
    // Archived: no retrieval shows it any more; only the export does.
    await request(suite.app.http)
      .put(`${v4()}/Profile/Preferences/${ids[0]}/Archive`)
      .set('Authorization', suite.auth)
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
    suite.app.advance(HOUR);
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
      suite.app.advance(-HOUR);
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
          pages.findOne({ _id: exportPageKey(suite.tenant.clientId, removed, page) } as object),
        ),
      );
      return left.every((doc) => doc === null) ? true : undefined;
    });
    // Committing again answers the same.
    expect((await commit(removed).expect(200)).body.Status).toBe('Retrieved');

    expect((await commit(kept, '?keepFiles=true').expect(200)).body.Status).toBe('Retrieved');
    expect((await rows(kept).expect(200)).body.Count).toBe(3);
    expect(
      await pages.findOne({ _id: exportPageKey(suite.tenant.clientId, kept, 1) } as object),
    ).not.toBeNull();
  });

  it("an unknown token and another client's token: 404 on every route", async () => {
    const token = await exported({});
    await complete(token);
    const otherAuth = await suite.other.bearer();
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
      ...paths(suite.tenant.clientId, 999_999).map((p) => [...p, suite.auth] as const),
      // The other client has no export of this token: its own key finds nothing.
      ...paths(suite.other.clientId, token).map((p) => [...p, otherAuth] as const),
    ]) {
      const res = await request(suite.app.http)[method](path).set('Authorization', authorization);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body.Message).toMatch(/^No bulk export has AccessToken \d+$/);
    }
    expect((await status(token)).body.Status).toBe('Complete');
  });

  it('the older routes answer the notes’ shapes', async () => {
    const { since, ids } = await newProfiles(2);
    const created = await request(suite.app.http)
      .post(`${v4()}/export/Segment/Weekly`)
      .set('Authorization', suite.auth)
      .send({ LastDateTime: since });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['AccessToken']);
    const token = created.body.AccessToken as number;
    expect(Number.isInteger(token)).toBe(true);
    const done = await complete(token);
    expect(done).toMatchObject({ SegmentName: 'Weekly', RowCount: 2 });

    const byToken = await request(suite.app.http)
      .get(`${v4()}/status/Token/${token}`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(byToken.body).toEqual({
      AccessToken: token,
      Expires: done.Expires,
      Status: 'Complete',
      RowCount: 2,
      ByteCount: done.ByteCount,
    });
    const asynchronous = await request(suite.app.http)
      .get(`/Profiles/v4/Async/${suite.tenant.clientId}/Export/${token}/Status`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(asynchronous.body).toEqual({
      AccessToken: token,
      Status: 'Complete',
      RowCount: 2,
      ByteCount: done.ByteCount,
    });
    const page = await request(suite.app.http)
      .get(`${v4()}/export/Segment/${token}?limit=1&offset=2`)
      .set('Authorization', suite.auth)
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
    await request(suite.app.http)
      .get(`/Profiles/v2/${suite.tenant.clientId}/status/Token/${token}`)
      .set('Authorization', suite.auth)
      .expect(200);
    const committed = await request(suite.app.http)
      .post(`${v4()}/export/Schedule/Commit/${token}?keepFiles=true`)
      .set('Authorization', suite.auth)
      .expect(200);
    expect(committed.body).toMatchObject({ AccessToken: token, Status: 'Retrieved' });
  });

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
});
