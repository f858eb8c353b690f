import type { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { CONFIRMATION_SWEEP } from '@app/consents';
import { CRASH_POINTS, type CrashPointName, CrashPoints } from '@app/shared';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { profileClient, runJob } from '../jobs/job-helpers';
import { mailTo } from './mail-inbox';
import { createConsentTypeRequiringConfirmation } from './confirmation-consent-type';

type Body = Record<string, any>;

/*
 * The confirmation outbox under a worker killed between the write and the send
 * (docs/double-opt-in.md, "Outbox"): whatever the point, a new worker sends the message,
 * exactly once.
 */
describe('Double opt-in: the outbox under a worker kill', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let profiles: ReturnType<typeof profileClient>;
  const NEWSLETTER = 'Outbox DOI';

  const arm = (process: INestApplicationContext, point: CrashPointName) =>
    process.get(CrashPoints).arm(point);
  const address = () => `outbox-${randomBytes(5).toString('hex')}@example.com`;
  const confirmations = async (id: number): Promise<Body[]> =>
    (
      await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Confirmations`)
        .set('Authorization', auth)
        .expect(200)
    ).body.Confirmations as Body[];
  const grant = (email: string) =>
    profiles.create({
      Emails: [{ EmailAddress: email, Consents: [{ ConsentType: NEWSLETTER, ConsentStatus: 1 }] }],
    });
  /** Sent once, and still once after the sweep ran again. */
  async function expectOneMessage(id: number, email: string): Promise<void> {
    await eventually(async () => ((await mailTo(email)).length > 0 ? true : undefined), 60000);
    const [sent] = await eventually(async () => {
      const list = await confirmations(id);
      return list[0]?.MailState === 'Sent' ? list : undefined;
    });
    expect(sent.State).toBe('Pending');
    await runJob(app, CONFIRMATION_SWEEP);
    expect(await mailTo(email)).toHaveLength(1);
  }

  beforeAll(async () => {
    // A killed sender's lease on its message ends soon; the stalled job is taken up soon.
    app = await startTestApp({
      workers: 0,
      env: { CONFIRMATION_MAIL_LEASE_MS: '1000', STALLED_JOB_CHECK_MS: '1000' },
    });
    tenant = await createTestTenant(app);
    await app.startWorker();
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    profiles = profileClient(app, tenant);
    await createConsentTypeRequiringConfirmation(app, tenant.clientId, auth, NEWSLETTER, 'Yes');
  });
  afterEach(() => {
    for (const process of [app.api, ...app.workers]) process.get(CrashPoints).disarmAll();
  });
  afterAll(() => app?.close());

  it('a worker killed after the outbox document, before the mail job and the save: one message', async () => {
    const [worker] = app.workers;
    const reached = arm(worker, CRASH_POINTS.confirmationAfterOutbox);
    const email = address();
    const id = await grant(email);
    await reached;
    await app.killWorker(worker);
    expect(await mailTo(email)).toHaveLength(0);
    // The new worker's sweeper applies the write again: the same confirmation, one message.
    await app.startWorker();
    await profiles.complete(id);
    await expectOneMessage(id, email);
    expect(await confirmations(id)).toHaveLength(1);
  });

  it('a worker killed with the message leased, before the send: one message', async () => {
    const [worker] = app.workers;
    const reached = arm(worker, CRASH_POINTS.confirmationMailBeforeSend);
    const email = address();
    const id = await grant(email);
    await reached;
    await app.killWorker(worker);
    expect(await mailTo(email)).toHaveLength(0);
    await app.startWorker();
    // The stalled job or the sweep (a lost job) sends it once the dead sender's lease ended.
    await eventually(async () => {
      if ((await mailTo(email)).length > 0) return true;
      app.advance(30_000);
      await runJob(app, CONFIRMATION_SWEEP);
      return undefined;
    }, 60000);
    await expectOneMessage(id, email);
  });
});
