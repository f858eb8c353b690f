import { rmSync } from 'node:fs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../../scripts/lib/engines.js');

/**
 * Stops the engines the global setup started and removes their files (100-150 MB a run),
 * unless KEEP_TEST_DATA=1 keeps them (the engine's log and data, to look into a failure).
 */
export default async function globalTeardown(): Promise<void> {
  const { __pcpEngines: started = [], __pcpTestDir: dir } = globalThis as {
    __pcpEngines?: unknown[];
    __pcpTestDir?: string;
  };
  for (const child of started) await engines.stop(child);
  if (dir && process.env.KEEP_TEST_DATA !== '1') rmSync(dir, { recursive: true, force: true });
}
