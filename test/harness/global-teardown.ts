import { rmSync } from 'node:fs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../../scripts/lib/engines.js');

/**
 * Stops the engines the global setup started and removes their files (100-150 MB a run),
 * unless KEEP_TEST_DATA=1 keeps them (the engine's log and data, to look into a failure).
 */
export default async function globalTeardown(): Promise<void> {
  const shared = globalThis as {
    __pcpEngines?: unknown[];
    __pcpTestDir?: string;
    __pcpSetups?: number;
  };
  // One teardown per project that ran the setup: the last one stops the engines.
  shared.__pcpSetups = (shared.__pcpSetups ?? 1) - 1;
  if (shared.__pcpSetups > 0) return;
  const { __pcpEngines: started = [], __pcpTestDir: dir } = shared;
  for (const child of started) await engines.stop(child);
  if (dir && process.env.KEEP_TEST_DATA !== '1') rmSync(dir, { recursive: true, force: true });
}
