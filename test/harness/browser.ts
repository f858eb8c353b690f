import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import type { TestApp } from './test-app';

/** Debian's chromium (browser downloads are not available): scripts/setup.sh installs it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The test app served on a loopback port and a headless chromium to open its pages (the
 * pages the api serves itself: the preference centre, the reporting page).
 */
export async function openBrowser(app: TestApp): Promise<{ browser: Browser; origin: string }> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No browser at ${CHROMIUM}: run scripts/setup.sh (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  await new Promise<void>((resolve) => app.http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(app.http.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  return { browser, origin };
}

/** A page in a new context whose CSP refusals and script errors go into `violations`. */
export async function watchedPage(
  browser: Browser,
  violations: string[],
  options: BrowserContextOptions,
): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  page.on('pageerror', (error) => violations.push(error.message));
  return page;
}

/**
 * Puts every console error of `page` into `errors`, with the address it names (a resource
 * that failed to load, such as a /favicon.ico 404, is one).
 */
export function watchConsoleErrors(page: Page, errors: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
}
