import request from 'supertest';
import { testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';
import {
  blockWith,
  configureCentreTenant,
  createLinks,
  formOf,
  idOf,
  isChecked,
  pathOf,
} from './centre-helpers';

type Body = Record<string, any>;

/*
 * Global Privacy Control in the preference centre (docs/preference-centre.md, "Global
 * Privacy Control"): the client marks programs SaleOrShare; a page view with Sec-GPC: 1
 * opts the person out of them once (an ordinary queued merge, recorded with the attribute
 * $GlobalPrivacyControl and the SourceId GlobalPrivacyControl), opting back in needs a
 * confirmation, the contact decision names the GPC opt-out, /.well-known/gpc.json.
 */
describe('Preference centre: Global Privacy Control', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let deals: { ProgramId: string; ChannelId: string; FilterId: string };
  let service: { ProgramId: string; ChannelId: string; FilterId: string };
  let profiles: ReturnType<typeof profileClient>;

  const GPC = { 'Sec-GPC': '1' };
  const open = (path: string, headers: Record<string, string> = GPC) =>
    request(app.http).get(path).set(headers);
  const post = (path: string, form: string, headers: Record<string, string> = GPC) =>
    request(app.http)
      .post(path)
      .set(headers)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(form);
  const emailPreference = (profile: Body, programId: string) =>
    (profile.Emails[0].EmailPreferences as Body[]).find((p) => p.ProgramId === programId);
  const writes = async (id: number) => (await profiles.operations(id)).length;

  async function mark(programId: string, value = 'true'): Promise<void> {
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Config/CustomProperties/Program`)
      .set('Authorization', await tenant.bearer())
      .send([
        {
          ID: Number(programId),
          CustomProperties: [{ Key: 'SaleOrShare', Value: value, OverwriteExisting: true }],
        },
      ])
      .expect(200);
  }

  /** A profile with an email opted in to the newsletter and to Deals; its page link. */
  async function person(email: string): Promise<{ id: number; path: string }> {
    const id = await profiles.create({
      CustomerName: { FirstName: 'Sam' },
      Emails: [
        {
          EmailAddress: email,
          EmailPreferences: [
            testPreference(programs.newsletter.email, { FrequencyId: 'Weekly' }),
            testPreference(deals),
            testPreference(service),
          ],
        },
      ],
    });
    await profiles.complete(id);
    return { id, path: pathOf((await createLinks(app, tenant, id)).Url) };
  }

  async function decision(id: number, programId: string): Promise<Body> {
    const res = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/ContactDecision`)
      .query({ profileId: id, channelId: 'Email', programId })
      .set('Authorization', await tenant.bearer())
      .expect(200);
    return res.body as Body;
  }

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({
      programs,
      deals,
      hostile: service,
    } = await configureCentreTenant(app, tenant, {
      hostile: false,
    }));
    profiles = profileClient(app, tenant);
  });
  afterAll(() => app?.close());

  it('serves /.well-known/gpc.json as the GPC specification describes', async () => {
    const res = await request(app.http).get('/.well-known/gpc.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ gpc: true, lastUpdate: '2026-11-28' });
    // At the origin's root only, not under the API prefix.
    await request(app.http).get('/Profiles/v4/.well-known/gpc.json').expect(404);
  });

  it('changes nothing while the client has marked no program', async () => {
    const { id, path } = await person('unmarked@example.com');
    const before = await writes(id);
    const html = (await open(path).expect(200)).text;
    expect(html).not.toContain('Global Privacy Control');
    expect(await writes(id)).toBe(before);
    expect(emailPreference(await profiles.get(id), deals.ProgramId)).toMatchObject({
      PreferenceType: 1,
    });
  });

  it('opts out of the marked programs once per profile and signal, and records the signal', async () => {
    await mark(deals.ProgramId);
    const { id, path } = await person('gpc@example.com');
    const before = await writes(id);

    // Without the signal: nothing said, nothing written.
    const plain = (await open(path, {}).expect(200)).text;
    expect(plain).not.toContain('Global Privacy Control');
    expect(await writes(id)).toBe(before);

    const first = (await open(path).expect(200)).text;
    expect(first).toContain('We received your Global Privacy Control signal.');
    expect(first).toMatch(/We have opted you out of: <strong>Deals and offers<\/strong>\./);
    expect(isChecked(blockWith(first, 'Deals by email', 'gpc@example.com'))).toBe(false);
    expect(isChecked(blockWith(first, 'News by email', 'gpc@example.com'))).toBe(true);
    expect(await writes(id)).toBe(before + 1);

    const profile = await profiles.complete(id);
    expect(emailPreference(profile, deals.ProgramId)).toMatchObject({
      PreferenceType: 2,
      SourceId: 'GlobalPrivacyControl',
      UserId: 'PreferenceCentre',
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptOut' }],
    });
    // Programs the client did not mark keep their opt-ins.
    expect(emailPreference(profile, programs.newsletter.email.ProgramId)).toMatchObject({
      PreferenceType: 1,
    });
    expect(emailPreference(profile, service.ProgramId)).toMatchObject({ PreferenceType: 1 });

    // The history proves it: the opt-out with its source and attribute.
    const history = await profiles.history(id, 'Preferences');
    expect(JSON.stringify(history)).toContain('"SourceId":"GlobalPrivacyControl"');
    expect(JSON.stringify(history)).toContain('"Value":"OptOut"');
    // And the receipts' chain holds the entry.
    const receipts = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/ConsentReceipts`)
      .set('Authorization', await tenant.bearer())
      .expect(200);
    const last = (receipts.body.Entries as Body[]).at(-1)!;
    const receipt = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/ConsentReceipts/${last.EntryId}`)
      .set('Authorization', await tenant.bearer())
      .expect(200);
    expect(JSON.stringify(receipt.body.Entry)).toContain('GlobalPrivacyControl');

    // Every later view with the signal says so and writes nothing.
    for (let view = 0; view < 3; view++) {
      const again = (await open(path).expect(200)).text;
      expect(again).toMatch(/You are opted out of: <strong>Deals and offers<\/strong>\./);
    }
    expect(await writes(id)).toBe(before + 1);
  });

  it('writes the opt-out once when two views with the signal come at once', async () => {
    await mark(deals.ProgramId);
    const { id, path } = await person('twice@example.com');
    const before = await writes(id);
    const pages = await Promise.all([open(path).expect(200), open(path).expect(200)]);
    for (const page of pages)
      expect(page.text).toContain('We received your Global Privacy Control signal.');
    await profiles.complete(id);
    expect(await writes(id)).toBe(before + 1);
  });

  it('names the GPC opt-out as the reason of the contact decision', async () => {
    await mark(deals.ProgramId);
    const { id, path } = await person('decision@example.com');
    expect((await decision(id, deals.ProgramId)).Allowed).toBe(true);
    await open(path).expect(200);
    await profiles.complete(id);
    const answer = await decision(id, deals.ProgramId);
    expect(answer.Allowed).toBe(false);
    expect(answer.Reasons).toEqual([
      expect.objectContaining({
        Code: 'GpcOptOut',
        Effect: 'Deny',
        Preference: expect.objectContaining({
          PreferenceType: 2,
          GlobalPrivacyControl: 'OptOut',
        }),
        HistoryEntryId: expect.stringMatching(new RegExp(`^${tenant.clientId}\\|${id}\\|`)),
      }),
    ]);
    expect(answer.Reasons[0].Message).toMatch(/Global Privacy Control/);
    // Not marked: an ordinary answer.
    expect((await decision(id, service.ProgramId)).Allowed).toBe(true);
  });

  it('asks for a confirmation before opting back in while the signal is sent, and records it', async () => {
    await mark(deals.ProgramId);
    const { id, path } = await person('again@example.com');
    const html = (await open(path).expect(200)).text;
    await profiles.complete(id);
    const applied = await writes(id);
    const dealsChoice = idOf(blockWith(html, 'Deals by email', 'again@example.com'));

    // Ticking Deals with the signal: the confirmation page, nothing written.
    const form = formOf(html, { [`in.${dealsChoice}`]: '1' });
    const asked = await post(path, form).expect(200);
    expect(asked.text).toContain('Your browser is sending a Global Privacy Control signal');
    expect(asked.text).toMatch(/<li>Deals and offers: Deals by email/);
    expect(asked.text).toContain('name="gpcConfirm" value="1"');
    expect(await writes(id)).toBe(applied);

    // "No": nothing else changed, nothing written.
    const declined = await post(path, `${form}&gpcConfirm=0`).expect(303);
    expect(declined.headers.location).toMatch(/notice=unchanged/);
    expect(await writes(id)).toBe(applied);

    // "Yes": the opt-in, recorded with the signal.
    const confirmed = await post(path, `${form}&gpcConfirm=1`).expect(303);
    expect(confirmed.headers.location).toMatch(/notice=saved/);
    const profile = await profiles.complete(id);
    expect(emailPreference(profile, deals.ProgramId)).toMatchObject({
      PreferenceType: 1,
      SourceId: 'PreferenceCentre',
      PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptInConfirmed' }],
    });
    expect(await writes(id)).toBe(applied + 1);

    // The signal does not undo a confirmed opt-in.
    const after = (await open(path).expect(200)).text;
    expect(isChecked(blockWith(after, 'Deals by email', 'again@example.com'))).toBe(true);
    expect(await writes(id)).toBe(applied + 1);
    const answer = await decision(id, deals.ProgramId);
    expect(answer.Allowed).toBe(true);
    expect(answer.Reasons[0]).toMatchObject({
      Code: 'OptedIn',
      Preference: { GlobalPrivacyControl: 'OptInConfirmed' },
    });
  });

  it('opts out of a newly marked program at the next view with the signal', async () => {
    await mark(deals.ProgramId);
    await mark(service.ProgramId, 'false');
    const { id, path } = await person('newly@example.com');
    await open(path).expect(200);
    await profiles.complete(id);
    const once = await writes(id);
    expect(emailPreference(await profiles.get(id), service.ProgramId)).toMatchObject({
      PreferenceType: 1,
    });

    await mark(service.ProgramId);
    const html = (await open(path).expect(200)).text;
    expect(html).toMatch(
      /We have opted you out of: <strong>Deals and offers<\/strong>, <strong>Service news<\/strong>\./,
    );
    const profile = await profiles.complete(id);
    expect(emailPreference(profile, service.ProgramId)).toMatchObject({
      PreferenceType: 2,
      SourceId: 'GlobalPrivacyControl',
    });
    expect(await writes(id)).toBe(once + 1);
    await mark(service.ProgramId, 'false');
  });

  it('without the signal, opting in to a marked program needs no confirmation', async () => {
    await mark(deals.ProgramId);
    const { id, path } = await person('nosignal@example.com');
    await open(path).expect(200);
    await profiles.complete(id);
    const html = (await open(path, {}).expect(200)).text;
    const dealsChoice = idOf(blockWith(html, 'Deals by email', 'nosignal@example.com'));
    await post(path, formOf(html, { [`in.${dealsChoice}`]: '1' }), {}).expect(303);
    expect(emailPreference(await profiles.complete(id), deals.ProgramId)).toMatchObject({
      PreferenceType: 1,
    });
    // The next view with the signal opts out again: no opt-in was confirmed under it.
    await open(path).expect(200);
    expect(emailPreference(await profiles.complete(id), deals.ProgramId)).toMatchObject({
      PreferenceType: 2,
      SourceId: 'GlobalPrivacyControl',
    });
  });
});
