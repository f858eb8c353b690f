import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

type Entry = Record<string, any>;

const DAY_MS = 24 * 60 * 60 * 1000;
const plusDays = (iso: string, days: number) =>
  new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/**
 * Consent rules at write time: the allowed status transitions (400 at acceptance, and a
 * failed write when the stored status changed before the worker applied it), the version
 * a consent is stored on, its ConsentDate, ExpirationDate and Expired, and
 * UpdatedVersionPending cleared by a re-consent on the latest version.
 */
describe('Profile consents', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  const get = async (profileId: number): Promise<Entry> => {
    const res = await request(app.http).get(`${base()}/${profileId}`).set('Authorization', auth);
    expect(res.status).toBe(200);
    return res.body as Entry;
  };
  const complete = (profileId: number) =>
    eventually(async () => {
      const profile = await get(profileId);
      return profile.UpdateStatus === 'Complete' ? profile : undefined;
    });
  const updates = async (profileId: number): Promise<Entry[]> => {
    const res = await request(app.http)
      .get(`${base()}/${profileId}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    return res.body.Updates as Entry[];
  };
  /** When the latest accepted write of the profile was accepted (its `at`). */
  const lastWriteTime = async (profileId: number) =>
    (await updates(profileId))[0].SubmittedUtcTime as string;

  async function create(body: object): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', ...body })
      .expect(202);
    await complete(res.body.ProfileId);
    return res.body.ProfileId as number;
  }
  async function write(profileId: number, body: object, method: 'post' | 'put' = 'post') {
    await request(app.http)
      [method](`${base()}/${profileId}`)
      .set('Authorization', auth)
      .send(body)
      .expect(202);
    return complete(profileId);
  }
  const consent = (profile: Entry, type: string, email?: string): Entry | undefined => {
    const container = email ? profile.Emails.find((e: Entry) => e.EmailAddress === email) : profile;
    return container?.Consents.find((c: Entry) => c.ConsentType === type);
  };
  const statuses = (profile: Entry) => ({
    profile: Object.fromEntries(
      profile.Consents.map((c: Entry) => [c.ConsentType, c.ConsentStatus]),
    ),
    emails: Object.fromEntries(
      profile.Emails.map((e: Entry) => [
        e.EmailAddress,
        Object.fromEntries(e.Consents.map((c: Entry) => [c.ConsentType, c.ConsentStatus])),
      ]),
    ),
  });

  let yearlyId: number;

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    // Yearly: version 1.0 valid 30 days, then 2.0 (the latest) valid 365 days.
    const created = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/ConsentTypes`)
      .set('Authorization', auth)
      .send({
        ConsentTypes: [
          {
            TypeName: 'Yearly',
            IsActive: true,
            LocalizedFields: [{ Locale: 'en-us', Name: 'Yearly' }],
            Versions: [
              {
                ConsentVersion: '1.0',
                ExpirationInDays: 30,
                LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: 'Yearly' }],
              },
            ],
          },
        ],
      })
      .expect(201);
    yearlyId = created.body.ConsentTypes[0].TypeId;
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/ConsentTypes/${yearlyId}/Versions`)
      .set('Authorization', auth)
      .send({
        ConsentVersion: '2.0',
        ExpirationInDays: 365,
        LocalizedFields: [{ ConsentLanguage: 'I agree again', Locale: 'en-us', Name: 'Yearly' }],
      })
      .expect(201);
  });
  afterAll(() => app?.close());

  describe('transitions', () => {
    // Every allowed transition is walked in consent.rules.spec.ts, each status change recorded
    // once in profile-history.spec.ts; here one, on the profile and on a contact element.
    it('applies an allowed transition on the profile and on a contact element, and keeps both in history', async () => {
      const email = 'walk@example.com';
      const id = await create({
        Consents: [{ ConsentType: 'Terms', ConsentStatus: 4 }],
        Emails: [
          {
            EmailAddress: email,
            EmailAddressType: 'Personal',
            Consents: [{ ConsentType: 'Email', ConsentStatus: 4 }],
          },
        ],
      });
      const profile = await write(id, {
        Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }],
        Emails: [{ EmailAddress: email, Consents: [{ ConsentType: 'Email', ConsentStatus: 1 }] }],
      });
      expect(statuses(profile)).toEqual({
        profile: { Terms: 1 },
        emails: { [email]: { Email: 1 } },
      });
      expect((await updates(id)).map((u) => u.Status)).toEqual(['Complete', 'Complete']);

      const res = await request(app.http)
        .get(`${base()}/${id}/History/Consents`)
        .set('Authorization', auth)
        .expect(200);
      const history = res.body as Entry[];
      expect(
        history.flatMap((entry) => entry.Consents ?? []).map((c: Entry) => c.ConsentStatus),
      ).toEqual([4, 1]);
      expect(
        history
          .flatMap((entry) => entry.Emails ?? [])
          .flatMap((e: Entry) => e.Consents)
          .map((c: Entry) => c.ConsentStatus),
      ).toEqual([4, 1]);
    });

    // The whole transition table is in libs/consents/src/domain/consent-transitions.spec.ts,
    // and a refusal from each stored status, on the profile and on a contact element, in
    // consent.rules.spec.ts; here one refusal, on a merge and on a PUT, through the api.
    it('refuses a refused transition with 400 naming path, from and to, on a merge and a PUT, and changes nothing', async () => {
      const id = await create({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] });
      const before = await get(id);
      const accepted = (await updates(id)).length;

      const merge = await request(app.http)
        .post(`${base()}/${id}`)
        .set('Authorization', auth)
        .send({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 2 }] })
        .expect(400);
      expect(merge.body.Message).toContain(
        'Consents[0].ConsentStatus (ConsentType "Terms"): Granted (1) → Denied (2) is not allowed',
      );
      const put = await request(app.http)
        .put(`${base()}/${id}`)
        .set('Authorization', auth)
        .send({ CustomerType: 'Customer', Consents: [{ ConsentType: 'Terms', ConsentStatus: 2 }] })
        .expect(400);
      expect(put.body.Message).toContain('Granted (1) → Denied (2) is not allowed');

      expect(await updates(id)).toHaveLength(accepted);
      expect(await get(id)).toEqual(before);
    });

    it('refuses a new consent that starts Revoked', async () => {
      const res = await request(app.http)
        .post(base())
        .set('Authorization', auth)
        .send({ CustomerType: 'Customer', Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] })
        .expect(400);
      expect(res.body.Message).toContain(
        'Consents[0].ConsentStatus (ConsentType "Terms"): no consent → Revoked (3) is not allowed: the consent was never granted',
      );
    });

    it('checks a PATCH of a consent status the same way (400 from the worker, nothing changed)', async () => {
      const id = await create({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] });
      const patch = (operations: object[]) =>
        request(app.http)
          .patch(`${base()}/${id}`)
          .set('Authorization', auth)
          .set('Content-Type', 'application/json-patch+json')
          .send(JSON.stringify(operations));
      const before = await get(id);
      const refused = await patch([
        { op: 'replace', path: '/Consents/0/ConsentStatus', value: 2 },
      ]).expect(400);
      expect(refused.body.Message).toContain(
        'Consents[0].ConsentStatus (ConsentType "Terms"): Granted (1) → Denied (2) is not allowed',
      );
      expect(await complete(id)).toEqual(before);
      const revoked = await patch([
        { op: 'replace', path: '/Consents/0/ConsentStatus', value: 3 },
      ]).expect(200);
      expect(consent(revoked.body, 'Terms')).toMatchObject({
        ConsentStatus: 3,
        ConsentDate: await lastWriteTime(id),
      });
    });

    it('fails a queued write in the worker when the stored status changed after acceptance', async () => {
      const id = await create({ Consents: [{ ConsentType: 'Marketing', ConsentStatus: 4 }] });
      await app.stopWorker(app.workers[0]);
      try {
        // Both are valid against NotSet; once the first applies, Granted → Denied is not.
        for (const status of [1, 2]) {
          await request(app.http)
            .post(`${base()}/${id}`)
            .set('Authorization', auth)
            .send({ Consents: [{ ConsentType: 'Marketing', ConsentStatus: status }] })
            .expect(202);
        }
      } finally {
        await app.startWorker();
      }
      const [second, first] = await eventually(async () => {
        const list = await updates(id);
        return list.every((u) => u.Status !== 'Pending Update') ? list : undefined;
      });
      expect(first.Status).toBe('Complete');
      expect(second.Status).toBe('Failed');
      expect(second.FailureReason).toContain(
        'Consents[0].ConsentStatus (ConsentType "Marketing"): Granted (1) → Denied (2) is not allowed',
      );
      expect(consent(await complete(id), 'Marketing')?.ConsentStatus).toBe(1);
    });
  });

  // Each derived field (version, ConsentDate, ExpirationDate, Expired, UpdatedVersionPending)
  // is settled case by case in libs/consents/src/domain/consent-write.spec.ts; here the
  // worker derives them at the write's acceptance time, on a merge and a PUT.
  describe('derived fields', () => {
    it('dates a status change at the write when no ConsentDate is sent, and keeps it on a restatement', async () => {
      const id = await create({
        Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
      });
      const created = await lastWriteTime(id);
      expect(consent(await get(id), 'Terms')?.ConsentDate).toBe(created);

      const revoked = await write(id, { Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] });
      const revokedAt = await lastWriteTime(id);
      expect(revokedAt).not.toBe(created);
      expect(consent(revoked, 'Terms')).toMatchObject({ ConsentStatus: 3, ConsentDate: revokedAt });

      // A PUT restating the consent without its dates keeps them: no history entry either.
      const restated = await write(
        id,
        {
          CustomerType: 'Customer',
          Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 3 }],
        },
        'put',
      );
      expect(consent(restated, 'Terms')).toMatchObject({
        ConsentStatus: 3,
        ConsentDate: revokedAt,
      });
      const history = await request(app.http)
        .get(`${base()}/${id}/History/Consents`)
        .set('Authorization', auth)
        .expect(200);
      expect(history.body).toHaveLength(2);
    });

    it('flags a consent on an older version, and a re-consent on the latest version clears the flag', async () => {
      const id = await create({
        Consents: [{ ConsentType: 'Yearly', ConsentVersion: '1.0', ConsentStatus: 1 }],
      });
      expect(consent(await get(id), 'Yearly')?.UpdatedVersionPending).toBe(true);
      const reconsented = await write(id, {
        Consents: [{ ConsentType: 'Yearly', ConsentVersion: '2.0', ConsentStatus: 1 }],
      });
      const at = await lastWriteTime(id);
      expect(consent(reconsented, 'Yearly')).toMatchObject({
        ConsentVersion: '2.0',
        ConsentStatus: 1,
        UpdatedVersionPending: false,
        // A consent on another version is given now (no ConsentDate sent).
        ConsentDate: at,
        ExpirationDate: plusDays(at, 365),
        Expired: false,
      });
    });
  });
});
