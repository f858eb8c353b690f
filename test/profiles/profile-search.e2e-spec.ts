import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

describe('Profile searches', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
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

  async function applied(profileIds: number[], t: TestTenant = tenant): Promise<void> {
    for (const profileId of profileIds) {
      await eventually(async () => {
        const res = await request(app.http)
          .get(`${base(t)}/${profileId}`)
          .set('Authorization', await t.bearer());
        return res.status === 200 && res.body.UpdateStatus === 'Complete' ? true : undefined;
      });
    }
  }

  function search(path: string, t: TestTenant = tenant): request.Test {
    return request(app.http)
      .get(`${base(t)}/${path}`)
      .set('Authorization', auth);
  }

  async function found(path: string): Promise<number[]> {
    const res = await search(path).expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    return (res.body as { ProfileId: number }[]).map((p) => p.ProfileId).sort((a, b) => a - b);
  }

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    await configureTestTenant(app, other);
    auth = await tenant.bearer();
    ids.jane = await create({
      CustomerName: { FirstName: 'Jane', MiddleName: 'Q', LastName: "O'Brien-Doe" },
      Emails: [{ EmailAddress: 'Jane@Example.com', EmailAddressType: 'Personal' }],
      PhoneNumbers: [{ PhoneNumber: '+1 (555) 010-2030', PhoneType: 'Mobile' }],
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '12 Main Street',
          Address2: 'Apt 2',
          City: 'Springfield',
          StateProvince: 'IL',
          PostalCode: '62701',
        },
      ],
      ProfileTags: [{ Name: 'VIP' }, { Name: 'gold' }],
      CustomFields: [
        { Name: 'Tier', Value: 'Gold' },
        { Name: 'c1', Value: 'red::blue' },
      ],
    });
    ids.john = await create({
      CustomerName: { FirstName: 'John', LastName: 'Doe' },
      Emails: [{ EmailAddress: 'john@example.com', EmailAddressType: 'Personal' }],
      PhoneNumbers: [{ PhoneNumber: '555-010-9999', PhoneType: 'Mobile' }],
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '99 Main Street',
          City: 'Springfield',
          StateProvince: 'IL',
        },
      ],
      ProfileTags: [{ Name: 'vip' }],
      CustomFields: [
        { Name: 'Tier', Value: 'Silver' },
        { Name: 'c1', Value: 'red' },
      ],
    });
    // Elements stored inactive never match.
    ids.inactive = await create({
      CustomerName: { FirstName: 'Ina', LastName: 'Active' },
      Emails: [{ EmailAddress: 'gone@example.com', IsActive: false }],
      PhoneNumbers: [{ PhoneNumber: '555 777 0000', IsActive: false }],
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '7 Gone Road',
          City: 'Shelbyville',
          StateProvince: 'IL',
          IsActive: false,
        },
      ],
      CustomFields: [{ Name: 'Tier', Value: 'Bronze', IsActive: false }],
    });
    ids.deleted = await create({
      CustomerName: { FirstName: 'Dee', LastName: 'Leted' },
      Emails: [{ EmailAddress: 'deleted@example.com' }],
    });
    ids.otherTenant = await create(
      { CustomerName: { FirstName: 'Jane' }, Emails: [{ EmailAddress: 'jane@example.com' }] },
      other,
    );
    await applied([ids.jane, ids.john, ids.inactive, ids.deleted]);
    await applied([ids.otherTenant], other);
    await request(app.http)
      .delete(`${base()}/${ids.deleted}`)
      .set('Authorization', auth)
      .expect(204);
  });
  afterAll(() => app.close());

  it('finds by phone digits whatever the punctuation, with an optional case-insensitive type', async () => {
    expect(await found('Phone?phoneNumber=15550102030')).toEqual([ids.jane]);
    expect(await found(`Phone?phoneNumber=${encodeURIComponent('1-555-010 2030')}`)).toEqual([
      ids.jane,
    ]);
    expect(await found('Phone?phoneNumber=15550102030&phoneType=mOBILE')).toEqual([ids.jane]);
    expect(await found('Phone?phoneNumber=15550102030&phoneType=Home')).toEqual([]);
    expect(await found('Phone?phoneNumber=5557770000')).toEqual([]);
    await search('Phone').expect(400);
    const res = await search('Phone?phoneNumber=abc').expect(400);
    expect(res.body.Message).toContain('phoneNumber');
  });

  it('returns the same content as GET profile', async () => {
    const res = await search('Phone?phoneNumber=15550102030').expect(200);
    const get = await request(app.http).get(`${base()}/${ids.jane}`).set('Authorization', auth);
    expect(res.body).toEqual([get.body]);
  });

  it('finds by email case-insensitively, not inactive emails or deleted profiles', async () => {
    expect(await found('Email?emailAddress=JANE@example.COM')).toEqual([ids.jane]);
    expect(await found('Email?emailAddress=jane@example.com&emailType=personal')).toEqual([
      ids.jane,
    ]);
    expect(await found('Email?emailAddress=jane@example.com&emailType=Work')).toEqual([]);
    expect(await found('Email?emailAddress=jane@example')).toEqual([]);
    expect(await found('Email?emailAddress=gone@example.com')).toEqual([]);
    expect(await found('Email?emailAddress=deleted@example.com')).toEqual([]);
    const res = await search('Email').expect(400);
    expect(res.body.Message).toContain('emailAddress');
  });

  it('keeps tenants apart', async () => {
    expect(await found('Email?emailAddress=jane@example.com')).toEqual([ids.jane]);
    const res = await request(app.http)
      .get(`${base(other)}/Email?emailAddress=jane@example.com`)
      .set('Authorization', await other.bearer())
      .expect(200);
    expect(res.body.map((p: { ProfileId: number }) => p.ProfileId)).toEqual([ids.otherTenant]);
  });

  it('finds by exact and partial name', async () => {
    expect(await found('Name?lastName=doe')).toEqual([ids.john]);
    expect(await found('Name?firstName=JANE&lastName=o%27brien-doe')).toEqual([ids.jane]);
    expect(await found('Name?firstName=Jan')).toEqual([]);
    expect(await found('Name?firstName=Dee')).toEqual([]);
    expect(await found('PartialName?lastName=DOE')).toEqual([ids.jane, ids.john]);
    expect(await found('PartialName?firstName=j&lastName=brien')).toEqual([ids.jane]);
    // Regex metacharacters are taken literally.
    expect(await found('PartialName?lastName=.*')).toEqual([]);
    const res = await search('Name').expect(400);
    expect(res.body.Message).toContain('firstName');
    await search('PartialName').expect(400);
  });

  it('finds by address, exact unless a partial flag is set', async () => {
    expect(await found('Address?city=springfield&stateProvince=il')).toEqual([ids.jane, ids.john]);
    expect(
      await found('Address?address1=12%20main%20street&city=Springfield&stateProvince=IL'),
    ).toEqual([ids.jane]);
    expect(await found('Address?address1=Main&city=Springfield&stateProvince=IL')).toEqual([]);
    expect(
      await found(
        'Address?address1=main&partialAddress1Match=true&city=Springfield&stateProvince=IL',
      ),
    ).toEqual([ids.jane, ids.john]);
    expect(
      await found('Address?city=Springfield&stateProvince=IL&postalCode=62701&addressType=HOME'),
    ).toEqual([ids.jane]);
    expect(await found('Address?city=Springfield&stateProvince=IL&lastName=Doe')).toEqual([
      ids.john,
    ]);
    expect(
      await found('Address?city=Springfield&stateProvince=IL&lastName=doe&partialNameMatch=true'),
    ).toEqual([ids.jane, ids.john]);
    expect(await found('Address?city=Shelbyville&stateProvince=IL')).toEqual([]);
    let res = await search('Address?city=Springfield').expect(400);
    expect(res.body.Message).toContain('stateProvince');
    res = await search('Address?city=Springfield&stateProvince=IL&partialNameMatch=maybe').expect(
      400,
    );
    expect(res.body.Message).toContain('partialNameMatch');
  });

  it('finds profiles carrying all listed tags', async () => {
    expect(await found('Tags?tags[0]=vip')).toEqual([ids.jane, ids.john]);
    expect(await found('Tags?tags[0]=VIP&tags[1]=Gold')).toEqual([ids.jane]);
    expect(await found('Tags?tags[0]=silver')).toEqual([]);
    for (const bad of ['tags[1]=vip', 'tags[0]=vip&tags[2]=gold', 'tags=vip', 'tags[x]=vip']) {
      const res = await search(`Tags?${bad}`).expect(400);
      expect(res.body.Message).toMatch(/tags/);
    }
    const res = await search('Tags?tags[0]=vip&tags[0].Name=x').expect(400);
    expect(res.body.Message).toContain('tags[0].Name');
    await search('Tags').expect(400);
  });

  it('finds by custom fields (all listed, active fields only)', async () => {
    expect(
      await found('CustomFields?customFields[0].Name=tier&customFields[0].Value=gold'),
    ).toEqual([ids.jane]);
    expect(
      await found(
        'CustomFields?customFields[0].Name=Tier&customFields[0].Value=Gold&customFields[1].Name=c1&customFields[1].Value=red',
      ),
    ).toEqual([]);
    expect(
      await found('CustomFields?customFields[0].Name=Tier&customFields[0].Value=Bronze'),
    ).toEqual([]);
    let res = await search('CustomFields?customFields[0].Name=Tier').expect(400);
    expect(res.body.Message).toContain('customFields[0].Value');
    res = await search('CustomFields?customFields[1].Name=Tier&customFields[1].Value=x').expect(
      400,
    );
    expect(res.body.Message).toContain('customFields');
    res = await search('CustomFields?customFields[0].name=Tier&customFields[0].Value=x').expect(
      400,
    );
    expect(res.body.Message).toContain('customFields[0].name');
  });

  it('finds by select-list values with Equals (1), All of (2) and Any of (3)', async () => {
    const q = (operator: number, value: string) =>
      `CustomFields/SelectList?customFields[0].OperatorId=${operator}&customFields[0].Name=c1&customFields[0].Value=${value}`;
    expect(await found(q(1, 'red'))).toEqual([ids.john]);
    expect(await found(q(1, 'blue:RED'))).toEqual([ids.jane]);
    expect(await found(q(2, 'red'))).toEqual([ids.jane, ids.john]);
    expect(await found(q(2, 'red:blue'))).toEqual([ids.jane]);
    expect(await found(q(3, 'blue:green'))).toEqual([ids.jane]);
    expect(await found(q(3, 'green'))).toEqual([]);
    const res = await search(q(4, 'red')).expect(400);
    expect(res.body.Message).toContain('OperatorId');
  });

  it('answers 403 when more than 50 profiles match, 200 with 50 otherwise', async () => {
    const created: number[] = [];
    for (let i = 0; i < 50; i++) {
      created.push(await create({ ProfileTags: [{ Name: 'bulk' }] }));
    }
    await applied(created);
    let res = await search('Tags?tags[0]=bulk').expect(200);
    expect(res.body).toHaveLength(50);
    await applied([await create({ ProfileTags: [{ Name: 'bulk' }] })]);
    res = await search('Tags?tags[0]=bulk').expect(403);
    expect(res.body.Message).toMatch(/more than 50/i);
  });
});
