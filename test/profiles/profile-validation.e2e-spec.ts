import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/**
 * Bad input: 400 with a Message naming the field and the value, and nothing stored or
 * queued. No worker runs here, so whatever was accepted would still be pending.
 */
describe('Profile write validation', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let db: Connection;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const storedWrites = () =>
    db.collection('profile_writes').countDocuments({ clientId: tenant.clientId });

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    db = app.api.get<Connection>(getConnectionToken());
  });
  afterAll(() => app.close());

  const cases: [string, object, string][] = [
    ['an unknown top-level field', { CustomerType: 'C', Nickname: 'JJ' }, 'Unknown field Nickname'],
    [
      'an unknown nested field',
      { CustomerType: 'C', Emails: [{ EmailAddress: 'a@b.io', Colour: 'red' }] },
      'Unknown field Emails[0].Colour',
    ],
    [
      'a missing CustomerType',
      { CustomerName: { FirstName: 'A' } },
      'CustomerType is required on create',
    ],
    [
      'a malformed email',
      { CustomerType: 'C', Emails: [{ EmailAddress: 'not-an-email' }] },
      'Emails[0].EmailAddress (value "not-an-email")',
    ],
    [
      'a phone without digits',
      { CustomerType: 'C', PhoneNumbers: [{ PhoneNumber: 'call me' }] },
      'PhoneNumbers[0].PhoneNumber (value "call me")',
    ],
    ['a wrong type', { CustomerType: 'C', IsActive: 'yes' }, 'IsActive (value "yes")'],
    [
      'an unknown consent status',
      { CustomerType: 'C', Consents: [{ ConsentType: 'T', ConsentStatus: 7 }] },
      'Consents[0].ConsentStatus (value 7)',
    ],
    ['a non-array collection', { CustomerType: 'C', Emails: { EmailAddress: 'a@b.io' } }, 'Emails'],
    [
      'an address without type',
      { CustomerType: 'C', Addresses: [{ Address1: '1 Main' }] },
      'Addresses[0].AddressType (value missing)',
    ],
    [
      'an element given twice',
      { CustomerType: 'C', Emails: [{ EmailAddress: 'a@b.io' }, { EmailAddress: 'A@B.io' }] },
      'Emails[1] repeats Emails[0]',
    ],
    [
      'a bad date',
      { CustomerType: 'C', Consents: [{ ConsentType: 'T', ConsentDate: 'yesterday' }] },
      'Consents[0].ConsentDate (value "yesterday")',
    ],
  ];

  it.each(cases)(
    'refuses %s with 400 naming it, and queues nothing',
    async (_name, body, message) => {
      const res = await request(app.http)
        .post(base())
        .set('Authorization', auth)
        .send(body)
        .expect(400);
      expect(res.body.Message).toContain(message);
      expect(await storedWrites()).toBe(0);
    },
  );

  it('refuses malformed JSON with 400 and a Message', async () => {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send('{"CustomerType": ');
    expect(res.status).toBe(400);
    expect(res.body.Message).toEqual(expect.any(String));
    expect(await storedWrites()).toBe(0);
  });

  it('requires CustomerType on overwrite but not on merge', async () => {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'C' })
      .expect(202);
    const id = created.body.ProfileId;
    const before = await storedWrites();
    const res = await request(app.http)
      .put(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ DefaultLocale: 'fr' })
      .expect(400);
    expect(res.body.Message).toContain('CustomerType is required on overwrite');
    expect(await storedWrites()).toBe(before);
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ DefaultLocale: 'fr' })
      .expect(202);
    expect(await storedWrites()).toBe(before + 1);
  });

  it('shows Pending Update until a worker applies the queued write', async () => {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'C', CustomerName: { FirstName: 'Pat' } })
      .expect(202);
    const id = created.body.ProfileId;
    const pending = await request(app.http)
      .get(`${base()}/${id}`)
      .set('Authorization', auth)
      .expect(200);
    expect(pending.body).toEqual({ ProfileId: id, UpdateStatus: 'Pending Update' });

    const worker = await app.startWorker();
    try {
      const done = await eventually(async () => {
        const res = await request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
        return res.body.UpdateStatus === 'Complete' ? res.body : undefined;
      });
      expect(done.CustomerName.FirstName).toBe('Pat');
    } finally {
      await app.stopWorker(worker);
    }
  });

  it('refuses an alternate id that another profile holds with 409, case-insensitively, and queues nothing', async () => {
    await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'C', AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'X-1' }] })
      .expect(202);
    const before = await storedWrites();
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'C', AlternateIds: [{ AlternateIdType: 'crm', AlternateId: 'x-1' }] })
      .expect(409);
    expect(res.body.Message).toBe('AlternateId "x-1" of type "crm" belongs to another profile');
    expect(await storedWrites()).toBe(before);
  });
});
