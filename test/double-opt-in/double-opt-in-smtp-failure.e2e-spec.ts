import { createServer } from 'node:net';
import request from 'supertest';
import { configureTestTenant, localized } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';

type Body = Record<string, any>;

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/*
 * An SMTP server that cannot be reached (docs/double-opt-in.md, "Outbox"): each attempt is
 * recorded, retried after a doubling wait, and after CONFIRMATION_MAIL_ATTEMPTS the message
 * is Failed with the error, visible on the confirmation.
 */
describe('Double opt-in: SMTP failures', () => {
  let app: TestApp;
  let tenant: TestTenant;
  const TYPE = 'Failing DOI';

  beforeAll(async () => {
    app = await startTestApp({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${await closedPort()}`,
        CONFIRMATION_MAIL_ATTEMPTS: '3',
        CONFIRMATION_MAIL_BACKOFF_MS: '100',
      },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/ConsentTypes`)
      .set('Authorization', await tenant.bearer())
      .send({
        ConsentTypes: [
          {
            TypeName: TYPE,
            ChannelId: 'Email',
            RequiresConfirmation: true,
            LocalizedFields: localized(TYPE),
            Versions: [
              { ConsentVersion: '1.0', LocalizedFields: [{ Locale: 'en-us', Name: TYPE }] },
            ],
          },
        ],
      })
      .expect(201);
  });
  afterAll(() => app?.close());

  it('retries with backoff and ends Failed, with the error shown', async () => {
    const profiles = profileClient(app, tenant);
    const id = await profiles.create({
      Emails: [
        {
          EmailAddress: 'unreachable@example.com',
          Consents: [{ ConsentType: TYPE, ConsentStatus: 1 }],
        },
      ],
    });
    await profiles.complete(id);
    const failed = await eventually(async () => {
      const res = await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}/Confirmations`)
        .set('Authorization', await tenant.bearer())
        .expect(200);
      const [confirmation] = res.body.Confirmations as Body[];
      return confirmation?.MailState === 'Failed' ? confirmation : undefined;
    }, 60000);
    expect(failed).toMatchObject({ State: 'Pending', MailAttempts: 3 });
    expect(failed.MailLastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.MailSentDate).toBeUndefined();
  });
});
