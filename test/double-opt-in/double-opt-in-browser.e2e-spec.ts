import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { openBrowser, watchedPage } from '../harness/browser';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';
import { createLinks, pathOf } from '../preference-centre/centre-helpers';
import { type CaughtMail, firstMailTo, linkPathOf, mailTo } from './mail-inbox';

type Body = Record<string, any>;
const HOUR_MS = 3600 * 1000;

/** Set to write docs/images/double-opt-in-*.png from this run. */
const SCREENSHOTS = process.env.DOUBLE_OPT_IN_SCREENSHOTS === '1';
const IMAGES = join(__dirname, '..', '..', 'docs', 'images');

/*
 * Double opt-in from the preference centre, in a real browser (docs/double-opt-in.md):
 * Playwright driving Debian's chromium against the test api on loopback, the harness's mail
 * catcher catching the message over SMTP. Tick the consent, save, see it awaiting
 * confirmation; read the message; open its link (a prefetch confirms nothing); confirm;
 * see it Granted on the page. Altered and expired links are refused with a page.
 */
describe('Double opt-in from the preference centre, in a browser', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let profiles: ReturnType<typeof profileClient>;
  let browser: Browser;
  let origin: string;
  const violations: string[] = [];
  const NEWSLETTER = 'Newsletter DOI browser';
  const CONSENT_NAME = 'Weekly newsletter';
  const CONSENT_TEXT = 'Send me the weekly newsletter by email.';
  const LETTERS = 'Letters DOI browser';
  const LETTERS_FILTER = 'Letters by email';

  const address = () => `ann-${randomBytes(4).toString('hex')}@example.com`;
  const consentOf = (profile: Body) => profile.Emails[0].Consents[0] as Body;

  async function newPage(width = 1280, height = 900): Promise<Page> {
    return watchedPage(browser, violations, {
      viewport: { width, height },
      locale: 'en-US',
    });
  }

  async function shot(page: Page, name: string): Promise<void> {
    if (!SCREENSHOTS) return;
    mkdirSync(IMAGES, { recursive: true });
    await page.screenshot({ path: join(IMAGES, `double-opt-in-${name}.png`), fullPage: true });
  }

  /** The page at both widths the docs show (a phone, a desktop). */
  async function shotAtWidths(page: Page, name: string): Promise<void> {
    if (!SCREENSHOTS) return;
    for (const [width, suffix] of [
      [390, 'phone'],
      [1280, 'desktop'],
    ] as const) {
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `${name}-${suffix}`);
    }
  }

  /** A profile holding the newsletter consent on its email, not answered yet (NotSet). */
  async function profileWithConsent(email: string): Promise<number> {
    const id = await profiles.create({
      DefaultLocale: 'en-US',
      CustomerName: { FirstName: 'Ann' },
      Emails: [
        {
          EmailAddress: email,
          Consents: [{ ConsentType: NEWSLETTER, ConsentStatus: 4, Locale: 'en-us' }],
        },
      ],
    });
    await profiles.complete(id);
    return id;
  }

  const consentBox = (page: Page) => page.getByRole('checkbox', { name: new RegExp(CONSENT_NAME) });

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    profiles = profileClient(app, tenant);
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/ConsentTypes`)
      .set('Authorization', await tenant.bearer())
      .send({
        ConsentTypes: [
          {
            TypeName: NEWSLETTER,
            ChannelId: 'Email',
            RequiresConfirmation: true,
            LocalizedFields: [{ Locale: 'en-us', Name: CONSENT_NAME }],
            Versions: [
              {
                ConsentVersion: '1.0',
                LocalizedFields: [
                  { Locale: 'en-us', Name: CONSENT_NAME, ConsentLanguage: CONSENT_TEXT },
                ],
              },
            ],
          },
        ],
      })
      .expect(201);
    // A program whose opt-ins on Email require confirmation (docs/double-opt-in.md, "Programs").
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Programs`)
      .set('Authorization', await tenant.bearer())
      .send({
        Programs: [
          {
            Name: LETTERS,
            ProgramType: 'Marketing',
            RequiresConfirmation: true,
            Filters: [{ Name: LETTERS_FILTER, ChannelID: 'Email' }],
          },
        ],
      })
      .expect(201);
    ({ browser, origin } = await openBrowser(app));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => {
    expect(violations).toEqual([]);
    violations.length = 0;
  });

  it('ticks the consent, shows it awaiting confirmation, and grants it once the person confirms from the message', async () => {
    const email = address();
    const masked = `${email[0]}***@example.com`;
    const id = await profileWithConsent(email);
    const links = await createLinks(app, tenant, id);
    const centreUrl = origin + pathOf(links.Url as string);

    // The preference centre: tick the consent and save.
    const page = await newPage();
    expect((await page.goto(centreUrl))?.status()).toBe(200);
    expect(await consentBox(page).isChecked()).toBe(false);
    await consentBox(page).check();
    await Promise.all([
      page.waitForURL(/notice=awaiting-confirmation/),
      page.getByRole('button', { name: 'Save my choices' }).click(),
    ]);
    // The save's answer and the consent say it waits: not ticked as Granted.
    await expect(page.getByRole('status').first().textContent()).resolves.toBe(
      `Your choices have been saved. Awaiting your confirmation: ${CONSENT_NAME} (link sent to ${masked}). A consent counts once you confirm it from the message we sent.`,
    );
    expect(await consentBox(page).isChecked()).toBe(false);
    const line = await consentBox(page).getAttribute('aria-describedby');
    const awaiting = page.locator(`#${line!.split(' ')[1]}`);
    await expect(awaiting.textContent()).resolves.toBe(
      `Awaiting your confirmation. We sent a confirmation link to ${masked}; the consent counts once you confirm.`,
    );
    await shot(page, 'centre-awaiting');
    const held = consentOf(await profiles.complete(id));
    expect(held).toMatchObject({
      ConsentStatus: 4,
      PendingConfirmation: { Id: expect.any(String) },
    });

    // Saving again with it ticked changes nothing: the link is on its way already.
    await consentBox(page).check();
    await Promise.all([
      page.waitForURL(/notice=unchanged/),
      page.getByRole('button', { name: 'Save my choices' }).click(),
    ]);

    // The message, as the mail catcher caught it over SMTP.
    const mail: CaughtMail = await firstMailTo(email);
    expect(mail.subject).toBe(`Please confirm: ${CONSENT_NAME}`);
    expect(mail.text).toContain(CONSENT_TEXT);
    const link = linkPathOf(mail);
    const message = await newPage(800, 200);
    const html = new URL(`messages/${mail.id}/html`, process.env.TEST_MAIL_INBOX_URL);
    expect((await message.goto(html.toString()))?.status()).toBe(200);
    await expect(message.locator('body').textContent()).resolves.toContain(CONSENT_TEXT);
    await shot(message, 'message');
    await message.context().close();

    // Opening the link (what a mail scanner's prefetch does): a page and one button; nothing
    // is recorded.
    const confirm = await newPage();
    expect((await confirm.goto(origin + link))?.status()).toBe(200);
    await expect(confirm.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Confirm your consent',
    );
    await expect(confirm.locator('blockquote').textContent()).resolves.toBe(CONSENT_TEXT);
    expect(await confirm.getByRole('button').count()).toBe(1);
    await shotAtWidths(confirm, 'confirm');
    const prefetched = consentOf(await profiles.complete(id));
    expect(prefetched.ConsentStatus).toBe(4);
    expect(prefetched.PendingConfirmation.Id).toBe(held.PendingConfirmation.Id);

    // The link with one character changed (the signature's first: its last one has unused
    // bits) is refused with a page, and records nothing.
    const signature = link.slice(-43);
    const altered = `${link.slice(0, -43)}${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    const refusal = await newPage();
    expect((await refusal.goto(origin + altered))?.status()).toBe(403);
    await expect(refusal.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'This link is not valid',
    );
    expect(await refusal.getByRole('button').count()).toBe(0);
    await shot(refusal, 'altered');
    await refusal.context().close();
    expect(consentOf(await profiles.complete(id)).ConsentStatus).toBe(4);

    // The button: confirmed.
    await Promise.all([
      confirm.waitForLoadState(),
      confirm.getByRole('button', { name: 'Confirm' }).click(),
    ]);
    await expect(confirm.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Thank you: confirmed',
    );
    await shotAtWidths(confirm, 'confirmed');
    await confirm.context().close();

    // The preference centre, reloaded: Granted, ticked, no longer awaiting.
    await eventually(async () => {
      await page.goto(centreUrl);
      return (await consentBox(page).isChecked()) ? true : undefined;
    });
    expect(await page.locator('.awaiting').count()).toBe(0);
    const granted = consentOf(await profiles.complete(id));
    expect(granted).toMatchObject({
      ConsentStatus: 1,
      Confirmation: { Method: 'DoubleOptIn', LinkId: held.PendingConfirmation.Id },
    });
    expect(await mailTo(email)).toHaveLength(1);
    await page.context().close();
  });

  it('ticks a program requiring confirmation, shows it awaiting, and shows it subscribed once the person confirms', async () => {
    const email = address();
    const masked = `${email[0]}***@example.com`;
    const id = await profileWithConsent(email);
    const links = await createLinks(app, tenant, id);
    const centreUrl = origin + pathOf(links.Url as string);
    const lettersBox = (page: Page) =>
      page.getByRole('checkbox', { name: new RegExp(`^${LETTERS_FILTER} `) });
    /** Saves the form and answers the notice the save redirected to. */
    const save = async (page: Page) => {
      await Promise.all([
        page.waitForURL(/notice=/),
        page.getByRole('button', { name: 'Save my choices' }).click(),
      ]);
      return new URL(page.url()).searchParams.get('notice');
    };

    const page = await newPage();
    expect((await page.goto(centreUrl))?.status()).toBe(200);
    await lettersBox(page).check();
    expect(await save(page)).toBe('awaiting-confirmation');
    // Read from the profile as the write left it: held, so not shown as subscribed.
    await expect(page.getByRole('status').first().textContent()).resolves.toBe(
      `Your choices have been saved. Awaiting your confirmation: ${LETTERS}: ${LETTERS_FILTER} (link sent to ${masked}). A subscription counts once you confirm it from the message we sent.`,
    );
    expect(await lettersBox(page).isChecked()).toBe(false);
    const describedBy = (await lettersBox(page).getAttribute('aria-describedby'))!.split(' ');
    const awaiting = page.locator(`#${describedBy.find((part) => part.endsWith('-awaiting'))}`);
    await expect(awaiting.textContent()).resolves.toBe(
      `Awaiting your confirmation. We sent a confirmation link to ${masked}; your subscription to ${LETTERS} counts once you confirm.`,
    );
    const held = (await profiles.complete(id)).Emails[0].EmailPreferences[0] as Body;
    expect(held.PreferenceType).toBeUndefined();
    expect(held.PendingConfirmation).toMatchObject({ Id: expect.any(String) });

    // Ticked again while it waits: nothing written, no second message.
    await lettersBox(page).check();
    expect(await save(page)).toBe('unchanged');
    const link = linkPathOf(await firstMailTo(email));

    // Confirmed from the message: the centre shows it subscribed, without the line.
    await request(app.http).post(link).type('form').send('').expect(200);
    await eventually(async () => {
      await page.goto(centreUrl);
      return (await lettersBox(page).isChecked()) ? true : undefined;
    });
    expect(await page.locator('.awaiting').count()).toBe(0);
    expect(await mailTo(email)).toHaveLength(1);
    await page.context().close();
  });

  it('refuses an expired link with a page, and records nothing', async () => {
    const email = address();
    const id = await profileWithConsent(email);
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
      .set('Authorization', await tenant.bearer())
      .send({
        Emails: [
          { EmailAddress: email, Consents: [{ ConsentType: NEWSLETTER, ConsentStatus: 1 }] },
        ],
      })
      .expect(202);
    await profiles.complete(id);
    const link = linkPathOf(await firstMailTo(email));
    const page = await newPage();
    app.advance(73 * HOUR_MS);
    try {
      expect((await page.goto(origin + link))?.status()).toBe(410);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'This link has expired',
      );
      await expect(page.locator('p').textContent()).resolves.toContain('Nothing was recorded');
      expect(await page.getByRole('button').count()).toBe(0);
      await shot(page, 'expired');
    } finally {
      app.advance(-73 * HOUR_MS);
    }
    expect(consentOf(await profiles.complete(id)).ConsentStatus).toBe(4);
    await page.context().close();
  });
});
