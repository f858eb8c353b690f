import request from 'supertest';
import {
  CONFIRMATION_EXPIRY,
  CONFIRMATION_SWEEP,
  CONSENT_VERSION_NOTIFICATION,
  DO_NOT_CONTACT_PROPAGATION,
} from '@app/consents';
import { BULK_EXPORT_EXPIRY, BULK_IMPORT_CLEANUP } from '@app/bulk';
import { CONSENT_EXPIRY } from '@app/profiles';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import {
  createConsentType,
  DAY_MS,
  itemsWith,
  jobRuns,
  profileClient,
  runJob,
} from './job-helpers';

type Entry = Record<string, any>;
const EXPIRY = CONSENT_EXPIRY;

/**
 * The consent-expiry job: consents and preferences past their
 * ExpirationDate become Expired (kept, in history), as of the worker's Clock, which the
 * tests move forward instead of sleeping. Runs are triggered directly.
 */
describe('Scheduled job: consent and preference expiry', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let profiles: ReturnType<typeof profileClient>;
  const start = Date.now();
  const inDays = (days: number) => new Date(start + days * DAY_MS).toISOString();
  let due: number;
  let untouched: number;
  let dueEdited: Entry;

  beforeAll(async () => {
    // Pages of 2 profiles, so a run limited to one page stops halfway.
    app = await startTestApp({ env: { SCHEDULED_JOB_BATCH_SIZE: '2' } });
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    // Consent ExpirationDate comes from the version's ExpirationInDays.
    await createConsentType(app, tenant, 'Promo', [{ ConsentVersion: '1', ExpirationInDays: 10 }]);
    await createConsentType(app, tenant, 'Survey', [{ ConsentVersion: '1', ExpirationInDays: 40 }]);
    profiles = profileClient(app, tenant);
    // Created here, not in the first test, so that every test can run alone.
    due = await profiles.create({
      Consents: [
        { ConsentType: 'Promo', ConsentStatus: 1 },
        { ConsentType: 'Survey', ConsentStatus: 1 },
      ],
      Emails: [
        {
          EmailAddress: 'due@example.com',
          Consents: [{ ConsentType: 'Promo', ConsentStatus: 1 }],
          EmailPreferences: [
            testPreference(programs.newsletter.email, {
              PreferenceStatus: 'Active',
              ExpirationDate: inDays(10),
            }),
          ],
        },
      ],
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '1 Main St',
          PostalCode: '12345',
          AddressPreferences: [
            testPreference(programs.newsletter.mail, { ExpirationDate: inDays(40) }),
          ],
        },
      ],
      ProfilePreferences: [
        testPreference(programs.newsletter.solicit, { ExpirationDate: inDays(10) }),
      ],
    });
    untouched = await profiles.create({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }] });
    // Applied before any test moves the clock (the job looks at saved profiles only).
    await profiles.complete(due);
    await profiles.complete(untouched);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('changes nothing while no date has passed', async () => {
    const stored = await profiles.complete(due);
    await profiles.complete(untouched);
    // The dates the writes stored (10 and 40 days on): what the clock is moved past.
    expect(stored.Consents.map((c: Entry) => Date.parse(c.ExpirationDate) - start)).toEqual([
      expect.any(Number),
      expect.any(Number),
    ]);
    expect(Date.parse(stored.Consents[0].ExpirationDate)).toBeLessThan(Date.parse(inDays(11)));
    expect(Date.parse(stored.Consents[1].ExpirationDate)).toBeGreaterThan(Date.parse(inDays(39)));

    const run = await runJob(app, EXPIRY);
    expect(run.outcome).toBe('ok');
    expect(run.counts).toMatchObject({ profiles: 0, consents: 0, preferences: 0 });
    const after = await profiles.complete(due);
    expect(itemsWith(after, 'ConsentType').some((c) => c.Expired === true)).toBe(false);
    expect(await profiles.operations(due)).toEqual(['create']);
  });

  describe('once the clock passed the first dates', () => {
    let firstRun: Awaited<ReturnType<typeof runJob>>;

    beforeAll(async () => {
      app.advance(20 * DAY_MS);
      firstRun = await runJob(app, EXPIRY);
      const profile = await eventually(async () => {
        const current = await profiles.complete(due);
        return current.Consents.find((c: Entry) => c.ConsentType === 'Promo')?.Expired === true
          ? current
          : undefined;
      });
      dueEdited = profile.Edited;
    });

    it('expires, as of the moved clock, what is past its date and nothing else', async () => {
      expect(firstRun.outcome).toBe('ok');
      expect(firstRun.counts).toMatchObject({ profiles: 1, consents: 2, preferences: 2 });
      const profile = await profiles.complete(due);
      const consent = (list: Entry[], type: string) => list.find((c) => c.ConsentType === type)!;
      expect(consent(profile.Consents, 'Promo')).toMatchObject({
        Expired: true,
        Edited: expect.objectContaining({ ModifiedBy: 'system:consent-expiry' }),
      });
      expect(consent(profile.Consents, 'Survey').Expired).not.toBe(true);
      expect(consent(profile.Emails[0].Consents, 'Promo').Expired).toBe(true);
      // Expired, not deleted: still returned, with status Expired.
      expect(profile.Emails[0].EmailPreferences).toEqual([
        expect.objectContaining({ PreferenceStatus: 'Expired' }),
      ]);
      expect(profile.ProfilePreferences).toEqual([
        expect.objectContaining({ PreferenceStatus: 'Expired' }),
      ]);
      expect(profile.Addresses[0].AddressPreferences).toEqual([
        expect.objectContaining({ PreferenceStatus: 'Active' }),
      ]);
      expect(await profiles.operations(due)).toEqual(['create', 'expire']);
      expect(await profiles.operations(untouched)).toEqual(['create']);
    });

    it('records the change in consent and preference history', async () => {
      const consents = itemsWith(await profiles.history(due, 'Consents'), 'ConsentType');
      expect(
        consents.filter((c) => c.ConsentType === 'Promo').map((c) => c.Expired ?? false),
      ).toEqual([false, false, true, true]);
      const preferences = itemsWith(await profiles.history(due, 'Preferences'), 'FilterId');
      const solicit = preferences.filter(
        (p) => p.FilterId === programs.newsletter.solicit.FilterId,
      );
      expect(solicit.map((p) => p.PreferenceStatus)).toEqual(['Active', 'Expired']);
    });

    it('changes nothing when it runs again', async () => {
      const run = await runJob(app, EXPIRY);
      expect(run.outcome).toBe('ok');
      expect(run.counts).toMatchObject({ profiles: 0, consents: 0, preferences: 0 });
      const profile = await profiles.complete(due);
      expect(profile.Edited).toEqual(dueEdited);
      expect(await profiles.operations(due)).toEqual(['create', 'expire']);
    });
  });

  it('a run stopped halfway loses nothing and repeats nothing', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 3; n++) {
      ids.push(await profiles.create({ Consents: [{ ConsentType: 'Promo', ConsentStatus: 1 }] }));
    }
    for (const id of ids) await profiles.complete(id);
    // Created "now" (the moved clock is only the jobs'): due after 10 more days.
    app.advance(15 * DAY_MS);

    const before = new Set((await jobRuns(app, EXPIRY)).map((run) => run._id));
    const partial = await runJob(app, EXPIRY, { maxPages: 1 });
    expect(partial.outcome).toBe('ok');
    expect(partial.counts!.candidates).toBe(2);
    expect(partial.counts!.profiles).toBeLessThan(3);

    // The tenant's other profiles may be due too (when this test runs alone): what counts is
    // that the rest came in a later run and each of these three got exactly one expire write.
    // The later run is this one, or the worker's own hourly run when the clock's hour turned
    // in between (Bull's repeats fall on whole hours): both count.
    const rest = await runJob(app, EXPIRY);
    expect(rest.outcome).toBe('ok');
    const later = (await jobRuns(app, EXPIRY)).filter(
      (run) => !before.has(run._id) && run._id !== partial._id,
    );
    expect(later.reduce((sum, run) => sum + (run.counts?.profiles ?? 0), 0)).toBeGreaterThan(0);
    for (const id of ids) {
      await eventually(async () => {
        const profile = await profiles.complete(id);
        return profile.Consents[0].Expired === true ? true : undefined;
      });
      expect(await profiles.operations(id)).toEqual(['create', 'expire']);
    }
  });

  it('expires a preference exactly at the date its filter gave it', async () => {
    // A non-customer's opt-in on the newsletter email filter expires after 30 days.
    const id = await profiles.create({
      CustomerType: 'Prospect',
      Emails: [
        {
          EmailAddress: 'prospect@example.com',
          EmailPreferences: [testPreference(programs.newsletter.email)],
        },
      ],
    });
    const stored = (await profiles.complete(id)).Emails[0].EmailPreferences[0];
    const expires = Date.parse(stored.ExpirationDate);
    expect(expires).toBeGreaterThan(start + 29 * DAY_MS);

    app.setNow(new Date(expires - 60000));
    expect((await runJob(app, EXPIRY)).outcome).toBe('ok');
    expect(await profiles.operations(id)).toEqual(['create']);

    app.setNow(new Date(expires + 1000));
    expect((await runJob(app, EXPIRY)).counts).toMatchObject({ profiles: 1, preferences: 1 });
    const expired = await eventually(async () => {
      const pref = (await profiles.complete(id)).Emails[0].EmailPreferences[0];
      return pref.PreferenceStatus === 'Expired' ? pref : undefined;
    });
    expect(expired.ExpirationDate).toBe(stored.ExpirationDate);
  });

  it('shows each job’s last run and outcome at GET /Jobs/Status, to the operator only', async () => {
    await runJob(app, EXPIRY);
    const last = (await jobRuns(app, EXPIRY))[0];
    const res = await request(app.http)
      .get('/Profiles/v4/Jobs/Status')
      .set('Authorization', `Bearer ${app.settings.operatorToken}`)
      .expect(200);
    const expiry = (res.body.Jobs as Entry[]).find((job) => job.Name === EXPIRY.name)!;
    // No credential, or a tenant's: 401.
    const anonymous = await request(app.http).get('/Profiles/v4/Jobs/Status');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ Message: 'The operator credential is missing or wrong' });
    expect(expiry).toEqual({
      Name: EXPIRY.name,
      IntervalMs: 0,
      LastRun: {
        StartedAt: last.startedAt.toISOString(),
        FinishedAt: last.finishedAt!.toISOString(),
        Outcome: 'ok',
        Trigger: 'trigger',
        Counts: expect.objectContaining({ profiles: expect.any(Number) }),
      },
      LastFinishedRun: expect.objectContaining({ StartedAt: last.startedAt.toISOString() }),
    });
    expect((res.body.Jobs as Entry[]).map((job) => job.Name)).toEqual([
      EXPIRY.name,
      CONSENT_VERSION_NOTIFICATION.name,
      DO_NOT_CONTACT_PROPAGATION.name,
      CONFIRMATION_SWEEP.name,
      CONFIRMATION_EXPIRY.name,
      BULK_IMPORT_CLEANUP.name,
      BULK_EXPORT_EXPIRY.name,
    ]);
    expect(JSON.stringify(res.body)).not.toContain(tenant.clientId);
  });
});

