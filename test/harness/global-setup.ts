import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ENGINE_TUNING } from './engine-tuning';

// Plain JS shared with the launcher: one way to start the engines.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../../scripts/lib/engines.js');

/**
 * Starts the real engine (FerretDB on SQLite, or MONGODB_URI when set) and a real Redis
 * (or REDIS_URL) once per test run. Each test file then uses its own database name and
 * queue prefix, so files run in parallel without seeing each other.
 */
export default async function globalSetup(): Promise<void> {
  // The e2e and contract projects name this setup each: the engines start once per run.
  const shared = globalThis as { __pcpSetups?: number };
  shared.__pcpSetups = (shared.__pcpSetups ?? 0) + 1;
  if (shared.__pcpSetups > 1) return;
  const dir = mkdtempSync(join(tmpdir(), 'pcp-test-'));
  const started: unknown[] = [];
  if (!process.env.MONGODB_URI) {
    const engine = await engines.startFerretdb({
      dataDir: join(dir, 'engine'),
      logFile: join(dir, 'engine.log'),
      ...TEST_ENGINE_TUNING,
    });
    started.push(engine.child);
    process.env.TEST_MONGODB_BASE = engine.uri;
    // Where its SQLite files are: the engine tests read their query plans.
    process.env.TEST_ENGINE_DATA_DIR = join(dir, 'engine');
  } else {
    process.env.TEST_MONGODB_BASE = process.env.MONGODB_URI.replace(/\/[^/?]*(\?.*)?$/, '/');
  }
  if (!process.env.REDIS_URL) {
    const redis = await engines.startRedis({ dir: join(dir, 'redis'), persist: false });
    started.push(redis.child);
    process.env.TEST_REDIS_URL = redis.url;
  } else {
    process.env.TEST_REDIS_URL = process.env.REDIS_URL;
  }
  // Double opt-in messages go to an embedded mail catcher the tests read (its inbox's JSON).
  const catcher = await engines.startMailCatcher({ logFile: join(dir, 'mail-catcher.log') });
  started.push(catcher.child);
  process.env.TEST_SMTP_URL = catcher.smtpUrl;
  process.env.TEST_MAIL_INBOX_URL = catcher.inboxUrl;
  Object.assign(globalThis, { __pcpEngines: started, __pcpTestDir: dir });
}
