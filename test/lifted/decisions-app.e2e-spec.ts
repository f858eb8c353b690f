import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import request from 'supertest';
import { closeDecisionsApp, createDecisionsApp } from '../../apps/decisions/src/bootstrap';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';

/*
 * The contact decisions lifted into their own app (apps/decisions, issue 42): built from the
 * same libs, against the same engine and Redis as the api, it answers what the api answers,
 * serves nothing else, and documents its own routes only.
 */
describe('The lifted decisions app', () => {
  let app: TestApp;
  let decisions: NestFastifyApplication;
  let http: Server;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let auth: string;
  let profileId: number;

  const question = () => ({
    profileId,
    channelId: 'Email',
    programId: programs.newsletter.email.ProgramId,
  });

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    const profiles = profileClient(app, tenant);
    profileId = await profiles.create({
      Emails: [
        {
          EmailAddress: 'lifted@example.com',
          EmailPreferences: [testPreference(programs.newsletter.email)],
        },
      ],
    });
    await profiles.complete(profileId);
    decisions = await createDecisionsApp(app.settings);
    await decisions.init();
    await decisions.getHttpAdapter().getInstance().ready();
    http = decisions.getHttpServer() as Server;
  });
  afterAll(async () => {
    if (decisions) await closeDecisionsApp(decisions, app.settings);
    await app?.close();
  });

  it("answers a question as the api does, with the api's bearer token and with CUSTOMAUTH3", async () => {
    const path = `/Profiles/v4/${tenant.clientId}/ContactDecision`;
    const fromApi = await request(app.http).get(path).query(question()).set('Authorization', auth);
    expect(fromApi.status).toBe(200);
    expect(fromApi.body.Allowed).toBe(true);
    const lifted = await request(http).get(path).query(question()).set('Authorization', auth);
    expect(lifted.status).toBe(200);
    expect(lifted.body).toEqual(fromApi.body);
    const signed = await request(http)
      .get(path)
      .query(question())
      .set('Authorization', tenant.signed());
    expect(signed.status).toBe(200);
    expect(signed.body).toEqual(fromApi.body);

    const batch = await request(http)
      .post(`/Profiles/v4/${tenant.clientId}/ContactDecisions`)
      .set('Authorization', auth)
      .send({
        Questions: [
          { ProfileId: profileId, ChannelId: 'Email', ProgramId: question().programId },
          { ProfileId: 999999, ChannelId: 'Email', ProgramId: question().programId },
        ],
      });
    expect(batch.status).toBe(200);
    expect(batch.body.Decisions.map((d: { Allowed: boolean }) => d.Allowed)).toEqual([true, false]);
  });

  it('refuses a request without credentials, and serves no other route', async () => {
    await request(http)
      .get(`/Profiles/v4/${tenant.clientId}/ContactDecision`)
      .query(question())
      .expect(401);
    await request(http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/${profileId}`)
      .set('Authorization', auth)
      .expect(404);
    await request(http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${profileId}`)
      .set('Authorization', auth)
      .send({ CustomerName: { LastName: 'Nope' } })
      .expect(404);
    await request(http).post('/oauth2/v1/token').send('grant_type=client_credentials').expect(404);
  });

  it('has its health and its own OpenAPI document: the decisions and the operational routes only', async () => {
    await request(http).get('/health/live').expect(200);
    await request(http).get('/health/ready').expect(200);
    const document = (await request(http).get('/Profiles/v4/docs-json').expect(200)).body;
    expect(document.info.title).toMatch(/Contact decisions/);
    // Health, metrics and the jobs' status (behind the operator token) are every
    // process's; no configuration, profile or token route comes with the libs it reads.
    expect(Object.keys(document.paths).sort()).toEqual([
      '/Profiles/v4/Jobs/Status',
      '/Profiles/v4/{clientId}/ContactDecision',
      '/Profiles/v4/{clientId}/ContactDecisions',
      '/health/live',
      '/health/ready',
      '/metrics',
    ]);
  });
});
