import { rmSync } from 'node:fs';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../../scripts/lib/engines.js');

/** Stops what the cluster setup started and removes its files (unless KEEP_TEST_DATA=1). */
export default async function clusterGlobalTeardown(): Promise<void> {
  const { __pcpClusterEngines: started = [], __pcpClusterTestDir: dir } = globalThis as {
    __pcpClusterEngines?: unknown[];
    __pcpClusterTestDir?: string;
  };
  await Promise.all(started.map((child) => engines.stop(child)));
  if (dir && process.env.KEEP_TEST_DATA !== '1') rmSync(dir, { recursive: true, force: true });
}
