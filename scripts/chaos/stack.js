'use strict';
// The processes of a fault run, started here so that the faults can reach them: FerretDB,
// redis-server, N api processes and one worker, each a separate OS process on loopback, in a
// scratch directory. The api and worker processes are supervised as `npm start` does: one
// that exits is started again (at once after a kill of the run, after 1 s when it exited by
// itself, which the report counts). Every child ever started is remembered, so `killAll`
// (on the normal end, on an error, on Ctrl-C and on exit) leaves nothing running; a paused
// (SIGSTOP) child is continued first so that it takes its signal.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const {
  ROOT,
  freePort,
  redisCli,
  spawnClusterNode,
  startFerretdb,
  startRedisCluster,
  waitForClusterOk,
  waitForPort,
} = require('../lib/engines');

const API_ENTRY = 'dist/apps/api/apps/api/src/main.js';
const WORKER_ENTRY = 'dist/apps/worker/apps/worker/src/main.js';

/** Every child started by this run that has not exited: what killAll signals. */
const started = new Set();

function track(child) {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

function alive(child) {
  return Boolean(child) && child.exitCode === null && child.signalCode === null;
}

/** Sends a signal if the child still runs (never to a pid that may have been reused). */
function signal(child, sig) {
  if (!alive(child)) return false;
  try {
    return child.kill(sig);
  } catch {
    return false;
  }
}

function exited(child) {
  return alive(child) ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve();
}

/** Synchronous, so that it also runs from process.on('exit'). */
function killAll() {
  for (const child of started) {
    signal(child, 'SIGCONT');
    signal(child, 'SIGKILL');
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A built Node entry with its output appended to a log file (kept with the run's dir). */
function spawnNode(entry, env, logFile) {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [path.join(ROOT, entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  return track(child);
}

/**
 * redis-server without persistence on a given port, in a new empty directory: started again
 * on the same port after a SIGKILL, it is "Redis restarted empty" for every process that
 * reconnects to the same URL.
 */
async function startRedisOn(port, dir, logFile) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir];
  args.push('--save', '', '--appendonly', 'no', '--logfile', logFile);
  const child = track(spawn('redis-server', args, { stdio: 'ignore' }));
  await waitForPort(port, child, 'redis-server');
  return child;
}

/**
 * One supervised Node process (an api or the worker): `child` is the current one; `kill()`
 * is the fault (SIGKILL, restarted at once); an exit nobody asked for is counted in
 * `stack.unexpectedExits` and restarted after 1 s. `stop()` ends supervision.
 */
function supervise(stack, name, entry, env, port) {
  const role = { name, child: null, port, starts: 0, stopped: false };
  const start = () => {
    role.starts++;
    const child = spawnNode(entry, env, stack.logPath(name));
    role.child = child;
    child.once('exit', (code, sig) => {
      if (role.stopped || stack.stopping) return;
      const planned = child.killedByRun === true;
      if (!planned) stack.unexpectedExits.push({ name, code, signal: sig, at: Date.now() });
      setTimeout(() => !role.stopped && !stack.stopping && start(), planned ? 100 : 1000);
    });
  };
  role.kill = async () => {
    const child = role.child;
    if (!alive(child)) return;
    child.killedByRun = true;
    signal(child, 'SIGKILL');
    await exited(child);
  };
  /** Resolves once the current process listens (only for a role with a port). */
  role.listening = async (timeoutMs = 120000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const child = role.child;
      if (alive(child)) {
        try {
          await waitForPort(port, child, name, Math.max(1000, deadline - Date.now()));
          return;
        } catch {
          // exited before it listened: the supervisor starts the next one
        }
      }
      await sleep(200);
    }
    throw new Error(`${name} did not listen on ${port} within ${timeoutMs} ms`);
  };
  start();
  return role;
}

/** The nodes of a cluster as `CLUSTER NODES` on `port` lists them: { id, port, master, slots, fail }. */
async function clusterNodes(port) {
  const lines = (await redisCli(['-p', String(port), 'cluster', 'nodes'])).trim().split('\n');
  return lines.map((line) => {
    const [id, address, flags, , , , , , ...slots] = line.split(' ');
    return {
      id,
      port: Number(address.split('@')[0].split(':').pop()),
      master: flags.includes('master'),
      fail: flags.includes('fail'),
      slots,
    };
  });
}

/**
 * A Redis Cluster for the run (six nodes: three masters with a replica each), and the fault
 * it allows: `failoverMaster` kills a master (SIGKILL), waits until its replica took over its
 * slots and every live node says the cluster is ok, then starts it again on its port and
 * files, where it rejoins as a replica of the new master.
 */
async function startCluster(stack, dir) {
  const cluster = await startRedisCluster({ dir });
  const nodes = cluster.ports.map((port, n) => ({ port, child: track(cluster.children[n]) }));
  stack.redisNodes = nodes;
  stack.env.REDIS_URL = cluster.url;
  stack.env.REDIS_CLUSTER_NODES = cluster.nodes;
  // As docs/scaling.md advises with replicas: an accepted write's record survives a failover.
  stack.env.READ_MODEL_WAIT_REPLICAS = '1';
  stack.failoverMaster = async () => {
    const live = nodes.filter((node) => alive(node.child));
    const masters = (await clusterNodes(live[0].port)).filter(
      (node) => node.master && !node.fail && node.slots.length,
    );
    const victim = masters[Math.floor(Math.random() * masters.length)];
    const node = nodes.find((candidate) => candidate.port === victim.port);
    signal(node.child, 'SIGCONT');
    signal(node.child, 'SIGKILL');
    await exited(node.child);
    const others = nodes.filter((candidate) => candidate !== node).map((n) => n.port);
    // The replica is promoted after the node timeout (3 s): its slots are served again.
    const deadline = Date.now() + 60000;
    for (;;) {
      const view = await clusterNodes(others[0]).catch(() => []);
      const promoted = view.some(
        (n) =>
          n.master && !n.fail && n.port !== node.port && n.slots.join() === victim.slots.join(),
      );
      if (promoted) break;
      if (Date.now() > deadline) throw new Error(`no replica took over from :${node.port}`);
      await sleep(200);
    }
    await waitForClusterOk(others);
    node.child = track(spawnClusterNode({ dir, port: node.port }));
    await waitForPort(node.port, node.child, 'redis-server');
    await waitForClusterOk([node.port]);
    return `master :${node.port} killed, its replica took over, started again as a replica`;
  };
}

/**
 * Starts the stack: the engine, Redis (one, or with `redisCluster` a cluster of six),
 * `apiCount` api processes on their own ports and one worker. The returned object holds each
 * role's current process and the operations the faults use.
 */
async function startStack({ apiCount, log, redisCluster = false }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcp-chaos-'));
  const logPath = (name) => path.join(dir, `${name}.log`);
  const engine = await startFerretdb({
    dataDir: path.join(dir, 'engine'),
    logFile: logPath('engine'),
  });
  track(engine.child);
  const redisPort = await freePort();
  const stack = {
    dir,
    logPath,
    dbName: 'chaos',
    engineUri: engine.uri,
    engine: engine.child,
    redisPort,
    redis: redisCluster
      ? null
      : await startRedisOn(redisPort, path.join(dir, 'redis'), logPath('redis')),
    redisNodes: [],
    apis: [],
    worker: null,
    stopping: false,
    unexpectedExits: [],
  };
  stack.env = {
    HOST: '127.0.0.1',
    MONGODB_URI: `${engine.uri}${stack.dbName}`,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    JWT_SECRET: randomUUID(),
    QUEUE_PREFIX: 'chaos',
    LOG_LEVEL: 'warn',
  };
  if (redisCluster) await startCluster(stack, path.join(dir, 'redis-cluster'));

  /** SIGKILL, then a new redis-server on the same port with no data. */
  stack.restartRedisEmpty = async () => {
    const old = stack.redis;
    signal(old, 'SIGCONT');
    signal(old, 'SIGKILL');
    await exited(old);
    stack.redis = await startRedisOn(redisPort, path.join(dir, 'redis'), logPath('redis'));
  };
  stack.pause = (child) => signal(child, 'SIGSTOP');
  stack.resume = (child) => signal(child, 'SIGCONT');
  /** Ends supervision (nothing is restarted any more) and kills every process. */
  stack.close = () => {
    stack.stopping = true;
    killAll();
  };

  const ports = [];
  for (let i = 0; i < apiCount; i++) ports.push(await freePort());
  const redisAt = redisCluster ? `cluster ${stack.env.REDIS_CLUSTER_NODES}` : `:${redisPort}`;
  log(`scratch dir ${dir}; engine ${engine.uri}, redis ${redisAt}, api ports ${ports}`);
  stack.apis = ports.map((port, i) => {
    const role = supervise(stack, `api${i}`, API_ENTRY, { ...stack.env, PORT: String(port) }, port);
    role.origin = `http://127.0.0.1:${port}`;
    return role;
  });
  stack.worker = supervise(stack, 'worker', WORKER_ENTRY, stack.env);
  for (const api of stack.apis) await api.listening();
  return stack;
}

module.exports = { startStack, killAll, alive };