describe('Scheduled job: consent expiry with two workers', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ workers: 2, env: { CONSENT_EXPIRY_INTERVAL_MS: '500' } });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('runs each scheduled run once, and a due profile gets one expire write', async () => {
    const tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    await createConsentType(app, tenant, 'Promo', [{ ConsentVersion: '1', ExpirationInDays: 1 }]);
    const profiles = profileClient(app, tenant);
    const id = await profiles.create({ Consents: [{ ConsentType: 'Promo', ConsentStatus: 1 }] });
    await profiles.complete(id);
    app.advance(2 * DAY_MS);

    const runs = await eventually(async () => {
      const scheduled = (await jobRuns(app, EXPIRY)).filter(
        (run) => run.trigger === 'schedule' && run.outcome !== 'running',
      );
      return scheduled.length >= 4 ? scheduled : undefined;
    });
    // Each scheduled slot (Bull job id) was taken by one worker only.
    const slots = runs.map((run) => run.jobId);
    expect(new Set(slots).size).toBe(slots.length);
    // A slot that came while the previous run was still going is skipped, never doubled.
    expect(runs.filter((run) => !['ok', 'skipped'].includes(run.outcome))).toEqual([]);
    expect(runs.some((run) => run.outcome === 'ok')).toBe(true);

    await eventually(async () => {
      const profile = await profiles.complete(id);
      return profile.Consents[0].Expired === true ? true : undefined;
    });
    expect(await profiles.operations(id)).toEqual(['create', 'expire']);
    const status = await request(app.http)
      .get('/Profiles/v4/Jobs/Status')
      .set('Authorization', `Bearer ${app.settings.operatorToken}`)
      .expect(200);
    expect(status.body.Jobs[0]).toMatchObject({ Name: EXPIRY.name, IntervalMs: 500 });
  });
});
