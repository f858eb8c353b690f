import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import request from 'supertest';
import { RedisService } from '@app/shared';
import { encodeDailyKey } from '../../libs/reports/src/domain/report-keys';
import { configureTestTenant, type TestPrograms, testPreference } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { openBrowser, watchConsoleErrors, watchedPage } from '../harness/browser';
import { startTestApp, type TestApp } from '../harness/test-app';
import { profileClient } from '../jobs/job-helpers';
import { countsSettle, reportKey } from './report-helpers';

/** Set to write docs/images/reports-*.png from this run. */
const SCREENSHOTS = process.env.REPORTS_SCREENSHOTS === '1';
const IMAGES = join(__dirname, '..', '..', 'docs', 'images');
const DAY_MS = 24 * 3600 * 1000;

const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

/*
 * The reporting page (docs/reports.md, "The page") in a real browser: Playwright
 * (playwright-core) driving Debian's chromium against the test api on loopback. The charts
 * are drawn by Chart.js served from the api, each beside a table of the same numbers; the
 * date range is chosen with the form; expired and altered links show nothing; no
 * Content-Security-Policy violation and no console error; keyboard only; readable at a
 * phone's 390 px and at 1280 px.
 */
describe('Reporting page in a browser', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let programs: TestPrograms;
  let browser: Browser;
  let origin: string;
  const violations: string[] = [];
  const consoleErrors: string[] = [];

  async function newPage(
    options: BrowserContextOptions = { viewport: { width: 1200, height: 900 } },
  ): Promise<Page> {
    const page = await watchedPage(browser, violations, options);
    watchConsoleErrors(page, consoleErrors);
    return page;
  }

  async function pageUrl(): Promise<string> {
    const res = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Reports/PageLinks`)
      .set('Authorization', await tenant.bearer())
      .expect(200);
    expect(new Date(res.body.ExpiresAt).getTime()).toBeGreaterThan(Date.now());
    return (
      origin + new URL(res.body.Url as string).pathname + new URL(res.body.Url as string).search
    );
  }

  async function shot(page: Page, name: string): Promise<void> {
    if (!SCREENSHOTS) return;
    mkdirSync(IMAGES, { recursive: true });
    await page.screenshot({ path: join(IMAGES, `reports-${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    const profiles = profileClient(app, tenant);
    const ids: number[] = [];
    for (let k = 0; k < 12; k++) {
      ids.push(
        await profiles.create({
          CustomerType: k % 3 ? 'Customer' : 'Prospect',
          Consents: [
            { ConsentType: 'Terms', ConsentStatus: k % 4 ? 1 : 2 },
            { ConsentType: 'Marketing', ConsentStatus: k % 2 ? 1 : 4 },
          ],
          Emails: [
            {
              EmailAddress: `page${k}@example.com`,
              EmailPreferences: [
                testPreference(programs.newsletter.email, { PreferenceType: k % 5 ? 1 : 2 }),
                ...(k % 2
                  ? [
                      testPreference(programs.offers.email, {
                        ConsentAssociations: [{ ConsentType: 'Marketing' }],
                      }),
                    ]
                  : []),
              ],
            },
          ],
        }),
      );
    }
    await Promise.all(ids.map((id) => profiles.complete(id)));
    await countsSettle(app, tenant.clientId);
    if (SCREENSHOTS) {
      // The docs' screenshots show a month: the days before today are written straight
      // into the day hashes (the write path dates events by their real acceptance time).
      const redis = app.api.get(RedisService).client;
      for (let offset = -29; offset < 0; offset++) {
        const hash = reportKey(app, tenant.clientId, 'day', day(offset));
        const wave = Math.round(6 + 4 * Math.sin(offset / 3));
        await redis.hset(hash, {
          [encodeDailyKey({ event: 'Grants', customerType: 'customer', consentType: 'terms' })]:
            wave,
          [encodeDailyKey({
            event: 'Revocations',
            customerType: 'customer',
            consentType: 'marketing',
          })]: Math.max(0, wave - 5),
          [encodeDailyKey({ event: 'ProfilesCreated', customerType: 'customer' })]: wave + 2,
          [encodeDailyKey({
            event: 'OptIns',
            customerType: 'customer',
            programId: programs.newsletter.email.ProgramId,
            filterId: programs.newsletter.email.FilterId,
            channel: 'Email',
          })]: wave + 1,
        });
      }
    }
    ({ browser, origin } = await openBrowser(app));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(() => {
    expect(violations).toEqual([]);
    expect(consoleErrors).toEqual([]);
    violations.length = 0;
    consoleErrors.length = 0;
  });

  it('draws each chart beside a table of the same numbers', async () => {
    const page = await newPage();
    const opened = await page.goto(await pageUrl());
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      `Consents and preferences of ${tenant.clientId}`,
    );
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/Counts are current/);
    // Chart.js drew every chart (a chart instance on each canvas, with pixels).
    for (const id of [
      'consents',
      'preferences',
      'profiles',
      'daily-consents',
      'daily-preferences',
      'daily-profiles',
    ]) {
      const canvas = page.locator(`#chart-${id}`);
      await expect(canvas.getAttribute('role')).resolves.toBe('img');
      expect(
        await page.evaluate(
          `(() => { const c = Chart.getChart(document.getElementById('chart-${id}')); return !!c && c.width > 100 && c.height > 100; })()`,
        ),
      ).toBe(true);
    }
    // The tables: captions, column and row headers, the counts.
    const consents = page.getByRole('table', { name: /Consents now/ });
    const terms = consents.getByRole('row', { name: /^Terms/ });
    await expect(terms.getByRole('cell').allTextContents()).resolves.toEqual([
      '9', // Granted
      '3', // Denied
      '0',
      '0',
      '0',
      '75.0 %',
    ]);
    expect(await consents.locator('th[scope="col"]').count()).toBe(7);
    const preferences = page.getByRole('table', { name: /Preferences now/ });
    await expect(
      preferences
        .getByRole('row', { name: /News by email/ })
        .getByRole('cell')
        .first()
        .textContent(),
    ).resolves.toBe('9');
    const profilesTable = page.getByRole('table', { name: 'Profiles now' });
    await expect(
      profilesTable
        .getByRole('row', { name: /^Customer/ })
        .getByRole('cell')
        .first()
        .textContent(),
    ).resolves.toBe('8');
    await page.context().close();
  });

  it('shows the chosen date range, from the form, keyboard only', async () => {
    const page = await newPage();
    await page.goto(await pageUrl());
    // Tab to the From field and type a day, then to the button and Enter.
    let focused = '';
    for (let i = 0; i < 10 && focused !== 'from'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>(
        "(document.activeElement && document.activeElement.id) || ''",
      );
    }
    expect(focused).toBe('from');
    await page.fill('#from', day(-6));
    await page.fill('#to', day(0));
    await Promise.all([
      page.waitForURL(new RegExp(`from=${day(-6)}`)),
      page.getByRole('button', { name: 'Show' }).press('Enter'),
    ]);
    const series = page.getByRole('table', { name: /Events per day/ });
    expect(await series.locator('tbody tr').count()).toBe(7);
    const today = series.getByRole('row', { name: new RegExp(`^${day(0)}`) });
    // Grants today: 9 Terms + 6 Marketing; then Denials 3.
    await expect(today.getByRole('cell').nth(0).textContent()).resolves.toBe('15');
    await expect(today.getByRole('cell').nth(1).textContent()).resolves.toBe('3');
    await shot(page, 'range');
    // A range the service refuses is said, and the default range shown.
    await page.goto(page.url().replace(/from=[^&]*/, 'from=2020-01-01'));
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/at most 400/);
    expect(
      await page
        .getByRole('table', { name: /Events per day/ })
        .locator('tbody tr')
        .count(),
    ).toBe(30);
    await page.context().close();
  });

  it.each([
    { width: 390, height: 844, screenshot: 'phone' },
    { width: 1280, height: 900, screenshot: 'page' },
  ])(
    'reads at $width px: plots 200 px tall or more, no page overflow, tables that show they scroll, local times',
    async ({ width, height, screenshot }) => {
      const counts = await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Reports/Counts`)
        .set('Authorization', await tenant.bearer())
        .expect(200);
      const builtAt = counts.body.BuiltAt as string;
      const page = await newPage({
        viewport: { width, height },
        locale: 'de-DE',
        timezoneId: 'Asia/Kolkata',
      });
      await page.goto(await pageUrl());

      // Every chart: its canvas and the plot inside it (less the legend and the axes).
      const ids = await page.evaluate<string[]>(
        "[...document.querySelectorAll('canvas[data-chart]')].map((canvas) => canvas.dataset.chart)",
      );
      expect(ids).toEqual([
        'consents',
        'preferences',
        'profiles',
        'daily-consents',
        'daily-preferences',
        'daily-profiles',
      ]);
      for (const id of ids) {
        const box = await page.locator(`canvas[data-chart="${id}"]`).boundingBox();
        const drawn = await page.evaluate<{ plot: number; series: number }>(
          `(() => { const chart = Chart.getChart(document.querySelector('canvas[data-chart="${id}"]'));
            return chart ? { plot: chart.chartArea.bottom - chart.chartArea.top, series: chart.data.datasets.length } : { plot: 0, series: 0 }; })()`,
        );
        expect({ id, height: box!.height >= 200, plot: drawn.plot >= 200 }).toEqual({
          id,
          height: true,
          plot: true,
        });
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        if (id.startsWith('daily-')) expect(drawn.series).toBe(5);
      }

      // The page itself never scrolls sideways.
      const overflow = await page.evaluate<{ page: number; window: number }>(
        '({ page: document.documentElement.scrollWidth, window: window.innerWidth })',
      );
      expect(overflow.page).toBeLessThanOrEqual(overflow.window);
      await shot(page, screenshot);

      // Each table box shows its cue exactly when its table is wider than the box.
      const boxes = page.locator('.table-box');
      expect(await boxes.count()).toBe(5);
      for (let k = 0; k < 5; k++) {
        const box = boxes.nth(k);
        const wider = await box
          .locator('.table')
          .evaluate((region) => region.scrollWidth > region.clientWidth);
        await expect(box.locator('.scroll-cue').isVisible()).resolves.toBe(wider);
      }
      // The daily table (sixteen columns) scrolls, from the keyboard too; its day column stays.
      const daily = page.getByRole('region', { name: /^What happened each day.*: table$/ });
      const dailyWider = await daily.evaluate((region) => region.scrollWidth > region.clientWidth);
      if (width === 390) {
        expect(dailyWider).toBe(true);
        await expect(
          page.locator('.table-box', { has: daily }).locator('.scroll-cue').textContent(),
        ).resolves.toMatch(/Scroll sideways/);
      }
      if (dailyWider) {
        // Where the first day's cell and its Grants are, and the scroll, in one frame (the
        // browser may scroll smoothly).
        const at = () =>
          daily.evaluate((region) => ({
            scrolled: region.scrollLeft,
            day: region.querySelector('tbody th')!.getBoundingClientRect().x,
            grants: region.querySelector('tbody td')!.getBoundingClientRect().x,
          }));
        const before = await at();
        expect(before.scrolled).toBe(0);
        await daily.focus();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        await page.waitForFunction((region) => region!.scrollLeft > 0, await daily.elementHandle());
        const after = await at();
        expect(after.day).toBeCloseTo(before.day, 0);
        expect(after.grants).toBeCloseTo(before.grants - after.scrolled, 0);
      }

      // When the counts were built: the instant the JSON route answers, in the reader's
      // locale and time zone (de-DE, UTC+05:30 here), the UTC text kept as its title.
      const status = page.getByRole('status');
      await expect(status.textContent()).resolves.toMatch(
        /^Counts are current: counted from every stored profile at .+ and kept by every applied write since\.$/,
      );
      const time = status.locator('time');
      await expect(time.getAttribute('datetime')).resolves.toBe(builtAt);
      await expect(time.getAttribute('title')).resolves.toBe(
        `${builtAt.slice(0, 10)} ${builtAt.slice(11, 16)} UTC`,
      );
      const local = new Intl.DateTimeFormat('de-DE', {
        timeZone: 'Asia/Kolkata',
        dateStyle: 'medium',
        timeStyle: 'short',
      }).format(new Date(builtAt));
      const spaces = (text: string | null) => (text ?? '').replace(/\s/g, ' ');
      expect(spaces(await time.textContent())).toBe(spaces(local));

      // The icon is inline and allowed by the Content-Security-Policy (an image it loads).
      await expect(
        page.evaluate<string>(`new Promise((resolve) => {
          const link = document.querySelector('link[rel="icon"]');
          const image = new Image();
          image.onload = () => resolve(link.href.slice(0, 19));
          image.onerror = () => resolve('not loaded');
          image.src = link ? link.href : '';
        })`),
      ).resolves.toBe('data:image/svg+xml,');

      await page.context().close();
    },
  );

  it('refuses altered and expired links with a page that shows nothing', async () => {
    const url = await pageUrl();
    const page = await newPage();
    const altered = url.replace(/u=[^&]*/, 'u=someone-else');
    const refused = await page.goto(altered);
    expect(refused?.status()).toBe(403);
    // The browser logs the document's own status; nothing else.
    expect(consoleErrors).toEqual([expect.stringContaining(`status of 403`)]);
    expect(consoleErrors[0]).toContain(altered);
    consoleErrors.length = 0;
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'This link is not valid',
    );
    expect(await page.locator('table').count()).toBe(0);
    app.advance(20 * 60 * 1000);
    try {
      const expired = await page.goto(url);
      expect(expired?.status()).toBe(410);
      expect(consoleErrors).toEqual([expect.stringContaining(`status of 410`)]);
      expect(consoleErrors[0]).toContain(url);
      consoleErrors.length = 0;
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'This link has expired',
      );
    } finally {
      app.advance(-20 * 60 * 1000);
    }
    await page.context().close();
  });
});
