import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { createTestTenant, TestTenant } from '../harness/session';
import { startTestApp, TestApp } from '../harness/test-app';

describe('Do-not-contact lists', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  const url = (path: string, t: TestTenant = tenant) =>
    `/Profiles/v4/${t.clientId}/DoNotContactLists${path}`;
  const post = async (path: string, body: object, t: TestTenant = tenant) =>
    request(app.http)
      .post(url(path, t))
      .set('Authorization', await t.bearer())
      .send(body);
  const get = async (path: string, t: TestTenant = tenant) =>
    request(app.http)
      .get(url(path, t))
      .set('Authorization', await t.bearer());

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('creates lists with ids per client and lists them', async () => {
    const emails = await post('', { Name: 'Complaints', ListType: 'Email' }).then((r) =>
      r.status === 201 ? r.body : Promise.reject(new Error(JSON.stringify(r.body))),
    );
    expect(emails).toEqual({
      ListId: 1,
      Name: 'Complaints',
      ListType: 'Email',
      CreateDate: expect.any(String),
      CreatedBy: tenant.userId,
    });
    const phones = (await post('', { Name: 'National registry', ListType: 'Phone' })).body;
    expect(phones.ListId).toBe(2);
    expect((await get('')).body).toEqual({ DoNotContactLists: [emails, phones] });
    // Another tenant has its own ids and sees none of these.
    expect((await post('', { Name: 'Theirs', ListType: 'Phone' }, other)).body.ListId).toBe(1);
    expect((await get('', other)).body.DoNotContactLists).toHaveLength(1);
    expect((await get('/1/Entries', other)).body.Entries).toEqual([]);
  });

  it('refuses a bad list body, naming the field', async () => {
    const res = await post('', { Name: 'X', ListType: 'Fax' });
    expect(res.status).toBe(400);
    expect(res.body.Message).toContain('ListType');
    expect((await post('', { ListType: 'Email' })).status).toBe(400);
  });

  it('adds values (normalised, idempotent), pages entries and removes them', async () => {
    const list = (await post('', { Name: 'Opt-outs', ListType: 'Phone' })).body.ListId;
    const added = await post(`/${list}/Entries`, {
      Entries: [
        { Value: '+1 (555) 010-0001', Reason_Code: 'Complaint' },
        { Value: '555.010.0002' },
        { Value: '15550100001' },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ Added: 2, Unchanged: 1 });
    const again = await post(`/${list}/Entries`, { Entries: [{ Value: '555 010 0002' }] });
    expect(again.body).toEqual({ Added: 0, Unchanged: 1 });

    const first = (await get(`/${list}/Entries?limit=1`)).body;
    expect(first.Entries).toEqual([
      {
        Value: '+1 (555) 010-0001',
        Status: 'Listed',
        Reason_Code: 'Complaint',
        ModifiedDate: expect.any(String),
        ModifiedBy: tenant.userId,
        Propagation: expect.stringMatching(/^(Pending|Complete)$/),
      },
    ]);
    const second = (await get(`/${list}/Entries?limit=1&after=${first.Next}`)).body;
    expect(second.Entries.map((e: { Value: string }) => e.Value)).toEqual(['555.010.0002']);
    expect(second.Next).toBeUndefined();

    await request(app.http)
      .delete(url(`/${list}/Entries/${encodeURIComponent('(555) 010-0002')}`))
      .set('Authorization', await tenant.bearer())
      .expect(204);
    const after = (await get(`/${list}/Entries`)).body.Entries;
    expect(after.map((e: { Status: string }) => e.Status)).toEqual(['Listed', 'Removed']);
    // Removing again: not listed any more.
    await request(app.http)
      .delete(url(`/${list}/Entries/5550100002`))
      .set('Authorization', await tenant.bearer())
      .expect(404);
  });

  it('adds a request of many values, each once, however they repeat', async () => {
    const list = (await post('', { Name: 'Bulk', ListType: 'Email' })).body.ListId;
    // 60 distinct values, each given twice (the repeat 45 entries later, in another batch
    // of the ones stored together), then 30 already listed ones.
    const values = Array.from({ length: 60 }, (_, n) => `bulk${n}@example.com`);
    const repeated = [...values.slice(0, 45), ...values, ...values.slice(45)];
    const added = await post(`/${list}/Entries`, {
      Entries: repeated.map((Value) => ({ Value })),
    });
    expect(added.body).toEqual({ Added: 60, Unchanged: 60 });
    const again = await post(`/${list}/Entries`, {
      Entries: values.slice(0, 30).map((Value) => ({ Value: Value.toUpperCase() })),
    });
    expect(again.body).toEqual({ Added: 0, Unchanged: 30 });
    const listed = (await get(`/${list}/Entries?limit=100`)).body.Entries;
    expect(listed.map((e: { Value: string }) => e.Value).sort()).toEqual([...values].sort());
  });

  it('refuses a value of the wrong kind and stores nothing of the request', async () => {
    const list = (await post('', { Name: 'Mail bans', ListType: 'Email' })).body.ListId;
    const res = await post(`/${list}/Entries`, {
      Entries: [{ Value: 'ok@example.com' }, { Value: '555-0100' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.Message).toBe('Entries[1].Value (value "555-0100") is not an email address');
    expect((await get(`/${list}/Entries`)).body.Entries).toEqual([]);
  });

  it('answers 404 for an unknown list and 400 for a malformed list id', async () => {
    expect((await get('/999/Entries')).status).toBe(404);
    expect((await post('/999/Entries', { Entries: [{ Value: 'a@b.c' }] })).status).toBe(404);
    const bad = await get('/abc/Entries');
    expect(bad.status).toBe(400);
    expect(bad.body.Message).toContain('listId (value "abc")');
  });

  it('needs the preferences area', async () => {
    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(tenant.clientId, 'Profiles only', [
      { area: 'profiles', access: 'write' },
    ]);
    await admin.addUser({ clientId: tenant.clientId, userId: 'p', group: 'Profiles only' });
    const res = await request(app.http)
      .get(url(''))
      .set('Authorization', tenant.signed({ userId: 'p' }));
    expect(res.status).toBe(403);
  });
});
