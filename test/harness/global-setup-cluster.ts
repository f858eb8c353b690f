import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_ENGINE_TUNING } from './engine-tuning';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const engines = require('../../scripts/lib/engines.js');

/**
 * The e2e-cluster project's setup: a real Redis Cluster (six redis-server processes, three
 * masters with a replica each; or REDIS_CLUSTER_NODES with REDIS_URL when set) for the
 * suites that exercise Redis, and the engine (the e2e project's when it runs too, else one
 * of its own). Its own variable names (cluster-env.ts gives them to the test files):
 * projects' global setups share one process environment.
 */
export default async function clusterGlobalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pcp-test-cluster-'));
  const started: unknown[] = [];
  if (!process.env.TEST_MONGODB_BASE) {
    if (process.env.MONGODB_URI) {
      process.env.TEST_MONGODB_BASE = process.env.MONGODB_URI.replace(/\/[^/?]*(\?.*)?$/, '/');
    } else {
      const engine = await engines.startFerretdb({
        dataDir: join(dir, 'engine'),
        logFile: join(dir, 'engine.log'),
        ...TEST_ENGINE_TUNING,
      });
      started.push(engine.child);
      process.env.TEST_MONGODB_BASE = engine.uri;
    }
  }
  if (process.env.REDIS_CLUSTER_NODES && process.env.REDIS_URL) {
    process.env.TEST_CLUSTER_REDIS_URL = process.env.REDIS_URL;
    process.env.TEST_CLUSTER_NODES = process.env.REDIS_CLUSTER_NODES;
  } else {
    const cluster = await engines.startRedisCluster({ dir: join(dir, 'redis') });
    started.push(...cluster.children);
    process.env.TEST_CLUSTER_REDIS_URL = cluster.url;
    process.env.TEST_CLUSTER_NODES = cluster.nodes;
  }
  Object.assign(globalThis, { __pcpClusterEngines: started, __pcpClusterTestDir: dir });
}
