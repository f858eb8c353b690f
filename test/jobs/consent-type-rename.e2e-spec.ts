import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { CONSENT_VERSION_NOTIFICATION } from '@app/consents';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { startTestApp, type TestApp } from '../harness/test-app';
import { createConsentType, itemsWith, profileClient, runJob } from './job-helpers';

type Entry = Record<string, any>;
const CONFIG_EVENTS = CONSENT_VERSION_NOTIFICATION;

/**
 * A consent type's name is a label: after a rename, consents granted
 * under the former name are revoked under the new one (or the former one), filters that
 * require the type keep requiring it and show the new name, a new version reaches holders
 * whose consents still carry the former name, the outbox job gives every holder the new
 * name, and the former name stays the type's (no other consent type can take it).
 */
describe('A renamed consent type', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let profiles: ReturnType<typeof profileClient>;
  let marketingId: number;
  let newsId: number;
  const base = () => `/Profiles/v4/${tenant.clientId}`;
  const auth = () => tenant.bearer();

  const rename = async (typeId: number, TypeName: string) =>
    request(app.http)
      .patch(`${base()}/ConsentTypes/${typeId}`)
      .set('Authorization', await auth())
      .set('Content-Type', 'application/json-patch+json')
      .send(JSON.stringify([{ op: 'replace', path: '/TypeName', value: TypeName }]))
      .expect(200);
  const merge = async (id: number, body: object) => {
    const res = await request(app.http)
      .post(`${base()}/Profile/${id}`)
      .set('Authorization', await auth())
      .send(body);
    return res;
  };
  const consentsOf = (profile: Entry) =>
    itemsWith(profile, 'ConsentStatus').map((consent) => ({
      ConsentType: consent.ConsentType,
      ConsentStatus: consent.ConsentStatus,
    }));
  const asDesk = async (id: number): Promise<Entry> =>
    (
      await request(app.http)
        .get(`${base()}/Profile/${id}`)
        .set('Authorization', tenant.signed({ userId: 'desk' }))
        .expect(200)
    ).body as Entry;
  const marketingTypeId = async () => {
    const res = await request(app.http)
      .get(`${base()}/ConsentTypes`)
      .set('Authorization', await auth())
      .expect(200);
    return (res.body.ConsentTypes as Entry[]).find((type) => type.TypeName === 'Marketing')!
      .TypeId as number;
  };

  // Created before the renames: a profile-level Marketing consent with a preference on the
  // Offers filter (which requires Marketing), an email-level News consent, and a holder
  // that no write touches after the rename.
  let withPreference: number;
  let onEmail: number;
  let untouched: number;

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    profiles = profileClient(app, tenant);
    marketingId = await marketingTypeId();
    newsId = await createConsentType(app, tenant, 'News', [{ ConsentVersion: '1' }]);
    withPreference = await profiles.create({
      Consents: [{ ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 }],
      Emails: [
        {
          EmailAddress: 'pat@example.com',
          EmailPreferences: [
            testPreference(programs.offers.email, {
              ConsentAssociations: [{ ConsentType: 'Marketing', ConsentVersion: '1.0' }],
            }),
          ],
        },
      ],
    });
    onEmail = await profiles.create({
      Emails: [
        {
          EmailAddress: 'sam@example.com',
          Consents: [{ ConsentType: 'News', ConsentVersion: '1', ConsentStatus: 1 }],
        },
      ],
    });
    untouched = await profiles.create({
      Consents: [{ ConsentType: 'News', ConsentVersion: '1', ConsentStatus: 1 }],
    });
    for (const id of [withPreference, onEmail, untouched]) await profiles.complete(id);
    // A user group that sees only News consents (data scope), before the rename.
    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(
      tenant.clientId,
      'News desk',
      [
        { area: 'profiles', access: 'read' },
        { area: 'consents', access: 'read' },
      ],
      { consentTypes: ['News'] },
    );
    await admin.addUser({ clientId: tenant.clientId, userId: 'desk', group: 'News desk' });
    // Nothing of the setup is left for the job: its runs below count the renames only.
    await runJob(app, CONFIG_EVENTS);
    await rename(marketingId, 'Direct Marketing');
    await rename(newsId, 'Newsletter Consent');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('revokes a consent granted before the rename under the new name', async () => {
    const res = await merge(withPreference, {
      Consents: [{ ConsentType: 'Direct Marketing', ConsentStatus: 3 }],
    });
    expect(res.status).toBe(202);
    const profile = await profiles.complete(withPreference);
    expect(profile.Consents).toEqual([
      expect.objectContaining({ ConsentType: 'Direct Marketing', ConsentStatus: 3 }),
    ]);
    // The preference's association follows its type too.
    expect(itemsWith(profile, 'ConsentAssociations')[0].ConsentAssociations).toEqual([
      expect.objectContaining({ ConsentType: 'Direct Marketing' }),
    ]);
  });

  it('revokes one under the former name as well: it names the same type', async () => {
    const res = await merge(onEmail, {
      Emails: [
        {
          EmailAddress: 'sam@example.com',
          Consents: [{ ConsentType: 'News', ConsentStatus: 3 }],
        },
      ],
    });
    expect(res.status).toBe(202);
    const profile = await profiles.complete(onEmail);
    expect(consentsOf(profile)).toEqual([{ ConsentType: 'Newsletter Consent', ConsentStatus: 3 }]);
  });

  it('keeps the filter requiring the type, under its new name', async () => {
    const res = await request(app.http)
      .get(`${base()}/Programs`)
      .set('Authorization', await auth())
      .expect(200);
    const filter = (res.body.Programs as Entry[])
      .flatMap((program) => program.Filters as Entry[])
      .find((candidate) => String(candidate.ID) === programs.offers.email.FilterId)!;
    expect(filter.RequiredPreferenceConsents).toEqual([
      expect.objectContaining({ TypeName: 'Direct Marketing' }),
    ]);
    // A preference on that filter needs an association with the type, by its new name.
    const refused = await request(app.http)
      .post(`${base()}/Profile`)
      .set('Authorization', await auth())
      .send({
        CustomerType: 'Customer',
        Emails: [
          {
            EmailAddress: 'lee@example.com',
            EmailPreferences: [testPreference(programs.offers.email)],
          },
        ],
      })
      .expect(400);
    expect(refused.body.Message).toContain('"Direct Marketing"');
    const accepted = await profiles.create({
      Consents: [{ ConsentType: 'Direct Marketing', ConsentStatus: 1 }],
      Emails: [
        {
          EmailAddress: 'lee@example.com',
          EmailPreferences: [
            testPreference(programs.offers.email, {
              ConsentAssociations: [{ ConsentType: 'Direct Marketing' }],
            }),
          ],
        },
      ],
    });
    expect((await profiles.complete(accepted)).Consents).toEqual([
      expect.objectContaining({ ConsentType: 'Direct Marketing', ConsentStatus: 1 }),
    ]);
  });

  it('gives every holder the new name through the outbox job, without a history entry', async () => {
    const before = await profiles.complete(untouched);
    expect(consentsOf(before)).toEqual([{ ConsentType: 'News', ConsentStatus: 1 }]);
    const historyBefore = await profiles.history(untouched, 'Consents');
    expect(consentsOf(await asDesk(untouched))).toEqual([
      { ConsentType: 'News', ConsentStatus: 1 },
    ]);
    const run = await runJob(app, CONFIG_EVENTS);
    expect(run.outcome).toBe('ok');
    expect(run.counts!.renamed).toBeGreaterThanOrEqual(1);
    const after = await profiles.complete(untouched);
    expect(consentsOf(after)).toEqual([{ ConsentType: 'Newsletter Consent', ConsentStatus: 1 }]);
    expect(await profiles.operations(untouched)).toEqual(['create', 'rename-consent-type']);
    expect(await profiles.history(untouched, 'Consents')).toHaveLength(historyBefore.length);
    // The group limited to News sees the type under its new name too.
    expect(consentsOf(await asDesk(untouched))).toEqual([
      { ConsentType: 'Newsletter Consent', ConsentStatus: 1 },
    ]);
    // Done once: a second run finds nothing left to rename.
    const again = await runJob(app, CONFIG_EVENTS);
    expect(again.counts!.renamed).toBe(0);
  });

  it('reaches holders of the renamed type with a new version', async () => {
    const res = await request(app.http)
      .post(`${base()}/ConsentTypes/${newsId}/Versions`)
      .set('Authorization', await auth())
      .send({
        ConsentVersion: '2',
        LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: 'News' }],
      });
    expect(res.status).toBeLessThan(300);
    const run = await runJob(app, CONFIG_EVENTS);
    expect(run.counts!.profiles).toBeGreaterThanOrEqual(1);
    const profile = await profiles.complete(untouched);
    expect(itemsWith(profile, 'ConsentStatus')).toEqual([
      expect.objectContaining({
        ConsentType: 'Newsletter Consent',
        ConsentVersion: '1',
        UpdatedVersionPending: true,
      }),
    ]);
  });

  it("records the rename in the type's history (GET .../ConsentTypes/{typeId}/History)", async () => {
    const res = await request(app.http)
      .get(`${base()}/ConsentTypes/${newsId}/History`)
      .set('Authorization', await auth())
      .expect(200);
    const history = res.body.ConsentTypeHistory as Entry[];
    // Newest first; the create and the rename are the first two revisions (a version the
    // previous test published, when it ran, comes after them).
    const revisions = history.map((revision) => revision.Revision);
    expect(revisions).toEqual([...revisions].sort((a, b) => b - a));
    const [created, renamed] = [...history].reverse();
    expect([created, renamed].map((r) => [r.Revision, r.TypeName, r.FormerNames])).toEqual([
      [1, 'News', []],
      [2, 'Newsletter Consent', ['News']],
    ]);
    expect(renamed.Edited.ModifiedBy).toBe(tenant.userId);
    await request(app.http)
      .get(`${base()}/ConsentTypes/999999/History`)
      .set('Authorization', await auth())
      .expect(404);
  });

  it('keeps the former name for the type: no other consent type can take it', async () => {
    const res = await request(app.http)
      .post(`${base()}/ConsentTypes`)
      .set('Authorization', await auth())
      .send({
        ConsentTypes: [
          {
            TypeName: 'marketing',
            IsActive: true,
            LocalizedFields: [{ Locale: 'en-us', Name: 'marketing' }],
          },
        ],
      })
      .expect(409);
    expect(res.body.Message).toContain('marketing');
    // Renaming back to a former name is the type's own choice.
    await rename(marketingId, 'Marketing');
    expect(await marketingTypeId()).toBe(marketingId);
  });
});
