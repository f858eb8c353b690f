'use strict';
// The service as a bench runs it on the embedded default: a fresh engine and Redis in a
// scratch directory, the built api and one worker, rate limits above reach (their cost is
// measured, they never throttle a bench). `close(ok)` stops them all and removes the
// directory after a run that went well (its logs are kept otherwise). With
// BENCH_ENGINE_COMMANDS=1 the worker reaches the engine through a relay that counts its
// commands (`engineCommands.report()`; scripts/lib/engine-command-counter.js). `extraEnv`:
// more environment for both the api and the worker (e.g. a bench's own settings).
// `options.apis`: how many api processes (each on its own port, sharing the engine, Redis and
// JWT secret: `apis`, `origins`; `api` and `origin` are the first). `options.root`: the
// checkout whose build (dist/) runs, this one by default (another work tree holding an older
// commit's build, for a before/after run).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { ROOT, freePort, startFerretdb, startRedis, stop, waitForPort } = require('./engines');
const { startNode } = require('./node-process');
const { startEngineCommandCounter } = require('./engine-command-counter');

async function startServiceStack(name, extraEnv = {}, { apis: apiCount = 1, root = ROOT } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pcp-bench-${name}-`));
  const engine = await startFerretdb({
    dataDir: path.join(dir, 'engine'),
    logFile: path.join(dir, 'engine.log'),
  });
  const redisServer = await startRedis({ dir: path.join(dir, 'redis'), persist: false });
  const children = [engine.child, redisServer.child];
  let engineCommands = null;
  const close = async (ok) => {
    for (const child of children.reverse()) await stop(child);
    // The relay's server would keep this process alive after the bench printed.
    if (engineCommands) await engineCommands.close();
    if (ok) fs.rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`[bench:${name}] logs kept in ${dir}\n`);
  };
  try {
    const apiPort = await freePort();
    const env = {
      PORT: String(apiPort),
      MONGODB_URI: `${engine.uri}bench`,
      REDIS_URL: redisServer.url,
      JWT_SECRET: randomUUID(),
      QUEUE_PREFIX: 'bench',
      LOG_LEVEL: 'error',
      RATE_LIMIT_READS_PER_SECOND: '1000000',
      RATE_LIMIT_WRITES_PER_SECOND: '1000000',
      ...extraEnv,
    };
    const apis = [];
    const origins = [];
    for (let n = 0; n < apiCount; n++) {
      const port = n === 0 ? apiPort : await freePort();
      const api = await startNode(path.join(root, 'dist/apps/api/apps/api/src/main.js'), {
        ...env,
        PORT: String(port),
      });
      children.push(api);
      await waitForPort(port, api, 'api', 60000);
      apis.push(api);
      origins.push(`http://127.0.0.1:${port}`);
    }
    let workerEnv = env;
    if (process.env.BENCH_ENGINE_COMMANDS === '1') {
      const { hostname, port } = new URL(engine.uri);
      engineCommands = await startEngineCommandCounter(hostname, Number(port));
      workerEnv = { ...env, MONGODB_URI: `mongodb://127.0.0.1:${engineCommands.port}/bench` };
    }
    const workerPath = path.join(root, 'dist/apps/worker/apps/worker/src/main.js');
    const worker = await startNode(workerPath, workerEnv);
    children.push(worker);
    let current = worker;
    /**
     * Stops the worker and starts another with more environment (a setting compared within
     * one run, e.g. REPORTS_ENABLED), answering once it listens on its health port.
     */
    const restartWorker = async (moreEnv = {}) => {
      await stop(current);
      children.splice(children.indexOf(current), 1);
      const healthPort = await freePort();
      current = await startNode(workerPath, {
        ...workerEnv,
        ...moreEnv,
        WORKER_HEALTH_PORT: String(healthPort),
      });
      children.push(current);
      await waitForPort(healthPort, current, 'worker', 60000);
      return current;
    };
    const [api] = apis;
    const [origin] = origins;
    return {
      dir,
      engine,
      redisServer,
      env,
      api,
      apis,
      worker,
      origin,
      origins,
      close,
      engineCommands,
      restartWorker,
    };
  } catch (error) {
    await close(false);
    throw error;
  }
}

module.exports = { startServiceStack };
