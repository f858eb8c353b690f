import { getConnectionToken } from '@nestjs/mongoose';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/**
 * Every profile write is checked against the client's configuration: refused with 400
 * naming the field and value (nothing queued), and checked again by the worker, which
 * applies the custom field update rules against the value stored at that moment.
 */
describe('Profile writes checked against configuration', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let db: Connection;
  const v4 = () => `/Profiles/v4/${tenant.clientId}`;
  const storedWrites = () =>
    db.collection('profile_writes').countDocuments({ clientId: tenant.clientId });

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    db = app.api.get<Connection>(getConnectionToken());
    const post = (path: string, body: object) =>
      request(app.http).post(`${v4()}/${path}`).set('Authorization', auth).send(body).expect(201);
    const picklist = await post('Picklists', {
      Picklists: [
        {
          Name: 'Colours',
          FieldSelectOptions: ['Red', 'Green', 'Blue'].map((Value) => ({
            Value,
            LocalizedNames: [{ Locale: 'en-us', Name: Value }],
          })),
        },
      ],
    });
    const names = (name: string) => [{ Locale: 'en-us', Name: name }];
    await post('CustomFields/SelectList', {
      SelectListFields: [
        {
          Name: 'Colours',
          LocalizedDisplayNames: names('Colours'),
          PicklistId: picklist.body.Picklists[0].Id,
          DisplayType: 'MultiSelect',
        },
      ],
    });
    await post('CustomFields/Numeric', {
      NumericFields: [
        { Name: 'Score', LocalizedDisplayNames: names('Score'), MinValue: 0, MaxValue: 100 },
      ],
    });
    await post('CustomFields/Text', {
      TextFields: [
        { Name: 'Origin', LocalizedDisplayNames: names('Origin'), UpdateRuleId: 5 },
        { Name: 'FirstSeen', LocalizedDisplayNames: names('FirstSeen'), UpdateRuleId: 2 },
      ],
    });
  });
  afterAll(() => app.close());

  const create = (body: object) =>
    request(app.http).post(`${v4()}/Profile`).set('Authorization', auth).send(body);
  const complete = (id: number) =>
    eventually(async () => {
      const res = await request(app.http).get(`${v4()}/Profile/${id}`).set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });

  const refusals: [string, object, string][] = [
    [
      'an unknown customer type',
      { CustomerType: 'Martian' },
      'CustomerType (value "Martian") names no customer type of this account',
    ],
    [
      'an unknown address type',
      { CustomerType: 'C', Addresses: [{ AddressType: 'Moon' }] },
      'Addresses[0].AddressType (value "Moon") names no address type',
    ],
    [
      'an unknown alternate id type',
      { CustomerType: 'C', AlternateIds: [{ AlternateIdType: 'SSN', AlternateId: '1' }] },
      'AlternateIds[0].AlternateIdType (value "SSN")',
    ],
    [
      'an unknown group type',
      { CustomerType: 'C', Groups: [{ GroupType: 'Club', GroupName: 'x' }] },
      'Groups[0].GroupType (value "Club")',
    ],
    [
      'an unknown consent type',
      { CustomerType: 'C', Consents: [{ ConsentType: 'Cookies' }] },
      'Consents[0].ConsentType (value "Cookies")',
    ],
    [
      'an unknown consent version',
      { CustomerType: 'C', Consents: [{ ConsentType: 'Terms', ConsentVersion: '9.9' }] },
      'Consents[0].ConsentVersion (value "9.9")',
    ],
    [
      'an unknown custom field',
      { CustomerType: 'C', CustomFields: [{ Name: 'Shoe size', Value: '42' }] },
      'CustomFields[0].Name (value "Shoe size") names no custom field',
    ],
    [
      'a picklist value that does not exist',
      { CustomerType: 'C', CustomFields: [{ Name: 'Colours', Value: 'Red::Purple' }] },
      'Purple',
    ],
    [
      'a number out of range',
      { CustomerType: 'C', CustomFields: [{ Name: 'Score', Value: '101' }] },
      'CustomFields[0]',
    ],
    [
      'a number that is not one',
      { CustomerType: 'C', CustomFields: [{ Name: 'Score', Value: 'lots' }] },
      '"lots"',
    ],
  ];

  it.each(refusals)(
    'refuses %s with 400 naming it, and queues nothing',
    async (_name, body, message) => {
      const before = await storedWrites();
      const res = await create(body).expect(400);
      expect(res.body.Message).toContain(message);
      expect(await storedWrites()).toBe(before);
    },
  );

  it('accepts names in any case, multi-select values joined with ::, and numbers in range', async () => {
    const res = await create({
      CustomerType: 'customer',
      Addresses: [{ AddressType: 'HOME' }],
      Consents: [{ ConsentType: 'terms', ConsentVersion: '1.0' }],
      CustomFields: [
        { Name: 'colours', Value: 'Red::Blue' },
        { Name: 'Score', Value: '99.5' },
      ],
    }).expect(202);
    const profile = await complete(res.body.ProfileId);
    expect(profile.CustomFields.map((f: any) => [f.Name, f.Value])).toEqual([
      ['colours', 'Red::Blue'],
      ['Score', '99.5'],
    ]);
  });

  it('refuses a change that the update rule forbids, against the stored value', async () => {
    const res = await create({
      CustomerType: 'C',
      CustomFields: [{ Name: 'Origin', Value: 'web' }],
    }).expect(202);
    const id = res.body.ProfileId;
    await complete(id);
    const refused = await request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({ CustomFields: [{ Name: 'Origin', Value: 'shop' }] })
      .expect(400);
    expect(refused.body.Message).toContain('CustomFields[0]');
    // The same value again is no change, and passes.
    await request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({ CustomFields: [{ Name: 'Origin', Value: 'web' }] })
      .expect(202);
  });

  it('decides update rules when the worker applies the write: the second of two quick writes fails visibly', async () => {
    const worker = app.workers[0];
    await app.stopWorker(worker);
    const res = await create({ CustomerType: 'C' }).expect(202);
    const id = res.body.ProfileId;
    // FirstSeen may only be set while blank: both writes pass acceptance (blank now) ...
    for (const value of ['2026-01-01', '2026-02-02']) {
      await request(app.http)
        .post(`${v4()}/Profile/${id}`)
        .set('Authorization', auth)
        .send({ CustomFields: [{ Name: 'FirstSeen', Value: value }] })
        .expect(202);
    }
    await app.startWorker();
    // ... and the worker applies the first and refuses the second.
    const profile = await complete(id);
    expect(profile.CustomFields).toEqual([
      expect.objectContaining({ Name: 'FirstSeen', Value: '2026-01-01' }),
    ]);
    const updates = await request(app.http)
      .get(`${v4()}/Profile/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    expect(updates.body.Updates[0]).toMatchObject({
      Sequence: 3,
      Status: 'Failed',
      FailureReason: expect.stringContaining('FirstSeen'),
    });
  });

  it('requires every required custom field on create', async () => {
    await request(app.http)
      .post(`${v4()}/CustomFields/Text`)
      .set('Authorization', auth)
      .send({
        TextFields: [
          {
            Name: 'Region',
            LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'Region' }],
            IsRequired: true,
          },
        ],
      })
      .expect(201);
    const res = await create({ CustomerType: 'C' }).expect(400);
    expect(res.body.Message).toContain('the required custom field "Region" has no value');
    await create({ CustomerType: 'C', CustomFields: [{ Name: 'Region', Value: 'North' }] }).expect(
      202,
    );
    // Make it optional again for the other tests.
    const fields = await request(app.http)
      .get(`${v4()}/CustomFields`)
      .set('Authorization', auth)
      .expect(200);
    const region = fields.body.TextFields.find((f: any) => f.Name === 'Region');
    await request(app.http)
      .patch(`${v4()}/CustomField/Text/${region.Id}`)
      .set('Authorization', auth)
      .send([{ op: 'replace', path: '/IsRequired', value: false }])
      .expect(200);
  });

  it('sees a configuration change at once, also in another api process with a warm cache', async () => {
    const second: NestFastifyApplication = await createApiApp(app.settings);
    await second.init();
    await second.getHttpAdapter().getInstance().ready();
    try {
      const other = second.getHttpServer();
      await request(other)
        .post(`${v4()}/Profile`)
        .set('Authorization', auth)
        .send({ CustomerType: 'Prospect' })
        .expect(202);
      const types = await request(app.http)
        .get(`${v4()}/CustomerTypes`)
        .set('Authorization', auth)
        .expect(200);
      const prospect = types.body.CustomerTypes.find((t: any) => t.TypeName === 'Prospect');
      await request(app.http)
        .patch(`${v4()}/CustomerTypes/${prospect.TypeId}`)
        .set('Authorization', auth)
        .send([{ op: 'replace', path: '/IsActive', value: false }])
        .expect(200);
      const refused = await request(other)
        .post(`${v4()}/Profile`)
        .set('Authorization', auth)
        .send({ CustomerType: 'Prospect' })
        .expect(400);
      expect(refused.body.Message).toBe(
        'CustomerType (value "Prospect") is an inactive customer type',
      );
    } finally {
      await second.close();
    }
  });
});
