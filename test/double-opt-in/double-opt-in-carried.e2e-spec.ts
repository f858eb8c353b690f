import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { configureTestTenant, localized } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';
import { firstMailTo, linkPathOf, mailTo } from './mail-inbox';

type Body = Record<string, any>;

/*
 * A grant confirmed once is not held again (docs/double-opt-in.md, "Evidence that travels"):
 * a profile merge carries the absorbed consent's Confirmation to the survivor. Real engine,
 * Redis, worker and the harness's mail catcher.
 */
describe('Double opt-in: confirmed grants that travel', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let profiles: ReturnType<typeof profileClient>;
  const NEWSLETTER = 'Newsletter DOI carried';

  const address = () => `doi-c-${randomBytes(5).toString('hex')}@example.com`;
  const base = () => `/Profiles/v4/${tenant.clientId}`;
  const consentOf = (profile: Body, email: string): Body | undefined =>
    (profile.Emails as Body[] | undefined)
      ?.find((e) => e.EmailAddress === email)
      ?.Consents?.find((c: Body) => c.ConsentType === NEWSLETTER);
  const confirmations = async (id: number): Promise<Body[]> =>
    (
      await request(app.http)
        .get(`${base()}/Profile/${id}/Confirmations`)
        .set('Authorization', auth)
        .expect(200)
    ).body.Confirmations as Body[];

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    profiles = profileClient(app, tenant);
    await request(app.http)
      .post(`${base()}/ConsentTypes`)
      .set('Authorization', auth)
      .send({
        ConsentTypes: [
          {
            TypeName: NEWSLETTER,
            ChannelId: 'Email',
            RequiresConfirmation: true,
            LocalizedFields: localized(NEWSLETTER),
            Versions: [
              {
                ConsentVersion: '1.0',
                LocalizedFields: [
                  { Locale: 'en-us', Name: NEWSLETTER, ConsentLanguage: 'Send me the news' },
                ],
              },
            ],
          },
        ],
      })
      .expect(201);
  });
  afterAll(() => app?.close());

  it('a merge carries a confirmed grant to a survivor without it: Granted with the same evidence, no new confirmation, no message', async () => {
    const email = address();
    // The absorbed profile: granted, confirmed once through the link.
    const absorbed = await profiles.create({
      Emails: [
        {
          EmailAddress: email,
          Consents: [{ ConsentType: NEWSLETTER, ConsentStatus: 1, Locale: 'en-us' }],
        },
      ],
    });
    await profiles.complete(absorbed);
    const link = linkPathOf(await firstMailTo(email));
    await request(app.http).post(link).type('form').send('').expect(200);
    const confirmed = await eventually(async () => {
      const consent = consentOf(await profiles.complete(absorbed), email);
      return consent?.ConsentStatus === 1 ? consent : undefined;
    });
    const evidence = confirmed.Confirmation as Body;
    expect(evidence).toMatchObject({ Method: 'DoubleOptIn', LinkId: expect.any(String) });

    // The survivor: another address, no consent of the type.
    const survivor = await profiles.create({ Emails: [{ EmailAddress: address() }] });
    await profiles.complete(survivor);
    const listedBefore = await confirmations(survivor);

    await request(app.http)
      .post(`${base()}/Profile/${survivor}/Merge`)
      .set('Authorization', auth)
      .send({ AbsorbedProfileId: absorbed, ReasonCode: 'Duplicate' })
      .expect(202);
    const merged = await eventually(async () => {
      const profile = await profiles.complete(survivor);
      return consentOf(profile, email) ? profile : undefined;
    });

    const carried = consentOf(merged, email)!;
    expect(carried.ConsentStatus).toBe(1);
    expect(carried.PendingConfirmation).toBeUndefined();
    expect(carried.Confirmation).toEqual(evidence);
    expect(carried.ConsentDate).toBe(confirmed.ConsentDate);
    // No new confirmation for the survivor, so no second message.
    expect(await confirmations(survivor)).toEqual(listedBefore);
    expect(await mailTo(email)).toHaveLength(1);
  });
});
