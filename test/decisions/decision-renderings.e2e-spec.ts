import request from 'supertest';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';

type Body = Record<string, any>;

/*
 * The GET's answers are kept with the read model's data object they were decided on and
 * reused while nothing they depend on changed (DecisionRenderings, docs/decisions.md "Cost").
 * Each step asks the same question again after one of those inputs changed: the time (a
 * consent's expiry passing), the profile (a write), the configuration (the program
 * deactivated), and shows the answer follows it.
 */
describe('Contact decisions: a reused answer follows every change of its inputs', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let profiles: ReturnType<typeof profileClient>;
  let auth: string;
  const DAY = 24 * 3600 * 1000;

  const decision = async (query: Record<string, string | number>): Promise<Body> => {
    const res = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/ContactDecision`)
      .query(query)
      .set('Authorization', auth);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const codes = (answer: Body) => (answer.Reasons as Body[]).map((r) => `${r.Effect}:${r.Code}`);

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    profiles = profileClient(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app?.close());

  it('answers again when a consent expires, the profile is written or the program changes', async () => {
    const expires = new Date(Date.now() + 2 * DAY).toISOString();
    const email = (Consents: object[], extra: Record<string, unknown> = {}) => ({
      Emails: [
        {
          EmailAddress: 'kept@example.com',
          Consents,
          EmailPreferences: [testPreference(programs.newsletter.email, extra)],
        },
      ],
    });
    const id = await profiles.create(
      email([
        {
          ConsentType: 'Marketing',
          ConsentVersion: '1.0',
          ConsentStatus: 1,
          ExpirationDate: expires,
        },
      ]),
    );
    await profiles.complete(id);
    const question = {
      profileId: id,
      channelId: 'Email',
      programId: programs.newsletter.email.ProgramId,
      consentType: 'Marketing',
    };
    const first = await decision(question);
    expect(codes(first)).toEqual(['Allow:OptedIn', 'Allow:ConsentGranted']);
    expect(await decision(question)).toEqual(first);

    // Time alone: past the consent's expiry, the same question is refused.
    app.advance(3 * DAY);
    const expired = await decision(question);
    expect(expired.Allowed).toBe(false);
    expect(codes(expired)).toEqual(['Allow:OptedIn', 'Deny:ConsentExpired']);

    // A write of the profile: the opt-out is the answer from its apply on.
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
      .set('Authorization', auth)
      .send(email([], { PreferenceType: 2 }))
      .expect(202);
    await profiles.complete(id);
    expect(codes(await decision(question))).toEqual(['Deny:OptedOut', 'Deny:ConsentExpired']);

    // The configuration: the program deactivated.
    const { consentType: _asked, ...ask } = question;
    expect(codes(await decision(ask))).toEqual(['Deny:OptedOut']);
    await request(app.http)
      .patch(`/Profiles/v4/${tenant.clientId}/Programs/${programs.newsletter.email.ProgramId}`)
      .set('Authorization', auth)
      .send([{ op: 'replace', path: '/IsActive', value: false }])
      .expect(200);
    expect(codes(await decision(ask))).toEqual(['Deny:ProgramInactive', 'Deny:OptedOut']);
  });
});
