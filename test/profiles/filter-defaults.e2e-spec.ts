import request from 'supertest';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/**
 * A filter's DefaultPreferenceValue applies to a preference written without PreferenceType,
 * and a preference may carry only the attributes its filter defines.
 */
describe('Filter defaults and attributes on preferences', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let filter: { ProgramId: string; ChannelId: string; FilterId: string };
  const base = () => `/Profiles/v4/${tenant.clientId}`;

  let emails = 0;
  const email = (EmailPreferences: object[]) => ({
    EmailAddress: `defaults${++emails}@example.com`,
    EmailAddressType: 'Personal',
    EmailPreferences,
  });

  const applied = (id: number) =>
    eventually(async () => {
      const res = await request(app.http).get(`${base()}/Profile/${id}`).set('Authorization', auth);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    const res = await request(app.http)
      .post(`${base()}/Programs`)
      .set('Authorization', auth)
      .send({
        Programs: [
          {
            Name: 'Alerts',
            ProgramType: 'Informational',
            Filters: [
              {
                Name: 'Alerts by email',
                ChannelID: 'Email',
                DefaultPreferenceValue: 2,
                FrequencyLocales: [
                  {
                    ID: 'en-us',
                    Frequencies: [
                      { ID: 'Daily', DisplayName: 'Daily', DisplayOrder: 1 },
                      { ID: 'Instant', DisplayName: 'Instant', IsDefault: true, DisplayOrder: 2 },
                    ],
                  },
                ],
                PreferenceAttributes: [{ ID: 'Topic', DisplayOrder: 1 }],
              },
            ],
          },
        ],
      })
      .expect(201);
    const program = res.body.Programs[0];
    filter = {
      ProgramId: String(program.Id),
      ChannelId: 'Email',
      FilterId: String(program.Filters[0].ID),
    };
  });
  afterAll(() => app.close());

  it('gives a preference written without PreferenceType the filter default, and no frequency', async () => {
    const created = await request(app.http)
      .post(`${base()}/Profile`)
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        Emails: [
          email([{ ...filter, PreferenceAttributes: [{ Key: 'Topic', Value: 'Security' }] }]),
        ],
      })
      .expect(202);
    const profile = await applied(created.body.ProfileId);
    expect(profile.Emails[0].EmailPreferences).toHaveLength(1);
    expect(profile.Emails[0].EmailPreferences[0]).toMatchObject({ PreferenceType: 2 });
    // IsDefault marks what a preference centre preselects; the service fills nothing in.
    expect(profile.Emails[0].EmailPreferences[0].FrequencyId).toBeUndefined();
  });

  it('keeps what the writer gave over the defaults', async () => {
    const created = await request(app.http)
      .post(`${base()}/Profile`)
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        Emails: [email([{ ...filter, PreferenceType: 1, FrequencyId: 'Daily' }])],
      })
      .expect(202);
    const profile = await applied(created.body.ProfileId);
    expect(profile.Emails[0].EmailPreferences[0]).toMatchObject({
      PreferenceType: 1,
      FrequencyId: 'Daily',
    });
  });

  it('refuses an attribute the filter does not define, naming the ones it does', async () => {
    const res = await request(app.http)
      .post(`${base()}/Profile`)
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        Emails: [email([{ ...filter, PreferenceAttributes: [{ Key: 'Colour', Value: 'Blue' }] }])],
      })
      .expect(400);
    expect(res.body.Message).toContain(
      `Emails[0].EmailPreferences[0].PreferenceAttributes[0].Key "Colour" is not an attribute of filter ${filter.FilterId}, which defines "Topic"`,
    );
  });
});
