import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { type Permission, TenantAdminService } from '@app/auth';
import { CONFIRMATION_EXPIRY } from '@app/consents';
import {
  configureTestTenant,
  testPreference,
  type TestFilter,
  type TestPrograms,
} from '../harness/configuration';
import { createTestTenant, fetchBearer, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { itemsWith, profileClient, runJob } from '../jobs/job-helpers';
import { firstMailTo, linkPathOf, mailTo } from './mail-inbox';

type Body = Record<string, any>;

/*
 * Double opt-in of programs (docs/double-opt-in.md, "Programs"), end to end on the real
 * engine, Redis, worker and SMTP (the harness's mail catcher): an opt-in on an Email filter
 * of a program requiring confirmation is held (no PreferenceType, a pending mark), one
 * message goes out, the GET of its link changes nothing, the POST applies the opt-in with
 * its evidence in history; an opt-out cancels it; the expiry job ends it; a program without
 * the setting is as before.
 */
describe('Double opt-in: a program requiring confirmation', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let profiles: ReturnType<typeof profileClient>;
  let programs: TestPrograms;
  let letters: TestFilter;
  const LETTERS = 'Letters DOI';
  const LETTERS_TEXT = 'Send me the monthly letters by email';

  const address = () => `doi-program-${randomBytes(5).toString('hex')}@example.com`;
  const optInBody = (email: string, filter: TestFilter, PreferenceType = 1) => ({
    Emails: [
      { EmailAddress: email, EmailPreferences: [testPreference(filter, { PreferenceType })] },
    ],
  });
  const emailPreference = (profile: Body) => profile.Emails[0].EmailPreferences[0] as Body;
  const confirmations = async (id: number): Promise<Body[]> =>
    (
      await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Confirmations`)
        .set('Authorization', auth)
        .expect(200)
    ).body.Confirmations as Body[];
  const decision = async (id: number, filter: TestFilter): Promise<Body> =>
    (
      await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/ContactDecision`)
        .query({ profileId: id, channelId: 'Email', programId: filter.ProgramId })
        .set('Authorization', auth)
        .expect(200)
    ).body;
  const codes = (answer: Body) => (answer.Reasons as Body[]).map((r) => `${r.Effect}:${r.Code}`);
  const postPrograms = (Programs: object[]) =>
    request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Programs`)
      .set('Authorization', auth)
      .send({ Programs });

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    profiles = profileClient(app, tenant);
    const created = await postPrograms([
      {
        Name: LETTERS,
        ProgramType: 'Marketing',
        RequiresConfirmation: true,
        Filters: [
          {
            Name: 'Letters by email',
            Description: LETTERS_TEXT,
            ChannelID: 'Email',
            OptInCustomerExpirationDays: 365,
          },
          { Name: 'Letters by text', ChannelID: 'SMS' },
        ],
      },
    ]).expect(201);
    const [program] = created.body.Programs as Body[];
    expect(program.RequiresConfirmation).toBe(true);
    letters = {
      ProgramId: String(program.Id),
      ChannelId: 'Email',
      FilterId: String(program.Filters[0].ID),
    };
  });
  afterAll(() => app?.close());

  it('holds an opt-in until the person confirms it from the message: GET changes nothing, POST applies it with its evidence', async () => {
    const email = address();
    const id = await profiles.create(optInBody(email, letters));
    const held = emailPreference(await profiles.complete(id));
    // Not opted in (no PreferenceType: a new preference), marked pending.
    expect(held.PreferenceType).toBeUndefined();
    expect(held.ExpirationDate).toBeUndefined();
    const pendingId = held.PendingConfirmation.Id as string;
    expect(pendingId).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const [listed] = await confirmations(id);
    expect(listed).toMatchObject({ Id: pendingId, State: 'Pending', EmailAddress: email });
    expect(listed.Preference).toEqual(letters);
    expect(listed.ConsentType).toBeUndefined();
    expect(codes(await decision(id, letters))).toContain('Deny:AwaitingConfirmation');

    const mail = await firstMailTo(email);
    expect(mail.subject).toBe(`Please confirm: ${LETTERS}`);
    expect(mail.text).toContain(LETTERS_TEXT);
    const link = linkPathOf(mail);

    // A mail scanner prefetching the link: a page, nothing recorded.
    const page = await request(app.http).get(link).expect(200);
    expect(page.text).toContain('<h1>Confirm your subscription</h1>');
    expect(page.text).toContain(LETTERS);
    expect(page.text).toContain(LETTERS_TEXT);
    const prefetched = emailPreference(await profiles.complete(id));
    expect(prefetched.PreferenceType).toBeUndefined();
    expect(prefetched.PendingConfirmation.Id).toBe(pendingId);
    expect((await confirmations(id))[0].State).toBe('Pending');

    const answer = await request(app.http)
      .post(link)
      .set('User-Agent', 'DOI-Program-Test/1.0')
      .type('form')
      .send('')
      .expect(200);
    expect(answer.text).toContain('Your subscription is recorded.');
    const confirmed = emailPreference(
      await eventually(async () => {
        const profile = await profiles.complete(id);
        return emailPreference(profile).PreferenceType === 1 ? profile : undefined;
      }),
    );
    expect(confirmed.PendingConfirmation).toBeUndefined();
    expect(confirmed.PreferenceStatus).toBe('Active');
    expect(confirmed.ExpirationDate).toEqual(expect.any(String));
    expect(confirmed.Confirmation).toMatchObject({
      Method: 'DoubleOptIn',
      LinkId: pendingId,
      UserAgent: 'DOI-Program-Test/1.0',
      IpAddress: expect.any(String),
    });

    // The evidence is in the preference's history; the write is the ordinary queued one.
    const history = await profiles.history(id, 'Preferences');
    expect(itemsWith(history, 'Confirmation').map((item) => item.Confirmation)).toContainEqual(
      confirmed.Confirmation,
    );
    expect(await profiles.operations(id)).toEqual(['create', 'preference-confirm']);

    const [closed] = await eventually(async () => {
      const list = await confirmations(id);
      return list[0].State === 'Confirmed' ? list : undefined;
    });
    expect(closed.ConfirmedDate).toBe(confirmed.Confirmation.ConfirmedDate);
    const allowed = await decision(id, letters);
    expect(codes(allowed)).toContain('Allow:OptedIn');
    expect(codes(allowed)).not.toContain('Deny:AwaitingConfirmation');

    // Single use, and one message in all.
    expect((await request(app.http).post(link).type('form').send('').expect(410)).text).toContain(
      'already used',
    );
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('cancels a pending opt-in when the person opts out meanwhile', async () => {
    const email = address();
    const id = await profiles.create(optInBody(email, letters));
    await profiles.complete(id);
    const link = linkPathOf(await firstMailTo(email));
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
      .set('Authorization', auth)
      .send(optInBody(email, letters, 2))
      .expect(202);
    const optedOut = emailPreference(await profiles.complete(id));
    expect(optedOut.PreferenceType).toBe(2);
    expect(optedOut.PendingConfirmation).toBeUndefined();
    expect((await confirmations(id))[0].State).toBe('Cancelled');
    expect(codes(await decision(id, letters))).toContain('Deny:OptedOut');
    expect((await request(app.http).post(link).type('form').send('').expect(410)).text).toContain(
      'withdrawn',
    );
    expect(emailPreference(await profiles.complete(id)).PreferenceType).toBe(2);
  });

  it('expires a pending opt-in with the scheduled job: Expired recorded, the mark and AwaitingConfirmation gone', async () => {
    const HOUR = 3600 * 1000;
    const email = address();
    const id = await profiles.create(optInBody(email, letters));
    const pendingId = emailPreference(await profiles.complete(id)).PendingConfirmation.Id as string;
    const link = linkPathOf(await firstMailTo(email));
    app.advance(73 * HOUR);
    try {
      await runJob(app, CONFIRMATION_EXPIRY);
      const expired = emailPreference(
        await eventually(async () => {
          const profile = await profiles.complete(id);
          return emailPreference(profile).PendingConfirmation ? undefined : profile;
        }),
      );
      // The opt-in never applied: still no PreferenceType, without the mark.
      expect(expired.PreferenceType).toBeUndefined();
      expect(expired.Confirmation).toBeUndefined();
      expect(await profiles.operations(id)).toEqual(['create', 'preference-confirmation-expire']);
      expect(codes(await decision(id, letters))).toEqual(['Deny:PreferenceTypeUnset']);
      await request(app.http).post(link).type('form').send('').expect(410);
    } finally {
      app.advance(-73 * HOUR);
    }
    expect((await confirmations(id))[0]).toMatchObject({ Id: pendingId, State: 'Expired' });
  });

  it("lists and resends an opt-in's confirmation only to user groups that see its program", async () => {
    const admin = app.api.get(TenantAdminService);
    const permissions: Permission[] = [
      { area: 'profiles', access: 'write' },
      { area: 'preferences', access: 'read' },
    ];
    const bearers: Record<string, string> = {};
    for (const [name, programIds] of [
      ['Letters desk', [letters.ProgramId]],
      ['Newsletter desk', [programs.newsletter.email.ProgramId]],
    ] as const) {
      await admin.defineUserGroup(tenant.clientId, name, permissions, {
        programs: [...programIds],
      });
      const userId = `doi-${name.toLowerCase().replace(/ /g, '-')}`;
      await admin.addUser({ clientId: tenant.clientId, userId, group: name });
      bearers[name] = await fetchBearer(app, tenant, userId);
    }
    const email = address();
    const id = await profiles.create(optInBody(email, letters));
    await profiles.complete(id);
    await firstMailTo(email);
    const [pending] = await eventually(async () => {
      const list = await confirmations(id);
      return list[0]?.MailState === 'Sent' ? list : undefined;
    });
    const base = `/Profiles/v4/${tenant.clientId}/Profile/${id}/Confirmations`;
    const listAs = async (group: string) =>
      (await request(app.http).get(base).set('Authorization', bearers[group]).expect(200)).body
        .Confirmations as Body[];
    expect((await listAs('Letters desk')).map((item) => item.Id)).toEqual([pending.Id]);
    expect(await listAs('Newsletter desk')).toEqual([]);
    // Outside its scope the confirmation is not known to the caller: 404, nothing sent.
    await request(app.http)
      .post(`${base}/${pending.Id}/Resend`)
      .set('Authorization', bearers['Newsletter desk'])
      .expect(404);
    expect(await mailTo(email)).toHaveLength(1);
    // Within it, the message goes out again with the same link.
    await request(app.http)
      .post(`${base}/${pending.Id}/Resend`)
      .set('Authorization', bearers['Letters desk'])
      .expect(202);
    const [first, second] = await eventually(async () => {
      const mails = await mailTo(email);
      return mails.length === 2 ? mails : undefined;
    });
    expect(linkPathOf(second)).toBe(linkPathOf(first));
  });

  it('applies an opt-in to a program without the setting at once, as before', async () => {
    const email = address();
    const id = await profiles.create(optInBody(email, programs.newsletter.email));
    const preference = emailPreference(await profiles.complete(id));
    expect(preference.PreferenceType).toBe(1);
    expect(preference.PendingConfirmation).toBeUndefined();
    expect(await confirmations(id)).toEqual([]);
    expect(codes(await decision(id, programs.newsletter.email))).toContain('Allow:OptedIn');
  });

  it('refuses RequiresConfirmation off the Email channel (400 naming the field and value), creating nothing', async () => {
    const sms = await postPrograms([
      {
        Name: 'Texts DOI',
        ProgramType: 'Marketing',
        Filters: [{ Name: 'Texts', ChannelID: 'SMS', RequiresConfirmation: true }],
      },
    ]).expect(400);
    expect(sms.body.Message).toContain(
      'Invalid Programs[0].Filters[0].RequiresConfirmation (value true): only a filter with ChannelID Email',
    );
    const noEmail = await postPrograms([
      {
        Name: 'Calls DOI',
        ProgramType: 'Marketing',
        RequiresConfirmation: true,
        Filters: [{ Name: 'Calls', ChannelID: 'Phone' }],
      },
    ]).expect(400);
    expect(noEmail.body.Message).toContain(
      'Invalid Programs[0].RequiresConfirmation (value true): only a program with a filter whose ChannelID is Email',
    );
    const notBoolean = await postPrograms([
      { Name: 'Odd DOI', ProgramType: 'Marketing', RequiresConfirmation: 'yes' },
    ]).expect(400);
    expect(notBoolean.body.Message).toMatch(
      /RequiresConfirmation.*"yes"|"yes".*RequiresConfirmation/,
    );
    const names = (
      (
        await request(app.http)
          .get(`/Profiles/v4/${tenant.clientId}/Programs`)
          .set('Authorization', auth)
          .expect(200)
      ).body.Programs as Body[]
    ).map((program) => program.Name);
    expect(names).not.toEqual(expect.arrayContaining(['Texts DOI']));
    expect(names).not.toContain('Calls DOI');
    expect(names).not.toContain('Odd DOI');
  });
});
