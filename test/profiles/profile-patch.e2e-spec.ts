import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/**
 * PATCH /{clientId}/Profile/{profileId}: JSON Patch on the profile's GET shape, queued in
 * order with the profile's writes, answered when applied (200), refused (400) or still
 * queued after the wait bound (202).
 */
describe('Profile PATCH by id', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app.close());

  const get = (id: number) => request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
  const patch = (id: number, body: unknown) =>
    request(app.http)
      .patch(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json-patch+json')
      .send(JSON.stringify(body));
  const updates = async (id: number) =>
    (await request(app.http).get(`${base()}/${id}/Updates`).set('Authorization', auth).expect(200))
      .body.Updates as { Operation: string; Status: string; FailureReason?: string }[];
  const complete = (id: number) =>
    eventually(async () => {
      const res = await get(id);
      return res.body.UpdateStatus === 'Complete' ? (res.body as Record<string, any>) : undefined;
    });

  async function create(body: object = {}): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
        Emails: [
          { EmailAddress: 'a@example.com', IsDefault: true },
          { EmailAddress: 'b@example.com', IsDefault: false },
        ],
        ProfileTags: [{ Name: 'vip' }],
        ...body,
      })
      .expect(202);
    await complete(res.body.ProfileId);
    return res.body.ProfileId as number;
  }

  it('applies add, replace, remove and test on standard fields and nested collections', async () => {
    const id = await create();
    const res = await patch(id, [
      { op: 'test', path: '/CustomerName/FirstName', value: 'Ann' },
      { op: 'replace', path: '/CustomerName/FirstName', value: 'Anna' },
      { op: 'add', path: '/DefaultLocale', value: 'fr-ca' },
      { op: 'replace', path: '/Emails/0/EmailAddress', value: 'a2@example.com' },
      { op: 'add', path: '/ProfileTags/-', value: { Name: 'gold' } },
      { op: 'add', path: '/CustomFields', value: [{ Name: 'Tier', Value: 'Gold' }] },
      { op: 'remove', path: '/CustomerName/LastName' },
    ]).expect(200);
    expect(res.body.ProfileId).toBe(id);
    expect(res.body.CustomerName).toEqual({ FirstName: 'Anna' });
    expect(res.body.DefaultLocale).toBe('fr-ca');
    expect(res.body.Emails.map((e: { EmailAddress: string }) => e.EmailAddress)).toEqual([
      'a2@example.com',
      'b@example.com',
    ]);
    expect(res.body.ProfileTags).toEqual([{ Name: 'vip' }, { Name: 'gold' }]);
    expect(res.body.CustomFields).toEqual([
      expect.objectContaining({ Name: 'Tier', Value: 'Gold' }),
    ]);
    const stored = await complete(id);
    expect(stored.CustomerName).toEqual({ FirstName: 'Anna' });
    expect((await updates(id))[0]).toMatchObject({ Operation: 'patch', Status: 'Complete' });
  });

  it('applies replace operations before remove operations (pre-remove indices)', async () => {
    const id = await create();
    const res = await patch(id, [
      { op: 'remove', path: '/Emails/0' },
      { op: 'replace', path: '/Emails/1/IsDefault', value: true },
    ]).expect(200);
    expect(res.body.Emails).toEqual([
      expect.objectContaining({ EmailAddress: 'b@example.com', IsDefault: true }),
    ]);
  });

  it('answers 400 for a failed test and changes nothing', async () => {
    const id = await create();
    const before = await complete(id);
    const res = await patch(id, [
      { op: 'replace', path: '/CustomerName/FirstName', value: 'Zed' },
      { op: 'test', path: '/CustomerName/LastName', value: 'Nope' },
    ]).expect(400);
    expect(res.body.Message).toMatch(/Operations\[1\] \(test \/CustomerName\/LastName\)/);
    expect(res.body.Message).toMatch(/test failed/);
    const after = await complete(id);
    expect(after).toEqual(before);
    expect((await updates(id))[0]).toMatchObject({ Operation: 'patch', Status: 'Failed' });
  });

  it('answers 400 for a result that is not a valid profile, or not in the configuration', async () => {
    const id = await create();
    const invalid = await patch(id, [
      { op: 'replace', path: '/Emails/0/EmailAddress', value: 'not-an-email' },
    ]).expect(400);
    expect(invalid.body.Message).toMatch(/Emails\[0\]\.EmailAddress/);
    const unknownField = await patch(id, [{ op: 'add', path: '/Colour', value: 'red' }]).expect(
      400,
    );
    expect(unknownField.body.Message).toMatch(/Unknown field Colour/);
    const unknownType = await patch(id, [
      { op: 'replace', path: '/CustomerType', value: 'Martian' },
    ]).expect(400);
    expect(unknownType.body.Message).toMatch(/Martian/);
    const noType = await patch(id, [{ op: 'remove', path: '/CustomerType' }]).expect(400);
    expect(noType.body.Message).toMatch(/CustomerType is required/);
    expect((await complete(id)).CustomerType).toBe('Customer');
  });

  it('refuses move, copy and malformed operations with 400 and queues nothing', async () => {
    const id = await create();
    const queued = (await updates(id)).length;
    const move = await patch(id, [
      { op: 'move', from: '/CustomerName/FirstName', path: '/CustomerName/LastName' },
    ]).expect(400);
    expect(move.body.Message).toMatch(/Operations\[0\]\.op \(value "move"\)/);
    await patch(id, [{ op: 'copy', from: '/Emails/0', path: '/Emails/-' }]).expect(400);
    const pointer = await patch(id, [{ op: 'replace', path: 'CustomerType', value: 'C' }]).expect(
      400,
    );
    expect(pointer.body.Message).toMatch(/Operations\[0\]\.path \(value "CustomerType"\)/);
    await patch(id, [{ op: 'replace', path: '/CustomerType' }]).expect(400);
    await patch(id, [{ op: 'frobnicate', path: '/CustomerType', value: 'C' }]).expect(400);
    await patch(id, []).expect(400);
    await patch(id, { op: 'replace', path: '/CustomerType', value: 'C' }).expect(400);
    expect(await updates(id)).toHaveLength(queued);
  });

  it('keeps stored inactive elements, which GET does not show', async () => {
    const id = await create({
      Emails: [
        { EmailAddress: 'a@example.com' },
        { EmailAddress: 'gone@example.com', IsActive: false },
      ],
    });
    expect((await complete(id)).Emails).toHaveLength(1);
    // (replace needs an existing member, RFC 6902: IsDefault was never set, so add)
    await patch(id, [{ op: 'add', path: '/Emails/0/IsDefault', value: true }]).expect(200);
    // A merge naming the inactive email brings it back: it was kept.
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ Emails: [{ EmailAddress: 'gone@example.com', IsActive: true }] })
      .expect(202);
    const profile = await complete(id);
    expect(profile.Emails.map((e: { EmailAddress: string }) => e.EmailAddress).sort()).toEqual([
      'a@example.com',
      'gone@example.com',
    ]);
  });

  it('applies a patch queued behind a pending merge after that merge', async () => {
    const id = await create();
    await app.stopWorker(app.workers[0]);
    try {
      await request(app.http)
        .post(`${base()}/${id}`)
        .set('Authorization', auth)
        .send({ CustomerName: { FirstName: 'Merged' } })
        .expect(202);
      const pending = patch(id, [
        { op: 'test', path: '/CustomerName/FirstName', value: 'Merged' },
        { op: 'replace', path: '/CustomerName/LastName', value: 'Patched' },
      ]).then((res) => res);
      await eventually(async () =>
        (await updates(id)).some((u) => u.Operation === 'patch') ? true : undefined,
      );
      await app.startWorker();
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.CustomerName).toEqual({ FirstName: 'Merged', LastName: 'Patched' });
      expect((await updates(id)).slice(0, 2).map((u) => u.Operation)).toEqual(['patch', 'merge']);
    } finally {
      if (!app.workers.length) await app.startWorker();
    }
  });

  it('answers 404 for an unknown profile and for another tenant', async () => {
    await patch(999999, [{ op: 'replace', path: '/CustomerType', value: 'C' }]).expect(404);
    const other = await createTestTenant(app);
    const id = await create();
    await request(app.http)
      .patch(`/Profiles/v4/${other.clientId}/Profile/${id}`)
      .set('Authorization', await other.bearer())
      .send([{ op: 'replace', path: '/CustomerType', value: 'C' }])
      .expect(404);
  });
});

describe('Profile PATCH wait bound', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;

  beforeAll(async () => {
    app = await startTestApp({ workers: 0, env: { SYNC_WRITE_TIMEOUT_MS: '300' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app.close());

  it('answers 202 with the submission result when the patch is not applied within the bound', async () => {
    const base = `/Profiles/v4/${tenant.clientId}/Profile`;
    const created = await request(app.http)
      .post(base)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' })
      .expect(202);
    const id = created.body.ProfileId as number;
    const res = await request(app.http)
      .patch(`${base}/${id}`)
      .set('Authorization', auth)
      .send([{ op: 'add', path: '/DefaultLocale', value: 'en-us' }])
      .expect(202);
    expect(res.body).toEqual({
      AlternateId: null,
      AlternateIdType: null,
      ProfileId: id,
      UpdateStatus: 'Pending Update',
      SubmittedUtcTime: expect.stringMatching(/^\d{4}-/),
    });
    await app.startWorker();
    const profile = await eventually(async () => {
      const got = await request(app.http).get(`${base}/${id}`).set('Authorization', auth);
      return got.body.UpdateStatus === 'Complete' ? got.body : undefined;
    });
    expect(profile.DefaultLocale).toBe('en-us');
  });
});
