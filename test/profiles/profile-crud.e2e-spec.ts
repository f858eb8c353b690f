import request from 'supertest';
import { fullProfileBodyOn } from '../harness/profile-fixtures';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

describe('Profile create, retrieve, merge, overwrite, delete', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  const profileBody = (alternateId?: string) => fullProfileBodyOn(programs, alternateId);

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
  });
  afterAll(() => app.close());

  async function create(body: object): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send(body)
      .expect(202);
    return res.body.ProfileId as number;
  }

  async function completed(profileId: number): Promise<Record<string, any>> {
    return eventually(async () => {
      const res = await request(app.http).get(`${base()}/${profileId}`).set('Authorization', auth);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
  }

  it('accepts a create with 202 and the submission result, then shows the applied profile', async () => {
    const body = profileBody('C-1001');
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send(body)
      .expect(202);
    expect(res.body).toEqual({
      AlternateId: 'C-1001',
      AlternateIdType: 'CRM',
      ProfileId: expect.any(Number),
      UpdateStatus: 'Pending Update',
      SubmittedUtcTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const profile = await completed(res.body.ProfileId);
    expect(profile.ProfileId).toBe(res.body.ProfileId);
    expect(profile.Edited).toEqual({
      CreateDate: res.body.SubmittedUtcTime,
      CreatedBy: tenant.userId,
      ModifiedDate: res.body.SubmittedUtcTime,
      ModifiedBy: tenant.userId,
    });
  });

  it('round-trips every field of the Profile resource with its exact name and type', async () => {
    const body = profileBody();
    const profile = await completed(await create(body));
    // What was sent comes back (plus read-only fields the service adds).
    expect(profile).toMatchObject(body);
    expect(profile.PhoneNumbers[0].PhoneNumberNumeric).toBe(15550102030);
    expect(profile.ProfilePreferences[0].LastModifiedDate).toEqual(expect.any(String));
    expect(profile.Consents[0]).toMatchObject({ Expired: false, UpdatedVersionPending: false });
    expect(profile.Emails[0].Edited.CreatedBy).toBe(tenant.userId);
  });

  it('ignores read-only fields sent by the client', async () => {
    const body: Record<string, any> = {
      ...profileBody(),
      ProfileId: 999999,
      UpdateStatus: 'Complete',
      Edited: { CreateDate: '1990-01-01T00:00:00Z', CreatedBy: 'mallory' },
      AlternateIds: [],
    };
    body.PhoneNumbers[0].PhoneNumberNumeric = 42;
    const id = await create(body);
    expect(id).not.toBe(999999);
    const profile = await completed(id);
    expect(profile.ProfileId).toBe(id);
    expect(profile.Edited.CreatedBy).toBe(tenant.userId);
    expect(profile.PhoneNumbers[0].PhoneNumberNumeric).toBe(15550102030);
  });

  it('refuses a read-only field sent in another shape than the document gives it', async () => {
    for (const [extra, message] of [
      [{ ProfileId: 'abc' }, /ProfileId \(value "abc"\)/],
      [{ UpdateStatus: 'Done' }, /UpdateStatus \(value "Done"\)/],
      [{ Edited: 'yesterday' }, /Edited \(value "yesterday"\)/],
    ] as const) {
      const res = await request(app.http)
        .post(base())
        .set('Authorization', auth)
        .send({ ...profileBody(), ...extra });
      expect(res.status).toBe(400);
      expect(res.body.Message).toMatch(message);
    }
  });

  it('accepts every request content type of the spec', async () => {
    for (const type of [
      'application/json',
      'application/json-patch+json',
      'text/json',
      'application/vnd.acme+json',
    ]) {
      const res = await request(app.http)
        .post(base())
        .set('Authorization', auth)
        .set('Content-Type', type)
        .send(JSON.stringify({ CustomerType: 'Customer', CustomerName: { FirstName: type } }));
      expect({ type, status: res.status }).toEqual({ type, status: 202 });
      const profile = await completed(res.body.ProfileId);
      expect(profile.CustomerName.FirstName).toBe(type);
    }
  });

  it('merge (POST by id) changes only what the body names', async () => {
    const id = await create(profileBody());
    await completed(id);
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({
        CustomerName: { FirstName: 'Janet' },
        Emails: [{ EmailAddress: 'JANE@example.com', IsDefault: false }],
      })
      .expect(202)
      .expect((res) =>
        expect(res.body).toMatchObject({ ProfileId: id, UpdateStatus: 'Pending Update' }),
      );
    const profile = await completed(id);
    expect(profile.CustomerName).toEqual({
      FirstName: 'Janet',
      MiddleName: 'Q',
      LastName: 'Doe',
      Prefix: 'Dr',
      Suffix: 'III',
    });
    expect(profile.Emails).toHaveLength(1);
    expect(profile.Emails[0]).toMatchObject({
      EmailAddress: 'JANE@example.com',
      IsDefault: false,
      EmailAddressType: 'Personal',
    });
    expect(profile.PhoneNumbers).toHaveLength(1);
    expect(profile.CustomFields).toEqual([
      expect.objectContaining({ Name: 'Tier', Value: 'Gold' }),
    ]);
  });

  it('overwrite (PUT by id) removes what the body omits', async () => {
    const id = await create(profileBody());
    await completed(id);
    await request(app.http)
      .put(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Prospect', Emails: [{ EmailAddress: 'jane@example.com' }] })
      .expect(202);
    const profile = await completed(id);
    expect(profile.CustomerType).toBe('Prospect');
    expect(profile.CustomerName).toBeUndefined();
    expect(profile.Emails).toEqual([
      expect.objectContaining({
        EmailAddress: 'jane@example.com',
        EmailPreferences: [],
        Consents: [],
      }),
    ]);
    for (const collection of [
      'PhoneNumbers',
      'Addresses',
      'CustomFields',
      'Groups',
      'ProfileTags',
      'ProfilePreferences',
      'AlternateIds',
      'Consents',
    ]) {
      expect({ collection, value: profile[collection] }).toEqual({ collection, value: [] });
    }
  });

  it('stores inactive elements but never returns them', async () => {
    const id = await create({
      CustomerType: 'Customer',
      Emails: [
        { EmailAddress: 'on@example.com' },
        { EmailAddress: 'off@example.com', IsActive: false },
      ],
      CustomFields: [{ Name: 'Hidden', Value: 'x', IsActive: false }],
    });
    const profile = await completed(id);
    expect(profile.Emails.map((e: { EmailAddress: string }) => e.EmailAddress)).toEqual([
      'on@example.com',
    ]);
    expect(profile.CustomFields).toEqual([]);
    // Reactivating through a merge brings the stored element back.
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ Emails: [{ EmailAddress: 'off@example.com', IsActive: true }] })
      .expect(202);
    const after = await completed(id);
    expect(after.Emails.map((e: { EmailAddress: string }) => e.EmailAddress)).toEqual([
      'on@example.com',
      'off@example.com',
    ]);
  });

  it('deletes permanently: 204, then 404 for every operation on it', async () => {
    const id = await create({
      CustomerType: 'Customer',
      AlternateIds: [{ AlternateIdType: 'Loyalty', AlternateId: 'L-77' }],
    });
    await completed(id);
    await request(app.http)
      .delete(`${base()}/${id}?reasonCode=gdpr`)
      .set('Authorization', auth)
      .expect(204);
    await request(app.http).get(`${base()}/${id}`).set('Authorization', auth).expect(404);
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerType: 'X' })
      .expect(404);
    await request(app.http)
      .put(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerType: 'X' })
      .expect(404);
    await request(app.http).delete(`${base()}/${id}`).set('Authorization', auth).expect(404);
    // Its alternate id is free again, and its id is never handed out again.
    const next = await create({
      CustomerType: 'Customer',
      AlternateIds: [{ AlternateIdType: 'Loyalty', AlternateId: 'L-77' }],
    });
    expect(next).toBeGreaterThan(id);
  });

  it('answers 404 with a Message for an unknown profile and 400 for a malformed profile id', async () => {
    const missing = await request(app.http)
      .get(`${base()}/2000000000`)
      .set('Authorization', auth)
      .expect(404);
    expect(missing.body).toEqual({ Message: 'Profile 2000000000 was not found' });
    for (const bad of ['abc', '0', '-1', '2147483648', '1.5']) {
      const res = await request(app.http)
        .get(`${base()}/${bad}`)
        .set('Authorization', auth)
        .expect(400);
      expect(res.body.Message).toContain(`"${bad}"`);
    }
  });

  it('answers 404 for an unknown client id', async () => {
    const res = await request(app.http)
      .get('/Profiles/v4/no-such-client/Profile/1')
      .set('Authorization', auth);
    expect(res.status).toBe(404);
  });

  it('serves the same paths under the legacy /Profiles/v2 prefix', async () => {
    const res = await request(app.http)
      .post(`/Profiles/v2/${tenant.clientId}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' })
      .expect(202);
    await completed(res.body.ProfileId);
    await request(app.http)
      .get(`/Profiles/v2/${tenant.clientId}/Profile/${res.body.ProfileId}`)
      .set('Authorization', auth)
      .expect(200);
  });

  it('hands out int32 profile ids per client: a second client starts again at 1, and parallel creates never share one', async () => {
    const other = await createTestTenant(app);
    await configureTestTenant(app, other);
    const otherAuth = await other.bearer();
    const ids = await Promise.all(
      Array.from({ length: 8 }, () =>
        request(app.http)
          .post(`/Profiles/v4/${other.clientId}/Profile`)
          .set('Authorization', otherAuth)
          .send({ CustomerType: 'Customer' })
          .expect(202)
          .then((res) => res.body.ProfileId as number),
      ),
    );
    expect([...ids].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps tenants apart: another client can neither read nor learn of this client’s profiles', async () => {
    const id = await create({ CustomerType: 'Customer' });
    await completed(id);
    const other = await createTestTenant(app);
    await configureTestTenant(app, other);
    const otherAuth = await other.bearer();
    // Client B's credentials on client A's path: the same 404 as an unknown client.
    const cross = await request(app.http).get(`${base()}/${id}`).set('Authorization', otherAuth);
    const unknown = await request(app.http)
      .get(`/Profiles/v4/no-such-client/Profile/${id}`)
      .set('Authorization', otherAuth);
    expect(cross.status).toBe(404);
    expect(unknown.status).toBe(404);
    // Client B's own profile with the same number is B's, not A's.
    await request(app.http)
      .get(`/Profiles/v4/${other.clientId}/Profile/${id}`)
      .set('Authorization', otherAuth)
      .expect(404);
  });
});
