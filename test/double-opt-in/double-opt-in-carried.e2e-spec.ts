import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';
import { firstMailTo, linkPathOf, mailTo } from './mail-inbox';
import { createConsentTypeRequiringConfirmation } from './confirmation-consent-type';

type Body = Record<string, any>;

/*
 * A grant confirmed once is not held again (docs/double-opt-in.md, "Confirmations made
 * elsewhere"): a profile merge carries the absorbed consent's Confirmation to the survivor,
 * and a bulk import's record may state a confirmation made elsewhere (read-only through the
 * Data API). Real engine, Redis, worker and the harness's mail catcher.
 */
describe('Double opt-in: confirmed grants that travel', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let profiles: ReturnType<typeof profileClient>;
  const NEWSLETTER = 'Newsletter DOI carried';

  const address = () => `doi-c-${randomBytes(5).toString('hex')}@example.com`;
  const base = () => `/Profiles/v4/${tenant.clientId}`;
  const consentOf = (profile: Body, email: string): Body | undefined =>
    (profile.Emails as Body[] | undefined)
      ?.find((e) => e.EmailAddress === email)
      ?.Consents?.find((c: Body) => c.ConsentType === NEWSLETTER);
  const confirmations = async (id: number): Promise<Body[]> =>
    (
      await request(app.http)
        .get(`${base()}/Profile/${id}/Confirmations`)
        .set('Authorization', auth)
        .expect(200)
    ).body.Confirmations as Body[];

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    profiles = profileClient(app, tenant);
    await createConsentTypeRequiringConfirmation(
      app,
      tenant.clientId,
      auth,
      NEWSLETTER,
      'Send me the news',
    );
  });
  afterAll(() => app?.close());

  it('a merge carries a confirmed grant to a survivor without it: Granted with the same evidence, no new confirmation, no message', async () => {
    const email = address();
    // The absorbed profile: granted, confirmed once through the link.
    const absorbed = await profiles.create({
      Emails: [
        {
          EmailAddress: email,
          Consents: [{ ConsentType: NEWSLETTER, ConsentStatus: 1, Locale: 'en-us' }],
        },
      ],
    });
    await profiles.complete(absorbed);
    const link = linkPathOf(await firstMailTo(email));
    await request(app.http).post(link).type('form').send('').expect(200);
    const confirmed = await eventually(async () => {
      const consent = consentOf(await profiles.complete(absorbed), email);
      return consent?.ConsentStatus === 1 ? consent : undefined;
    });
    const evidence = confirmed.Confirmation as Body;
    expect(evidence).toMatchObject({ Method: 'DoubleOptIn', LinkId: expect.any(String) });

    // The survivor: another address, no consent of the type.
    const survivor = await profiles.create({ Emails: [{ EmailAddress: address() }] });
    await profiles.complete(survivor);
    const listedBefore = await confirmations(survivor);

    await request(app.http)
      .post(`${base()}/Profile/${survivor}/Merge`)
      .set('Authorization', auth)
      .send({ AbsorbedProfileId: absorbed, ReasonCode: 'Duplicate' })
      .expect(202);
    const merged = await eventually(async () => {
      const profile = await profiles.complete(survivor);
      return consentOf(profile, email) ? profile : undefined;
    });

    const carried = consentOf(merged, email)!;
    expect(carried.ConsentStatus).toBe(1);
    expect(carried.PendingConfirmation).toBeUndefined();
    expect(carried.Confirmation).toEqual(evidence);
    expect(carried.ConsentDate).toBe(confirmed.ConsentDate);
    // No new confirmation for the survivor, so no second message.
    expect(await confirmations(survivor)).toEqual(listedBefore);
    expect(await mailTo(email)).toHaveLength(1);
  });

  describe('bulk import records', () => {
    let n = 0;
    const importBase = () => `${base()}/Bulk/Import`;
    const crm = () => `DOI-${Date.now().toString(36)}-${n++}`;
    const record = (alternateId: string, email: string, consent: Body) => ({
      CustomerType: 'Customer',
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: alternateId }],
      Emails: [
        {
          EmailAddress: email,
          Consents: [{ ConsentType: NEWSLETTER, ConsentStatus: 1, Locale: 'en-us', ...consent }],
        },
      ],
    });
    const byCrm = (alternateId: string) =>
      request(app.http)
        .get(`${base()}/Profile/AlternateId`)
        .query({ alternateIdType: 'CRM', alternateId })
        .set('Authorization', auth);
    /** Stages the records in a new import; answers the stage's status. */
    async function staged(records: object[]): Promise<{ token: number; status: Body }> {
      const created = await request(app.http)
        .post(importBase())
        .set('Authorization', auth)
        .send({ Name: 'DOI', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' })
        .expect(201);
      const token = created.body.AccessToken as number;
      const stage = await request(app.http)
        .post(`${importBase()}/${token}/Stage`)
        .set('Authorization', auth)
        .send(records)
        .expect(200);
      return { token, status: stage.body as Body };
    }
    /** Executes the import; answers its final status. */
    async function executed(token: number): Promise<Body> {
      await request(app.http)
        .post(`${importBase()}/${token}/Execute`)
        .set('Authorization', auth)
        .expect((res) => expect([200, 202]).toContain(res.status));
      return eventually(async () => {
        const res = await request(app.http)
          .get(`${importBase()}/${token}`)
          .set('Authorization', auth)
          .expect(200);
        return ['Completed', 'Failed'].includes(res.body.Status) ? (res.body as Body) : undefined;
      });
    }
    const profileOf = async (alternateId: string): Promise<Body> => {
      const found = await eventually(async () => {
        const res = await byCrm(alternateId);
        return res.status === 200 ? (res.body as Body) : undefined;
      });
      return profiles.complete(found.ProfileId as number);
    };

    it('a record stating a confirmation made elsewhere: Granted at once with it, in GET and history, no message', async () => {
      const email = address();
      const alternateId = crm();
      const stated = {
        Method: 'DoubleOptIn',
        ConfirmedDate: '2026-01-15T08:30:00.000Z',
        LinkId: 'esp-link-42',
        IpAddress: '203.0.113.7',
        UserAgent: 'OtherEsp/2.0',
        Evidence: 'Confirmed through the previous provider (campaign 2026-01)',
      };
      const { token, status } = await staged([
        record(alternateId, email, { Confirmation: stated }),
      ]);
      expect(status.ValidationSuccessful).toBe(1);
      expect((await executed(token)).Processed).toBe(1);

      const profile = await profileOf(alternateId);
      const consent = consentOf(profile, email)!;
      expect(consent.ConsentStatus).toBe(1);
      expect(consent.PendingConfirmation).toBeUndefined();
      expect(consent.Confirmation).toEqual(stated);
      const history = await profiles.history(profile.ProfileId as number, 'Consents');
      const entry = history
        .map((e) => (e.Emails as Body[] | undefined)?.[0]?.Consents?.[0] as Body | undefined)
        .find((c) => c?.ConsentStatus === 1);
      expect(entry?.Confirmation).toEqual(stated);
      // Nothing to confirm: no confirmation, so no message.
      expect(await confirmations(profile.ProfileId as number)).toEqual([]);
      expect(await mailTo(email)).toHaveLength(0);
    });

    it('a record without a confirmation is held like the API: pending, one message', async () => {
      const email = address();
      const alternateId = crm();
      const { token } = await staged([record(alternateId, email, {})]);
      expect((await executed(token)).Processed).toBe(1);
      const profile = await profileOf(alternateId);
      const consent = consentOf(profile, email)!;
      expect(consent.ConsentStatus).toBe(4);
      expect(consent.PendingConfirmation?.Id).toEqual(expect.any(String));
      expect(consent.Confirmation).toBeUndefined();
      const [listed] = await confirmations(profile.ProfileId as number);
      expect(listed).toMatchObject({ State: 'Pending', EmailAddress: email });
      await firstMailTo(email);
      expect(
        await eventually(async () =>
          (await confirmations(profile.ProfileId as number))[0].MailState === 'Sent'
            ? true
            : undefined,
        ),
      ).toBe(true);
      expect(await mailTo(email)).toHaveLength(1);
    });

    it("an invalid stated confirmation is the record's exception naming the field and value; nothing applied", async () => {
      const future = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
      const emails = [address(), address(), address()];
      const ids = [crm(), crm(), crm()];
      const { token, status } = await staged([
        record(ids[0], emails[0], {
          Confirmation: { Method: 'DoubleOptIn', ConfirmedDate: future },
        }),
        record(ids[1], emails[1], {
          Confirmation: { Method: 'DoubleOptIn', ConfirmedDate: 'last Tuesday' },
        }),
        record(ids[2], emails[2], {
          ConsentStatus: 2,
          Confirmation: { Method: 'DoubleOptIn', ConfirmedDate: '2026-01-15T08:30:00.000Z' },
        }),
      ]);
      expect(status.ValidationSuccessful).toBe(0);
      expect(status.ValidationFailed).toBe(3);
      const reasons = (
        (
          await request(app.http)
            .get(`${importBase()}/${token}/Exceptions`)
            .set('Authorization', auth)
            .expect(200)
        ).body.Exceptions as Body[]
      ).map((e) => e.Reason as string);
      expect(reasons[0]).toContain(
        `Emails[0].Consents[0].Confirmation.ConfirmedDate (value ${JSON.stringify(future)}): must not be in the future`,
      );
      expect(reasons[1]).toContain('Emails[0].Consents[0].Confirmation.ConfirmedDate');
      expect(reasons[1]).toContain('"last Tuesday"');
      expect(reasons[2]).toContain('Emails[0].Consents[0].Confirmation');
      expect(reasons[2]).toContain('ConsentStatus 1 (value 2)');

      const ended = await executed(token);
      expect(ended.Processed).toBe(0);
      for (const id of ids) expect((await byCrm(id)).status).toBe(404);
      for (const email of emails) expect(await mailTo(email)).toHaveLength(0);
    });

    it('through the Data API a Confirmation stays read-only: the grant is held, the value ignored', async () => {
      const email = address();
      const id = await profiles.create({
        Emails: [
          {
            EmailAddress: email,
            Consents: [
              {
                ConsentType: NEWSLETTER,
                ConsentStatus: 1,
                Confirmation: { Method: 'DoubleOptIn', ConfirmedDate: '2026-01-15T08:30:00.000Z' },
              },
            ],
          },
        ],
      });
      const consent = consentOf(await profiles.complete(id), email)!;
      expect(consent.ConsentStatus).toBe(4);
      expect(consent.Confirmation).toBeUndefined();
      expect(consent.PendingConfirmation).toBeDefined();
    });
  });
});
