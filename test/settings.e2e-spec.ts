import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Settings, SettingsError } from '@app/shared';
import { createApiApp } from '../apps/api/src/bootstrap';
import { createWorkerApp } from '../apps/worker/src/bootstrap';

/**
 * Typed configuration (README, "Configuration"): the apps check the whole environment
 * against every variable their libs declare when they start (@nestjs/config's validate),
 * and a bad value stops the start with one error naming every bad variable and its value.
 * What main.ts does with it (prints the message, exits 1): docs/operations.md.
 */
describe('settings checked at start', () => {
  /** Good process settings (the engine, Redis), bad values of the libs' variables. */
  const env = {
    MONGODB_URI: `${process.env.TEST_MONGODB_BASE}test_settings`,
    REDIS_URL: process.env.TEST_REDIS_URL!,
    LOG_LEVEL: 'error',
    // auth: unset (required, a secret), profiles, bulk (above its maximum), events (a list),
    // a scheduled job's interval.
    JWT_SECRET: '',
    SEARCH_CANDIDATE_LIMIT: 'lots',
    BULK_EXPORT_PAGE_ROWS: '900',
    EVENTS_HANDSHAKE_RETRY_DELAYS_MS: '1000,soon',
    CONSENT_EXPIRY_INTERVAL_MS: '-5',
  };
  const expected = [
    '  JWT_SECRET (value unset): is required',
    '  SEARCH_CANDIDATE_LIMIT (value "lots"): must be a non-negative integer',
    '  BULK_EXPORT_PAGE_ROWS (value "900"): must be at most 500',
    '  EVENTS_HANDSHAKE_RETRY_DELAYS_MS (value "1000,soon"): must be a comma-separated list of non-negative integers',
    '  CONSENT_EXPIRY_INTERVAL_MS (value "-5"): must be a non-negative integer',
  ];

  async function startError(start: () => Promise<unknown>): Promise<Error> {
    try {
      await start();
    } catch (error) {
      return error as Error;
    }
    throw new Error('the app started');
  }

  it('the api does not start: one error lists every bad variable with its value', async () => {
    const error = await startError(() => createApiApp(new Settings(env)));
    expect(error).toBeInstanceOf(SettingsError);
    expect(error.message.split('\n')).toEqual([
      'Invalid settings (5 bad environment variables):',
      ...expected,
    ]);
  });

  it('the worker does not start either, with the same message', async () => {
    const error = await startError(() => createWorkerApp(new Settings(env)));
    expect(error.message.split('\n')).toEqual([
      'Invalid settings (5 bad environment variables):',
      ...expected,
    ]);
  });

  it("names a bad secret without its value, and checks the preference centre's variables", async () => {
    const error = await startError(() =>
      createApiApp(
        new Settings({
          ...env,
          JWT_SECRET: 'x',
          SEARCH_CANDIDATE_LIMIT: '',
          BULK_EXPORT_PAGE_ROWS: '',
          EVENTS_HANDSHAKE_RETRY_DELAYS_MS: '',
          CONSENT_EXPIRY_INTERVAL_MS: '',
          PREFERENCE_CENTRE_SECRET: 'too-short-secret',
          PREFERENCE_CENTRE_BASE_URL: 'prefs.example.com/path',
        }),
      ),
    );
    expect(error.message.split('\n')).toEqual([
      'Invalid settings (2 bad environment variables):',
      '  PREFERENCE_CENTRE_SECRET (value ***): must be at least 32 characters (it has 16)',
      '  PREFERENCE_CENTRE_BASE_URL (value "prefs.example.com/path"): must be an http(s) origin such as https://prefs.example.com',
    ]);
    expect(JSON.stringify({ ...error })).not.toContain('too-short-secret');
  });

  /**
   * Runs an app's main.ts in a process of its own (the sources, no build) with `env`.
   * Compiling the sources on the fly takes 20 s on a loaded 2-core machine: the process gets
   * two minutes, and the test as long (the answer, not the time, is what is checked).
   */
  function runMain(app: 'api' | 'worker', env: Record<string, string>) {
    const root = join(__dirname, '..');
    return spawnSync(
      process.execPath,
      ['-r', './scripts/lib/ts-require.js', `apps/${app}/src/main.ts`],
      { cwd: root, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 120_000 },
    );
  }

  it.each(['api', 'worker'] as const)(
    'the %s process stops with status 1, printing only that message',
    (app) => {
      const run = runMain(app, {
        ...env,
        PORT: 'eighty',
        MONGODB_URI: '',
        EVENTS_HANDSHAKE_RETRY_DELAYS_MS: '',
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        'Invalid settings (6 bad environment variables):',
        '  PORT (value "eighty"): must be a non-negative integer',
        '  MONGODB_URI (value unset): is required',
        ...expected.filter((line) => !line.includes('EVENTS_HANDSHAKE')),
      ]);
    },
    180_000,
  );
});
