import request from 'supertest';
import { ConfigEventOutbox } from '@app/config';
import { CONSENT_VERSION_NOTIFICATION } from '@app/consents';
import { Clock, tenantKey } from '@app/shared';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { createConsentType, itemsWith, profileClient, runJob } from './job-helpers';

type Entry = Record<string, any>;
const VERSIONS = CONSENT_VERSION_NOTIFICATION;

/**
 * The new-consent-version job: when a consent type gets a new version, active
 * consents on older versions get UpdatedVersionPending true, in pages whose cursor is kept
 * on the outbox event, so a worker stopped halfway resumes after it.
 */
describe('Scheduled job: new consent version notification', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let profiles: ReturnType<typeof profileClient>;
  let typeId: number;
  // Holders of a News consent on version 1, in profile id order; then the others.
  const holders: number[] = [];
  let onEmail: number;
  let termsOnly: number;
  let latest: number;

  const publish = async (version: string) => {
    const res = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/ConsentTypes/${typeId}/Versions`)
      .set('Authorization', await tenant.bearer())
      .send({
        ConsentVersion: version,
        LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: 'News' }],
      });
    expect(res.status).toBeLessThan(300);
  };
  const eventOf = (version: string) =>
    app.api
      .get(ConfigEventOutbox, { strict: false })
      .findById(tenantKey(tenant.clientId, 'consent-version', typeId, version));
  const newsConsents = (profile: Entry) =>
    itemsWith(profile, 'ConsentType').filter(
      (consent) => String(consent.ConsentType).toLowerCase() === 'news',
    );
  const flagged = async (id: number) =>
    newsConsents(await profiles.complete(id)).map((c) => c.UpdatedVersionPending === true);

  beforeAll(async () => {
    // Pages of 2 profiles, so a run limited to one page stops halfway.
    app = await startTestApp({ env: { SCHEDULED_JOB_BATCH_SIZE: '2' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    typeId = await createConsentType(app, tenant, 'News', [{ ConsentVersion: '1' }]);
    profiles = profileClient(app, tenant);
    const news = { ConsentType: 'News', ConsentVersion: '1', ConsentStatus: 1 };
    for (let n = 0; n < 3; n++) holders.push(await profiles.create({ Consents: [news] }));
    onEmail = await profiles.create({
      Emails: [{ EmailAddress: 'news@example.com', Consents: [{ ...news, ConsentType: 'news' }] }],
    });
    holders.push(onEmail);
    termsOnly = await profiles.create({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] });
    for (const id of [...holders, termsOnly]) await profiles.complete(id);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('does nothing for first versions (nothing is older)', async () => {
    const run = await runJob(app, VERSIONS);
    expect(run.outcome).toBe('ok');
    expect(run.counts).toMatchObject({ profiles: 0, consents: 0 });
    expect(run.counts!.events).toBeGreaterThan(0);
    expect((await eventOf('1'))?.processedAt).toBeInstanceOf(Date);
    expect(await flagged(holders[0])).toEqual([false]);
  });

  // One story, so that it runs alone (`-t`) as well as in the file: each step builds on the
  // one before it.
  it('flags consents on older versions: a run stopped halfway resumes, the latest version and other types are left alone, history shows it, a later-published version flags the rest', async () => {
    // Whatever earlier events wait is processed first (nothing is older than a first version).
    await runJob(app, VERSIONS);
    await publish('2');
    latest = await profiles.create({
      Consents: [{ ConsentType: 'News', ConsentVersion: '2', ConsentStatus: 1 }],
    });
    await profiles.complete(latest);

    // A run stopped halfway keeps its cursor on the event; the next resumes after it.
    const partial = await runJob(app, VERSIONS, { maxPages: 1 });
    expect(partial.outcome).toBe('ok');
    expect(partial.counts).toMatchObject({ events: 0, profiles: 2, consents: 2 });
    const event = await eventOf('2');
    expect(event?.processedAt).toBeNull();
    expect(event?.cursor).toBe(holders[1]);
    for (const id of holders.slice(0, 2)) {
      await eventually(async () => ((await flagged(id))[0] ? true : undefined));
    }
    expect(await flagged(holders[2])).toEqual([false]);

    const rest = await runJob(app, VERSIONS);
    expect(rest.counts).toMatchObject({ events: 1, profiles: 2, consents: 2 });
    expect((await eventOf('2'))?.processedAt).toBeInstanceOf(Date);
    for (const id of holders) {
      await eventually(async () => ((await flagged(id))[0] ? true : undefined));
      expect(await profiles.operations(id)).toEqual(['create', 'consent-version-pending']);
    }

    // Consents on the latest version and of other types are left alone.
    expect(await flagged(latest)).toEqual([false]);
    expect(await profiles.operations(latest)).toEqual(['create']);
    const terms = await profiles.complete(termsOnly);
    expect(terms.Consents[0].UpdatedVersionPending).not.toBe(true);
    expect(await profiles.operations(termsOnly)).toEqual(['create']);

    // The flag shows in consent history, stamped by the job.
    const history = newsConsents(await profiles.history(onEmail, 'Consents'));
    expect(history.map((c) => c.UpdatedVersionPending === true)).toEqual([false, true]);
    expect(history[1].Edited).toMatchObject({ ModifiedBy: 'system:consent-version' });

    // A later version flags consents on every older one, by publication order: "0.9" was
    // published last, so consents on 1 and 2 are older than it.
    await publish('0.9');
    const later = await runJob(app, VERSIONS);
    expect(later.counts).toMatchObject({ events: 1, profiles: 1, consents: 1 });
    await eventually(async () => ((await flagged(latest))[0] ? true : undefined));
    expect(await profiles.operations(latest)).toEqual(['create', 'consent-version-pending']);
    expect(await profiles.operations(holders[0])).toEqual(['create', 'consent-version-pending']);
  });

  it('changes nothing when it runs again', async () => {
    await runJob(app, VERSIONS);
    const before = await profiles.operations(holders[0]);
    const run = await runJob(app, VERSIONS);
    expect(run.counts).toMatchObject({ events: 0, profiles: 0, consents: 0 });
    expect(await profiles.operations(holders[0])).toEqual(before);
  });

  it('shows the last run at GET /Jobs/Status', async () => {
    const run = await runJob(app, VERSIONS);
    const res = await request(app.http)
      .get('/Profiles/v4/Jobs/Status')
      .set('Authorization', `Bearer ${app.settings.operatorToken}`)
      .expect(200);
    expect((res.body.Jobs as Entry[]).find((job) => job.Name === VERSIONS.name)).toMatchObject({
      LastRun: { Outcome: 'ok', Counts: run.counts },
    });
  });

  it('drops, after a grace period, an event whose change was never saved (a crash between the two)', async () => {
    // Events are recorded before the type's save: a crash in between leaves this one.
    await runJob(app, VERSIONS);
    const before = await profiles.operations(holders[0]);
    const outbox = app.api.get(ConfigEventOutbox, { strict: false });
    const now = app.api.get(Clock, { strict: false }).now();
    await outbox.recordConsentVersions(tenant.clientId, typeId, 'News', ['never-saved'], now);
    const first = await runJob(app, VERSIONS);
    expect(first.counts).toMatchObject({ events: 0, profiles: 0 });
    // Within the grace period the save may still come: the event waits.
    expect((await eventOf('never-saved'))?.processedAt).toBeNull();
    app.advance(11 * 60 * 1000);
    const second = await runJob(app, VERSIONS);
    expect(second.counts).toMatchObject({ events: 0, profiles: 0 });
    expect((await eventOf('never-saved'))?.processedAt).toBeTruthy();
    expect(await profiles.operations(holders[0])).toEqual(before);
  });
});
