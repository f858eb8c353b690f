import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { type Permission, TenantAdminService } from '@app/auth';
import { CONFIRMATION_EXPIRY } from '@app/consents';
import { RedisService } from '@app/shared';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, fetchBearer, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { profileClient, runJob } from '../jobs/job-helpers';
import { firstMailTo, linkPathOf, mailTo } from './mail-inbox';
import { createConsentTypeRequiringConfirmation } from './confirmation-consent-type';

type Body = Record<string, any>;

/*
 * Double opt-in through the API (docs/double-opt-in.md), end to end on the real engine,
 * Redis, worker and SMTP (the harness's mail catcher): a grant becomes a pending
 * confirmation, the message is sent, the GET of its link confirms nothing, the POST does,
 * and the consent is Granted with its evidence in history. Links altered, expired, used or
 * withdrawn are refused with a page.
 */
describe('Double opt-in: the API grant path', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let profiles: ReturnType<typeof profileClient>;
  let programs: TestPrograms;
  const HOUR = 3600 * 1000;
  const NEWSLETTER = 'Newsletter DOI';

  const address = () => `doi-${randomBytes(5).toString('hex')}@example.com`;
  const grantBody = (email: string, status = 1) => ({
    Emails: [
      {
        EmailAddress: email,
        Consents: [{ ConsentType: NEWSLETTER, ConsentStatus: status, Locale: 'en-us' }],
        // An opt-in to the newsletter: the decision then turns on the consent alone.
        EmailPreferences: [testPreference(programs.newsletter.email)],
      },
    ],
  });
  const emailConsent = (profile: Body) => profile.Emails[0].Consents[0] as Body;
  const confirmations = async (id: number): Promise<Body[]> => {
    const res = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Confirmations`)
      .set('Authorization', auth)
      .expect(200);
    return res.body.Confirmations as Body[];
  };
  const decision = async (id: number): Promise<Body> =>
    (
      await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/ContactDecision`)
        .query({
          profileId: id,
          channelId: 'Email',
          programId: programs.newsletter.email.ProgramId,
          consentType: NEWSLETTER,
        })
        .set('Authorization', auth)
        .expect(200)
    ).body;
  const codes = (answer: Body) => (answer.Reasons as Body[]).map((r) => `${r.Effect}:${r.Code}`);

  /** A profile whose grant waits, and the link of its message. */
  async function pendingGrant(email: string): Promise<{ id: number; link: string }> {
    const id = await profiles.create(grantBody(email));
    await profiles.complete(id);
    const mail = await firstMailTo(email);
    return { id, link: linkPathOf(mail) };
  }

  beforeAll(async () => {
    // Event deliveries go to a local receiver (the consent.confirmed test).
    app = await startTestApp({ env: { EVENTS_ALLOW_PRIVATE_TARGETS: 'true' } });
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    profiles = profileClient(app, tenant);
    await createConsentTypeRequiringConfirmation(
      app,
      tenant.clientId,
      auth,
      NEWSLETTER,
      'Send me the weekly newsletter',
    );
  });
  afterAll(() => app?.close());

  it('holds a grant until the person confirms it from the message: GET confirms nothing, POST does', async () => {
    const email = address();
    const id = await profiles.create(grantBody(email));
    const held = await profiles.complete(id);
    // The consent stays as it was (NotSet, a new one), marked pending.
    expect(emailConsent(held)).toMatchObject({ ConsentType: NEWSLETTER, ConsentStatus: 4 });
    const pendingId = emailConsent(held).PendingConfirmation.Id as string;
    expect(pendingId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(emailConsent(held).Confirmation).toBeUndefined();

    const [listed] = await confirmations(id);
    expect(listed).toMatchObject({
      Id: pendingId,
      State: 'Pending',
      EmailAddress: email,
      ConsentType: NEWSLETTER,
    });
    expect(Date.parse(listed.ExpiresDate) - Date.parse(listed.RequestedDate)).toBe(72 * HOUR);

    const mail = await firstMailTo(email);
    expect(mail.subject).toBe(`Please confirm: ${NEWSLETTER}`);
    expect(mail.text).toContain('Send me the weekly newsletter');
    expect(mail.html).toContain('Send me the weekly newsletter');
    const link = linkPathOf(mail);
    expect(mail.html).toContain(link);
    // The message went out once; no API answer carries the link.
    expect(
      await eventually(async () =>
        (await confirmations(id))[0].MailState === 'Sent' ? true : undefined,
      ),
    ).toBe(true);
    const token = link.split('/').pop()!;
    expect(JSON.stringify(await confirmations(id))).not.toContain(token);
    expect(JSON.stringify(await profiles.get(id))).not.toContain(token);

    expect(codes(await decision(id))).toContain('Deny:AwaitingConfirmation');

    // A mail scanner prefetching the link: a page with one button, nothing recorded.
    const page = await request(app.http).get(link).expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('Send me the weekly newsletter');
    expect(page.text).toMatch(
      /<form method="post" action="[^"]+">\s*<button type="submit">Confirm<\/button>/,
    );
    expect(page.text.match(/<button/g)).toHaveLength(1);
    expect(emailConsent(await profiles.complete(id)).ConsentStatus).toBe(4);
    expect((await confirmations(id))[0].State).toBe('Pending');

    const confirmed = await request(app.http)
      .post(link)
      .set('User-Agent', 'DOI-Test/1.0')
      .type('form')
      .send('')
      .expect(200);
    expect(confirmed.text).toContain('confirmed');

    const granted = emailConsent(
      await eventually(async () => {
        const profile = await profiles.complete(id);
        return emailConsent(profile).ConsentStatus === 1 ? profile : undefined;
      }),
    );
    expect(granted.PendingConfirmation).toBeUndefined();
    expect(granted.Confirmation).toMatchObject({
      Method: 'DoubleOptIn',
      LinkId: pendingId,
      UserAgent: 'DOI-Test/1.0',
      IpAddress: expect.any(String),
    });
    expect(granted.ConsentDate).toBe(granted.Confirmation.ConfirmedDate);

    // The evidence is in the consent's history (and so in its receipt chain).
    const history = (
      await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/History/Consents`)
        .set('Authorization', auth)
        .expect(200)
    ).body as Body[];
    const grantedEntry = history
      .map((entry) => entry.Emails?.[0]?.Consents?.[0] as Body | undefined)
      .find((consent) => consent?.ConsentStatus === 1);
    expect(grantedEntry?.Confirmation).toMatchObject({
      Method: 'DoubleOptIn',
      LinkId: pendingId,
      UserAgent: 'DOI-Test/1.0',
    });

    // The standard receipts of the grant name the double opt-in with its evidence.
    const receipts = `/Profiles/v4/${tenant.clientId}/Profile/${id}/ConsentReceipts`;
    const entries = (await request(app.http).get(receipts).set('Authorization', auth).expect(200))
      .body.Entries as Body[];
    const grantEntry = entries.filter((entry) => entry.ConsentType === NEWSLETTER).pop()!;
    const kantara = (
      await request(app.http)
        .get(`${receipts}/${grantEntry.EntryId}/Kantara`)
        .set('Authorization', auth)
        .expect(200)
    ).body as Body;
    const method = kantara.Receipt.collectionMethod as string;
    expect(method).toMatch(/^DoubleOptIn: confirmed from the person's mailbox at /);
    for (const evidence of [granted.Confirmation.ConfirmedDate, pendingId, 'DOI-Test/1.0'])
      expect(method).toContain(evidence);
    const iso = (
      await request(app.http)
        .get(`${receipts}/${grantEntry.EntryId}/ISO27560`)
        .set('Authorization', auth)
        .expect(200)
    ).body as Body;
    expect(iso.Record['dpv:hasConsentStatus']['dpv:hasIndicationMethod']).toBe(method);

    const [closed] = await eventually(async () => {
      const list = await confirmations(id);
      return list[0].State === 'Confirmed' ? list : undefined;
    });
    expect(closed.ConfirmedDate).toBe(granted.Confirmation.ConfirmedDate);
    expect(codes(await decision(id))).toContain('Allow:ConsentGranted');

    // Single use: the link is refused from now on, and still one message.
    const again = await request(app.http).post(link).type('form').send('').expect(410);
    expect(again.text).toContain('already used');
    expect((await request(app.http).get(link).expect(410)).text).toContain('already used');
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('announces a confirmation to a subscription to consent.confirmed, with its id and time', async () => {
    const deliveries: Body[] = [];
    const receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      req.on('end', () => {
        const body = JSON.parse(raw) as Body;
        if (body.Type === 'SubscriptionValidation')
          return res
            .writeHead(200, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ Challenge: body.Challenge }));
        deliveries.push(body);
        return res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    let subscriptionId: string | undefined;
    try {
      const { port } = receiver.address() as AddressInfo;
      const sub = await request(app.http)
        .post(`/Profiles/v4/${tenant.clientId}/Events/Subscriptions`)
        .set('Authorization', auth)
        .send({
          Name: 'confirmations',
          State: 'Active',
          Url: `http://127.0.0.1:${port}/hook`,
          Subscriptions: [{ Entity: 'Consent', EventType: 'consent.confirmed' }],
        })
        .expect(201);
      subscriptionId = sub.body.SubscriptionId as string;
      await eventually(async () => {
        const got = await request(app.http)
          .get(`/Profiles/v4/${tenant.clientId}/Events/Subscriptions/${subscriptionId}`)
          .set('Authorization', auth);
        return got.body.ValidationStatus === 'Validated' ? true : undefined;
      });

      const email = address();
      const { id, link } = await pendingGrant(email);
      const [pending] = await confirmations(id);
      await request(app.http)
        .post(link)
        .set('User-Agent', 'DOI-Events/1.0')
        .type('form')
        .send('')
        .expect(200);
      const granted = emailConsent(
        await eventually(async () => {
          const profile = await profiles.complete(id);
          return emailConsent(profile).ConsentStatus === 1 ? profile : undefined;
        }),
      );
      const [event] = await eventually(async () => {
        const mine = deliveries.filter((delivery) => delivery.ProfileId === id);
        return mine.length ? mine : undefined;
      });
      expect(event).toMatchObject({
        EventType: 'consent.confirmed',
        ProfileId: id,
        Data: {
          ConsentType: NEWSLETTER,
          ConsentStatus: 1,
          Confirmation: {
            Method: 'DoubleOptIn',
            LinkId: pending.Id,
            ConfirmedDate: granted.Confirmation.ConfirmedDate,
            UserAgent: 'DOI-Events/1.0',
          },
        },
      });
      // Only the confirmation: the held grant's own writes announced nothing to it.
      expect(deliveries.filter((delivery) => delivery.ProfileId === id)).toHaveLength(1);
    } finally {
      // The later tests' confirmations are not delivered to a closed receiver.
      if (subscriptionId)
        await request(app.http)
          .delete(`/Profiles/v4/${tenant.clientId}/Events/Subscriptions/${subscriptionId}`)
          .set('Authorization', auth);
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('refuses an altered link with a page, and records nothing', async () => {
    const email = address();
    const { id, link } = await pendingGrant(email);
    const signature = link.slice(-43);
    const flipped = signature[0] === 'A' ? 'B' : 'A';
    const altered = `${link.slice(0, -43)}${flipped}${signature.slice(1)}`;
    const refused = await request(app.http).post(altered).type('form').send('').expect(403);
    expect(refused.text).toContain('not valid');
    await request(app.http).get(altered).expect(403);
    // Another profile's id under the same signature is refused too.
    const parts = link.split('.');
    parts[1] = String(Number(parts[1]) + 1);
    await request(app.http).get(parts.join('.')).expect(403);
    expect(emailConsent(await profiles.complete(id)).ConsentStatus).toBe(4);
    expect((await confirmations(id))[0].State).toBe('Pending');
  });

  it('refuses an expired link (410) and lists the confirmation Expired', async () => {
    const email = address();
    const { id, link } = await pendingGrant(email);
    app.advance(73 * HOUR);
    try {
      const refused = await request(app.http).post(link).type('form').send('').expect(410);
      expect(refused.text).toContain('expired');
      expect((await confirmations(id))[0].State).toBe('Expired');
    } finally {
      app.advance(-73 * HOUR);
    }
    expect(emailConsent(await profiles.complete(id)).ConsentStatus).toBe(4);
  });

  it('expires a pending confirmation with the scheduled job: Expired recorded, the mark and AwaitingConfirmation gone', async () => {
    const email = address();
    const { id, link } = await pendingGrant(email);
    const pendingId = emailConsent(await profiles.complete(id)).PendingConfirmation.Id as string;
    // Within its time to live the job leaves it.
    await runJob(app, CONFIRMATION_EXPIRY);
    expect(emailConsent(await profiles.complete(id)).PendingConfirmation?.Id).toBe(pendingId);

    app.advance(73 * HOUR);
    try {
      const run = await runJob(app, CONFIRMATION_EXPIRY);
      expect(run.counts?.confirmations).toBeGreaterThanOrEqual(1);
      const expired = emailConsent(
        await eventually(async () => {
          const profile = await profiles.complete(id);
          return emailConsent(profile).PendingConfirmation ? undefined : profile;
        }),
      );
      // The grant never applied: the consent stays NotSet, without the mark.
      expect(expired).toMatchObject({ ConsentStatus: 4 });
      expect(expired.Confirmation).toBeUndefined();
      expect(expired.Edited.ModifiedBy).toBe('system:confirmation-expiry');
      expect(codes(await decision(id))).not.toContain('Deny:AwaitingConfirmation');
      await request(app.http).post(link).type('form').send('').expect(410);
    } finally {
      app.advance(-73 * HOUR);
    }
    // Recorded, not only decided when read: with the clock back it is still Expired.
    const [listed] = await confirmations(id);
    expect(listed).toMatchObject({
      Id: pendingId,
      State: 'Expired',
      ClosedDate: listed.ExpiresDate,
    });
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('finds due confirmations again after Redis lost the expiry index (rebuilt from the engine)', async () => {
    const email = address();
    const { id } = await pendingGrant(email);
    const redis = app.api.get(RedisService, { strict: false });
    await redis.client.del(
      redis.key('confirmation-expiry'),
      redis.key('confirmation-expiry', 'built'),
    );
    app.advance(73 * HOUR);
    try {
      await runJob(app, CONFIRMATION_EXPIRY);
      await eventually(async () =>
        emailConsent(await profiles.complete(id)).PendingConfirmation ? undefined : true,
      );
    } finally {
      app.advance(-73 * HOUR);
    }
    expect((await confirmations(id))[0].State).toBe('Expired');
  });

  const resend = (id: number, confirmationId: string) =>
    request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Confirmations/${confirmationId}/Resend`)
      .set('Authorization', auth);
  /** A resend once the message before it is no longer being sent (409 until then). */
  const resendOnceSent = (id: number, confirmationId: string) =>
    eventually(async () => {
      const res = await resend(id, confirmationId);
      return res.status === 409 && /still being sent/.test(res.body.Message) ? undefined : res;
    });

  it("sends a pending confirmation's message again with the same link, up to the per-address limit (429, nothing sent)", async () => {
    const email = address();
    const { id, link } = await pendingGrant(email);
    const [pending] = await confirmations(id);
    const [first] = await mailTo(email);

    const again = await resendOnceSent(id, pending.Id);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ Id: pending.Id, State: 'Pending', MailResends: 1 });
    expect(JSON.stringify(again.body)).not.toContain(link.split('/').pop()!);
    const second = await eventually(async () =>
      (await mailTo(email)).find((mail) => mail.messageId !== first.messageId),
    );
    // The same confirmation and link, as a new message (its own Message-ID).
    expect(linkPathOf(second)).toBe(link);
    expect(second.subject).toBe(first.subject);

    // The default limit, 3 an hour per address: two more, then 429.
    for (const count of [3, 4]) {
      expect((await resendOnceSent(id, pending.Id)).status).toBe(202);
      await eventually(async () => ((await mailTo(email)).length === count ? true : undefined));
    }
    const refused = await resendOnceSent(id, pending.Id);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.Message).toContain(`at most 3 per hour`);
    // Nothing queued: the last message stays Sent, three resends, four messages.
    expect((await confirmations(id))[0]).toMatchObject({ MailState: 'Sent', MailResends: 3 });
    expect(await mailTo(email)).toHaveLength(4);

    // The link still confirms, once.
    await request(app.http).post(link).type('form').send('').expect(200);
    await eventually(async () =>
      emailConsent(await profiles.complete(id)).ConsentStatus === 1 ? true : undefined,
    );
  });

  it('refuses to resend a confirmation that is not pending (409 naming its state) or unknown (404)', async () => {
    const email = address();
    const { id } = await pendingGrant(email);
    const [pending] = await confirmations(id);
    app.advance(73 * HOUR);
    try {
      const expired = await resend(id, pending.Id).expect(409);
      expect(expired.body.Message).toContain(`Confirmation ${pending.Id} is Expired`);
    } finally {
      app.advance(-73 * HOUR);
    }
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
      .set('Authorization', auth)
      .send(grantBody(email, 2))
      .expect(202);
    await profiles.complete(id);
    const cancelled = await resend(id, pending.Id).expect(409);
    expect(cancelled.body.Message).toContain(`Confirmation ${pending.Id} is Cancelled`);
    const unknown = await resend(id, 'NoSuchConfirmation').expect(404);
    expect(unknown.body.Message).toContain('NoSuchConfirmation');
    expect(await mailTo(email)).toHaveLength(1);
  });

  it("lists and resends only the confirmations of the consent types in the caller's scope", async () => {
    const admin = app.api.get(TenantAdminService);
    const groups: [string, Permission[], { consentTypes: string[] }?][] = [
      [
        'Newsletter desk',
        [
          { area: 'profiles', access: 'write' },
          { area: 'consents', access: 'read' },
        ],
        { consentTypes: [NEWSLETTER] },
      ],
      [
        'Terms desk',
        [
          { area: 'profiles', access: 'write' },
          { area: 'consents', access: 'read' },
        ],
        { consentTypes: ['Terms'] },
      ],
      ['No consents', [{ area: 'profiles', access: 'write' }]],
    ];
    const bearers: Record<string, string> = {};
    for (const [name, permissions, scope] of groups) {
      await admin.defineUserGroup(tenant.clientId, name, permissions, scope);
      const userId = `doi-${name.toLowerCase().replace(/ /g, '-')}`;
      await admin.addUser({ clientId: tenant.clientId, userId, group: name });
      bearers[name] = await fetchBearer(app, tenant, userId);
    }
    const listAs = async (group: string, id: number) =>
      (
        await request(app.http)
          .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Confirmations`)
          .set('Authorization', bearers[group])
          .expect(200)
      ).body.Confirmations as Body[];

    const email = address();
    const { id } = await pendingGrant(email);
    const [pending] = await confirmations(id);
    expect((await listAs('Newsletter desk', id)).map((item) => item.Id)).toEqual([pending.Id]);
    expect(await listAs('Terms desk', id)).toEqual([]);
    expect(await listAs('No consents', id)).toEqual([]);
    // Outside its scope a confirmation is not known to the caller: 404, nothing sent.
    const hidden = await resend(id, pending.Id).set('Authorization', bearers['Terms desk']);
    expect(hidden.status).toBe(404);
    const none = await resend(id, pending.Id).set('Authorization', bearers['No consents']);
    expect(none.status).toBe(404);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('cancels a pending confirmation when the consent is denied meanwhile', async () => {
    const email = address();
    const { id, link } = await pendingGrant(email);
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
      .set('Authorization', auth)
      .send(grantBody(email, 2))
      .expect(202);
    const denied = emailConsent(await profiles.complete(id));
    expect(denied.ConsentStatus).toBe(2);
    expect(denied.PendingConfirmation).toBeUndefined();
    expect((await confirmations(id))[0].State).toBe('Cancelled');
    const refused = await request(app.http).post(link).type('form').send('').expect(410);
    expect(refused.text).toContain('withdrawn');
    expect(emailConsent(await profiles.complete(id)).ConsentStatus).toBe(2);
  });

  it("forgets an erased profile's confirmations (they hold its address); its link is refused", async () => {
    const email = address();
    const { id, link } = await pendingGrant(email);
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Erasure`)
      .set('Authorization', auth)
      .send({ ReasonCode: 'GDPR-ART17' })
      .expect(202);
    await eventually(async () => {
      const res = await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Erasure`)
        .set('Authorization', auth);
      return res.status === 200 ? true : undefined;
    });
    const db = app.api.get<Connection>(getConnectionToken()).db!;
    for (const name of [
      'consent_confirmations',
      'consent_confirmation_lists',
      'confirmation_outbox',
    ])
      expect(JSON.stringify(await db.collection(name).find({}).toArray())).not.toContain(email);
    await request(app.http).get(link).expect(404);
  });

  it('refuses RequiresConfirmation on a consent type that is not an Email one', async () => {
    const res = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/ConsentTypes`)
      .set('Authorization', auth)
      .send({
        ConsentTypes: [{ TypeName: 'Phone DOI', ChannelId: 'Phone', RequiresConfirmation: true }],
      })
      .expect(400);
    expect(res.body.Message).toContain('RequiresConfirmation (value true)');
  });
});
