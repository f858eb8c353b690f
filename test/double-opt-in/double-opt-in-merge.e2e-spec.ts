import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
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
 * A profile merge absorbing a pending confirmation (docs/double-opt-in.md, "Merges"): the
 * survivor takes the request over when it has no state of its own for that consent, so the
 * person's link (sent for the absorbed profile) confirms on the survivor, with no second
 * message; otherwise the absorbed request is recorded Cancelled with the reason and its
 * link is refused as withdrawn. Real engine, Redis, worker and the harness's mail catcher.
 */
describe('Double opt-in: a merge absorbing a pending confirmation', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let profiles: ReturnType<typeof profileClient>;
  const NEWSLETTER = 'Newsletter DOI merged';

  const address = () => `doi-m-${randomBytes(5).toString('hex')}@example.com`;
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
  const newsletter = (email: string, status: number) => ({
    EmailAddress: email,
    Consents: [{ ConsentType: NEWSLETTER, ConsentStatus: status, Locale: 'en-us' }],
  });

  /** A profile whose grant on `email` waits, with the link of its message. */
  async function pendingGrant(email: string): Promise<{ id: number; link: string; Id: string }> {
    const id = await profiles.create({ Emails: [newsletter(email, 1)] });
    const held = consentOf(await profiles.complete(id), email)!;
    return {
      id,
      link: linkPathOf(await firstMailTo(email)),
      Id: held.PendingConfirmation.Id as string,
    };
  }

  /** Merges `absorbed` into `survivor`; answers the survivor once it absorbed it. */
  async function merge(survivor: number, absorbed: number): Promise<Body> {
    await request(app.http)
      .post(`${base()}/Profile/${survivor}/Merge`)
      .set('Authorization', auth)
      .send({ AbsorbedProfileId: absorbed, ReasonCode: 'Duplicate' })
      .expect(202);
    // The absorbed profile shows merged once its step is saved, which queued the survivor's.
    await eventually(async () => {
      const res = await request(app.http)
        .get(`${base()}/Profile/${absorbed}`)
        .set('Authorization', auth);
      return res.status === 404 ? true : undefined;
    });
    return profiles.complete(survivor);
  }

  /** The absorbed profile's own record of a confirmation, as the engine holds it. */
  async function storedRecord(profileId: number, id: string): Promise<Body | null> {
    const db = app.api.get<Connection>(getConnectionToken()).db!;
    return db.collection('consent_confirmations').findOne({ profileId, confirmationId: id });
  }

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

  it("takes the request over where the survivor has no state of its own: the person's link confirms on the survivor, one message", async () => {
    const email = address();
    const absorbed = await pendingGrant(email);
    const survivor = await profiles.create({ Emails: [{ EmailAddress: address() }] });
    await profiles.complete(survivor);

    const merged = await merge(survivor, absorbed.id);
    // The survivor's consent waits for the same confirmation (no new one, no message).
    expect(consentOf(merged, email)).toMatchObject({
      ConsentStatus: 4,
      PendingConfirmation: { Id: absorbed.Id },
    });
    const [listed] = await confirmations(survivor);
    expect(listed).toMatchObject({
      Id: absorbed.Id,
      State: 'Pending',
      EmailAddress: email,
      MergedFrom: absorbed.id,
    });

    // The link of the message sent for the absorbed profile: the page, then the button.
    const page = await request(app.http).get(absorbed.link).expect(200);
    expect(page.text).toContain('Send me the news');
    expect(consentOf(await profiles.complete(survivor), email)?.ConsentStatus).toBe(4);
    await request(app.http)
      .post(absorbed.link)
      .set('User-Agent', 'DOI-Merge/1.0')
      .type('form')
      .send('')
      .expect(200);
    const granted = await eventually(async () => {
      const consent = consentOf(await profiles.complete(survivor), email);
      return consent?.ConsentStatus === 1 ? consent : undefined;
    });
    expect(granted.PendingConfirmation).toBeUndefined();
    expect(granted.Confirmation).toMatchObject({
      Method: 'DoubleOptIn',
      LinkId: absorbed.Id,
      UserAgent: 'DOI-Merge/1.0',
    });
    expect(
      await eventually(async () => {
        const [item] = await confirmations(survivor);
        return item.State === 'Confirmed' ? item : undefined;
      }),
    ).toMatchObject({ Id: absorbed.Id, ConfirmedDate: granted.Confirmation.ConfirmedDate });
    // Used once: refused from now on; one message in all.
    expect((await request(app.http).get(absorbed.link).expect(410)).text).toContain('already used');
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('takes it over where the survivor holds the address with the consent NotSet (never answered)', async () => {
    const email = address();
    const survivor = await profiles.create({ Emails: [newsletter(email, 4)] });
    await profiles.complete(survivor);
    const absorbed = await pendingGrant(email);
    const merged = await merge(survivor, absorbed.id);
    expect(consentOf(merged, email)).toMatchObject({
      ConsentStatus: 4,
      PendingConfirmation: { Id: absorbed.Id },
    });
    expect((await confirmations(survivor))[0]).toMatchObject({
      Id: absorbed.Id,
      State: 'Pending',
      MergedFrom: absorbed.id,
    });
    await request(app.http).post(absorbed.link).type('form').send('').expect(200);
    await eventually(async () =>
      consentOf(await profiles.complete(survivor), email)?.ConsentStatus === 1 ? true : undefined,
    );
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('cancels the absorbed request where the survivor answered already (Denied), with the reason; its link is refused and changes nothing', async () => {
    const email = address();
    const survivor = await profiles.create({ Emails: [newsletter(email, 2)] });
    await profiles.complete(survivor);
    // The absorbed profile holds the same address, its grant waiting.
    const absorbed = await pendingGrant(email);
    const { link, Id: second } = absorbed;

    const merged = await merge(survivor, absorbed.id);
    const kept = consentOf(merged, email)!;
    expect(kept.ConsentStatus).toBe(2);
    expect(kept.PendingConfirmation).toBeUndefined();
    expect(await storedRecord(absorbed.id, second)).toMatchObject({
      State: 'Cancelled',
      ClosedReason: `Profile ${absorbed.id} was merged into profile ${survivor}, whose consent is Denied`,
    });
    expect((await confirmations(survivor)).map((item) => item.Id)).not.toContain(second);

    const refused = await request(app.http).post(link).type('form').send('').expect(410);
    expect(refused.text).toContain('withdrawn');
    expect(consentOf(await profiles.complete(survivor), email)?.ConsentStatus).toBe(2);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('keeps the survivor its own pending request: the absorbed one is cancelled, naming it', async () => {
    const email = address();
    const survivor = await pendingGrant(email);
    const absorbed = await profiles.create({ Emails: [newsletter(email, 1)] });
    const held = consentOf(await profiles.complete(absorbed), email)!;
    const absorbedId = held.PendingConfirmation.Id as string;
    await eventually(async () => ((await mailTo(email)).length === 2 ? true : undefined));

    const merged = await merge(survivor.id, absorbed);
    expect(consentOf(merged, email)?.PendingConfirmation?.Id).toBe(survivor.Id);
    expect(await storedRecord(absorbed, absorbedId)).toMatchObject({
      State: 'Cancelled',
      ClosedReason: `Profile ${absorbed} was merged into profile ${survivor.id}, whose consent waits for its own confirmation ${survivor.Id}`,
    });
    // The survivor's own link still confirms.
    await request(app.http).post(survivor.link).type('form').send('').expect(200);
    await eventually(async () =>
      consentOf(await profiles.complete(survivor.id), email)?.ConsentStatus === 1
        ? true
        : undefined,
    );
  });
});
