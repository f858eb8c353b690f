import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/** GET Profile/{id}/MergeCandidates (issue 33, docs/profile-merge.md "Candidates"). */
describe('Profile merge candidates', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  const base = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}/Profile`;
  const ids: Record<string, number> = {};

  async function create(body: object, t: TestTenant = tenant): Promise<number> {
    const res = await request(app.http)
      .post(base(t))
      .set('Authorization', await t.bearer())
      .send({ CustomerType: 'Customer', ...body })
      .expect(202);
    return res.body.ProfileId as number;
  }

  async function applied(profileId: number, t: TestTenant = tenant): Promise<void> {
    await eventually(async () => {
      const res = await request(app.http)
        .get(`${base(t)}/${profileId}`)
        .set('Authorization', await t.bearer());
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? true : undefined;
    });
  }

  const home = (city: string, line = '12 Main Street') => ({
    AddressType: 'Home',
    Address1: line,
    City: city,
    StateProvince: 'IL',
    PostalCode: '62701',
  });

  beforeAll(async () => {
    // A key held by more than 4 profiles is too common to look up (SkippedKeys).
    app = await startTestApp({ env: { SEARCH_CANDIDATE_LIMIT: '4' } });
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    await configureTestTenant(app, other);
    ids.ann = await create({
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      Emails: [{ EmailAddress: 'ann@example.com', EmailAddressType: 'Personal' }],
      PhoneNumbers: [{ PhoneNumber: '+1 (555) 010-0001', PhoneType: 'Mobile' }],
      Addresses: [home('Springfield')],
    });
    ids.sameEmail = await create({
      CustomerName: { FirstName: 'A', LastName: 'L' },
      Emails: [{ EmailAddress: 'ANN@Example.com', EmailAddressType: 'Personal' }],
    });
    ids.samePhone = await create({
      PhoneNumbers: [{ PhoneNumber: '1-555-010-0001', PhoneType: 'Mobile' }],
    });
    ids.sameNameAndCity = await create({
      CustomerName: { FirstName: 'ann', LastName: 'LEE' },
      Addresses: [home(' springfield ', '99 Elm Street')],
    });
    ids.sameNameOtherCity = await create({
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      Addresses: [home('Shelbyville')],
    });
    ids.everything = await create({
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      Emails: [{ EmailAddress: 'ann@example.com', EmailAddressType: 'Personal' }],
      PhoneNumbers: [{ PhoneNumber: '15550100001', PhoneType: 'Mobile' }],
      Addresses: [home('Springfield')],
    });
    ids.emailRemoved = await create({
      Emails: [{ EmailAddress: 'ann@example.com', EmailAddressType: 'Personal' }],
    });
    for (const n of [1, 2, 3, 4, 5]) {
      ids[`office${n}`] = await create({
        CustomerName: { FirstName: `Clerk${n}` },
        PhoneNumbers: [{ PhoneNumber: '+1 555 999 0000', PhoneType: 'Mobile' }],
      });
    }
    ids.otherTenant = await create(
      { Emails: [{ EmailAddress: 'ann@example.com', EmailAddressType: 'Personal' }] },
      other,
    );
    for (const name of Object.keys(ids).filter((n) => n !== 'otherTenant'))
      await applied(ids[name]);
    await applied(ids.otherTenant, other);
    // The email leaves this profile: its search key stays until the save drops it, and the
    // exact check never counts the inactive element.
    await request(app.http)
      .put(`${base()}/${ids.emailRemoved}`)
      .set('Authorization', await tenant.bearer())
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Zed' } })
      .expect(202);
    await applied(ids.emailRemoved);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lists the profiles sharing an email, a phone, or a name with an address, with the keys', async () => {
    const res = await request(app.http)
      .get(`${base()}/${ids.ann}/MergeCandidates`)
      .set('Authorization', await tenant.bearer())
      .expect(200);
    expect(res.body).toEqual({
      ProfileId: ids.ann,
      Candidates: [
        {
          ProfileId: ids.sameEmail,
          SharedKeys: [{ Kind: 'Email', Value: 'ann@example.com' }],
        },
        {
          ProfileId: ids.samePhone,
          SharedKeys: [{ Kind: 'Phone', Value: '15550100001' }],
        },
        {
          ProfileId: ids.sameNameAndCity,
          SharedKeys: [{ Kind: 'NameAndAddress', Value: 'ann|lee|springfield|il' }],
        },
        {
          ProfileId: ids.everything,
          SharedKeys: [
            { Kind: 'Email', Value: 'ann@example.com' },
            { Kind: 'Phone', Value: '15550100001' },
            { Kind: 'NameAndAddress', Value: 'ann|lee|springfield|il' },
          ],
        },
      ],
      Truncated: false,
      SkippedKeys: [],
    });
  });

  it('is symmetric for a shared key, and empty for a profile sharing nothing', async () => {
    const res = await request(app.http)
      .get(`${base()}/${ids.samePhone}/MergeCandidates`)
      .set('Authorization', await tenant.bearer())
      .expect(200);
    expect(res.body.Candidates.map((c: { ProfileId: number }) => c.ProfileId)).toEqual([
      ids.ann,
      ids.everything,
    ]);
    const none = await request(app.http)
      .get(`${base()}/${ids.sameNameOtherCity}/MergeCandidates`)
      .set('Authorization', await tenant.bearer())
      .expect(200);
    expect(none.body.Candidates).toEqual([]);
  });

  it('skips a key held by more profiles than a search may read, and says so', async () => {
    const res = await request(app.http)
      .get(`${base()}/${ids.office1}/MergeCandidates`)
      .set('Authorization', await tenant.bearer())
      .expect(200);
    expect(res.body).toEqual({
      ProfileId: ids.office1,
      Candidates: [],
      Truncated: false,
      SkippedKeys: [{ Kind: 'Phone', Value: '15559990000' }],
    });
  });

  it('answers 404 for an unknown profile', async () => {
    const res = await request(app.http)
      .get(`${base()}/999999/MergeCandidates`)
      .set('Authorization', await tenant.bearer())
      .expect(404);
    expect(res.body.Message).toContain('999999');
  });
});
