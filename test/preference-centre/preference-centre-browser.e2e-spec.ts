import { mkdirSync } from 'node:fs';
import request from 'supertest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { openBrowser, watchedPage } from '../harness/browser';
import { startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';
import { configureCentreTenant, createCentreProfile, createLinks, pathOf } from './centre-helpers';

type Body = Record<string, any>;
const DAY_MS = 24 * 3600 * 1000;

/** Set to write docs/images/preference-centre-*.png from this run. */
const SCREENSHOTS = process.env.PREFERENCE_CENTRE_SCREENSHOTS === '1';
const IMAGES = join(__dirname, '..', '..', 'docs', 'images');

/*
 * The preference centre in a real browser (docs/preference-centre.md): Playwright
 * (playwright-core, no bundled browser) driving Debian's chromium against the test api on
 * loopback. Open, change, save, see it after a reload; expired and altered links; keyboard
 * only; without JavaScript; a browser sending Sec-GPC: 1 (Global Privacy Control); no
 * Content-Security-Policy violation.
 */
describe('Preference centre in a browser', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let deals: { ProgramId: string };
  let profiles: ReturnType<typeof profileClient>;
  let browser: Browser;
  let origin: string;
  const violations: string[] = [];

  const dealsOf = (profile: Body) =>
    (profile.Emails[0].EmailPreferences as Body[]).find((p) => p.ProgramId === deals.ProgramId);

  async function newPage(
    options: { javaScriptEnabled?: boolean; extraHTTPHeaders?: Record<string, string> } = {},
  ): Promise<Page> {
    return watchedPage(browser, violations, {
      viewport: { width: 820, height: 1000 },
      locale: 'fr-CA',
      ...options,
    });
  }

  async function link(email: string, days?: number): Promise<{ id: number; url: string }> {
    const id = await createCentreProfile(app, tenant, programs, email, 'Camille');
    const links = await createLinks(app, tenant, id, days ? { ExpiresInDays: days } : {});
    return { id, url: origin + pathOf(links.Url) };
  }

  async function shot(page: Page, name: string): Promise<void> {
    if (!SCREENSHOTS) return;
    mkdirSync(IMAGES, { recursive: true });
    await page.screenshot({ path: join(IMAGES, `preference-centre-${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs, deals } = await configureCentreTenant(app, tenant, { hostile: false }));
    profiles = profileClient(app, tenant);
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

  it('opens, changes a choice, saves, and shows it after a reload', async () => {
    const { id, url } = await link('browser@example.com');
    const page = await newPage();
    const opened = await page.goto(url);
    expect(opened?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('fr-CA');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Your communication preferences',
    );
    const group = page.getByRole('group', { name: 'Bons plans' });
    const dealsBox = group.getByRole('checkbox', { name: /Bons plans par courriel/ });
    expect(await dealsBox.isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: /News by email/ }).isChecked()).toBe(true);
    await shot(page, 'open');

    await dealsBox.check();
    await expect(page.locator('#dirty').textContent()).resolves.toBe('You have unsaved changes.');
    await Promise.all([
      page.waitForURL(/notice=saved/),
      page.getByRole('button', { name: 'Save my choices' }).click(),
    ]);
    await expect(page.getByRole('status').first().textContent()).resolves.toBe(
      'Your choices have been saved.',
    );
    await shot(page, 'saved');

    await page.reload();
    expect(
      await page
        .getByRole('group', { name: 'Bons plans' })
        .getByRole('checkbox', { name: /Bons plans par courriel/ })
        .isChecked(),
    ).toBe(true);
    expect(dealsOf(await profiles.complete(id))).toMatchObject({ PreferenceType: 1 });
    await page.context().close();
  });

  it('shows a clear page for an expired link', async () => {
    const { url } = await link('expired@example.com', 1);
    const page = await newPage();
    app.advance(2 * DAY_MS);
    try {
      const res = await page.goto(url);
      expect(res?.status()).toBe(410);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'This link has expired',
      );
      expect(await page.content()).not.toContain('expired@example.com');
      await shot(page, 'expired');
    } finally {
      app.advance(-2 * DAY_MS);
    }
    await page.context().close();
  });

  it('shows a clear page for an altered link', async () => {
    const { id, url } = await link('altered@example.com');
    const page = await newPage();
    const altered = url.replace(`p=${id}&`, `p=${id + 1}&`);
    expect(altered).not.toBe(url);
    const res = await page.goto(altered);
    expect(res?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'This link is not valid',
    );
    expect(await page.locator('input').count()).toBe(0);
    await page.context().close();
  });

  it('works with the keyboard only: skip link, Tab to a choice, Space, Enter to save', async () => {
    const { id, url } = await link('keyboard@example.com');
    const page = await newPage();
    await page.goto(url);
    // The first Tab stop is the skip link, visibly focused.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate<string>('document.activeElement && document.activeElement.textContent'),
    ).toBe('Skip to content');
    const outline = () =>
      page.evaluate<string>(
        '(s => s.outlineStyle + " " + s.outlineWidth)(getComputedStyle(document.activeElement))',
      );
    expect(await outline()).toBe('solid 3px');
    // Tab forward to the Deals checkbox (no mouse), tick it with Space.
    const target = await page
      .getByRole('checkbox', { name: /Bons plans par courriel/ })
      .getAttribute('id');
    let focused = '';
    for (let i = 0; i < 40 && focused !== target; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>(
        "(document.activeElement && document.activeElement.id) || ''",
      );
    }
    expect(focused).toBe(target);
    expect(await outline()).toBe('solid 3px');
    await page.keyboard.press('Space');
    expect(await page.locator(`#${target}`).isChecked()).toBe(true);
    // On to the Save button, then Enter.
    let name = '';
    for (let i = 0; i < 40 && name !== 'Save my choices'; i++) {
      await page.keyboard.press('Tab');
      name = await page.evaluate<string>(
        "document.activeElement && document.activeElement.tagName === 'BUTTON' ? document.activeElement.textContent : ''",
      );
    }
    expect(name).toBe('Save my choices');
    await Promise.all([page.waitForURL(/notice=saved/), page.keyboard.press('Enter')]);
    expect(dealsOf(await profiles.complete(id))).toMatchObject({ PreferenceType: 1 });
    await page.context().close();
  });

  it('works without JavaScript', async () => {
    const { id, url } = await link('nojs@example.com');
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(url);
    await page.getByRole('checkbox', { name: /News by email/ }).uncheck();
    await Promise.all([
      page.waitForURL(/notice=saved/),
      page.getByRole('button', { name: 'Save my choices' }).click(),
    ]);
    const profile = await profiles.complete(id);
    const news = (profile.Emails[0].EmailPreferences as Body[]).find(
      (p) => p.ProgramId === programs.newsletter.email.ProgramId,
    );
    expect(news).toMatchObject({ PreferenceType: 2 });
    await page.context().close();
  });

  describe('with a Global Privacy Control signal (Sec-GPC: 1)', () => {
    const GPC = { extraHTTPHeaders: { 'Sec-GPC': '1' } };
    const writes = async (id: number) => (await profiles.operations(id)).length;

    beforeAll(async () => {
      // The client counts Deals as a sale or sharing of personal information.
      await request(app.http)
        .post(`/Profiles/v4/${tenant.clientId}/Config/CustomProperties/Program`)
        .set('Authorization', await tenant.bearer())
        .send([
          {
            ID: Number(deals.ProgramId),
            CustomProperties: [{ Key: 'SaleOrShare', Value: 'true' }],
          },
        ])
        .expect(200);
    });

    it('shows that the signal was received and applies the opt-out once', async () => {
      const { id, url } = await link('gpc-browser@example.com');
      const before = await writes(id);
      const page = await newPage(GPC);
      expect((await page.goto(url))?.status()).toBe(200);
      const notice = page.locator('#gpc');
      expect(await notice.getAttribute('role')).toBe('status');
      await expect(notice.textContent()).resolves.toContain(
        'We received your Global Privacy Control signal.',
      );
      await expect(notice.textContent()).resolves.toContain(
        'We have opted you out of: Bons plans.',
      );
      const dealsBox = page
        .getByRole('group', { name: 'Bons plans' })
        .getByRole('checkbox', { name: /Bons plans par courriel/ });
      expect(await dealsBox.isChecked()).toBe(false);
      // The marked choice says why, tied to its checkbox.
      const hint = await dealsBox.getAttribute('aria-describedby');
      expect(hint).toMatch(/gpc-/);
      await shot(page, 'gpc');
      expect(dealsOf(await profiles.complete(id))).toMatchObject({
        PreferenceType: 2,
        SourceId: 'GlobalPrivacyControl',
        PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptOut' }],
      });
      expect(await writes(id)).toBe(before + 1);

      // Views after it: the notice again, nothing more written (the history shows one write).
      await page.reload();
      await expect(notice.textContent()).resolves.toContain('You are opted out of: Bons plans.');
      await page.goto(url);
      expect(await writes(id)).toBe(before + 1);
      const history = (await profiles.history(id, 'Preferences')).filter((entry) =>
        JSON.stringify(entry).includes('"SourceId":"GlobalPrivacyControl"'),
      );
      expect(history).toHaveLength(1);
      await page.context().close();
    });

    it('asks for an explicit confirmation before opting back in, and records it', async () => {
      const { id, url } = await link('gpc-again@example.com');
      const page = await newPage(GPC);
      await page.goto(url);
      await profiles.complete(id);
      const applied = await writes(id);

      await page.getByRole('checkbox', { name: /Bons plans par courriel/ }).check();
      await page.getByRole('button', { name: 'Save my choices' }).click();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Confirm: receive what sells or shares your information?',
      );
      await expect(page.locator('#gpc-choices').textContent()).resolves.toContain(
        'Bons plans: Bons plans par courriel',
      );
      await shot(page, 'gpc-confirm');
      expect(await writes(id)).toBe(applied);

      await Promise.all([
        page.waitForURL(/notice=saved/),
        page.getByRole('button', { name: 'Yes, opt me in' }).click(),
      ]);
      expect(
        await page
          .getByRole('group', { name: 'Bons plans' })
          .getByRole('checkbox', { name: /Bons plans par courriel/ })
          .isChecked(),
      ).toBe(true);
      expect(dealsOf(await profiles.complete(id))).toMatchObject({
        PreferenceType: 1,
        PreferenceAttributes: [{ Key: '$GlobalPrivacyControl', Value: 'OptInConfirmed' }],
      });
      expect(await writes(id)).toBe(applied + 1);
      // The signal does not undo the confirmed opt-in.
      await page.reload();
      expect(await writes(id)).toBe(applied + 1);
      await page.context().close();
    });

    it('keeps the person opted out when they decline the confirmation', async () => {
      const { id, url } = await link('gpc-no@example.com');
      const page = await newPage({ ...GPC, javaScriptEnabled: false });
      await page.goto(url);
      await profiles.complete(id);
      const applied = await writes(id);
      await page.getByRole('checkbox', { name: /Bons plans par courriel/ }).check();
      await page.getByRole('checkbox', { name: /News by email/ }).uncheck();
      await page.getByRole('button', { name: 'Save my choices' }).click();
      await Promise.all([
        page.waitForURL(/notice=saved/),
        page.getByRole('button', { name: 'No, save my other choices only' }).click(),
      ]);
      const profile = await profiles.complete(id);
      expect(dealsOf(profile)).toMatchObject({ PreferenceType: 2 });
      const news = (profile.Emails[0].EmailPreferences as Body[]).find(
        (p) => p.ProgramId === programs.newsletter.email.ProgramId,
      );
      expect(news).toMatchObject({ PreferenceType: 2 });
      expect(await writes(id)).toBe(applied + 1);
      await page.context().close();
    });
  });
});
