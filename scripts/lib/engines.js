'use strict';
// Starts the embedded engine (FerretDB) and Redis as child processes on free loopback
// ports. Used by the launcher (npm start), the admin wrapper and the test harness.
const { execFile, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const FERRETDB_BIN = path.join(ROOT, '.tools', 'bin', 'ferretdb');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function waitForPort(port, child, name, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    let exited = false;
    child.once('exit', (code) => {
      exited = true;
      reject(new Error(`${name} exited with code ${code} before it listened`));
    });
    const attempt = () => {
      if (exited) return;
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${name} did not listen on ${port}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** The query of a FerretDB SQLite URL that sets these pragmas ('' for none). */
function sqliteQuery(pragmas) {
  return pragmas.length
    ? `?${pragmas.map((p) => `_pragma=${encodeURIComponent(p)}`).join('&')}`
    : '';
}

/**
 * Starts FerretDB on SQLite files in dataDir; resolves { uri, child }. `pragmas` go to SQLite
 * on every connection (`_pragma=` of the SQLite URL, e.g. `synchronous(normal)`), `env` to the
 * process (e.g. GOGC); both default to FerretDB's own settings.
 */
async function startFerretdb({ dataDir, port, logFile, extraArgs = [], pragmas = [], env = {} }) {
  if (!fs.existsSync(FERRETDB_BIN)) {
    throw new Error(`${FERRETDB_BIN} is missing: run "npm run setup" first`);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  port = port || (await freePort());
  const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
  const child = spawn(
    FERRETDB_BIN,
    [
      '--listen-addr',
      `127.0.0.1:${port}`,
      '--sqlite-url',
      `file:${dataDir.replace(/\/?$/, '/')}${sqliteQuery(pragmas)}`,
      ...extraArgs,
    ],
    { stdio: ['ignore', out, out], env: { ...process.env, ...env } },
  );
  await waitForPort(port, child, 'ferretdb');
  return { uri: `mongodb://127.0.0.1:${port}/`, child };
}

/** Starts redis-server with an append-only file in dir; resolves { url, child }. */
async function startRedis({ dir, port, logFile, persist = true }) {
  fs.mkdirSync(dir, { recursive: true });
  port = port || (await freePort());
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  args.push('--appendonly', persist ? 'yes' : 'no');
  if (logFile) args.push('--logfile', logFile);
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  await waitForPort(port, child, 'redis-server');
  return { url: `redis://127.0.0.1:${port}`, child };
}

/**
 * Starts the embedded mail catcher (scripts/mail-catcher.js: smtp-server and a web inbox)
 * on free loopback ports; resolves { smtpUrl, inboxUrl, child }.
 */
async function startMailCatcher({ smtpPort, httpPort, logFile } = {}) {
  smtpPort = smtpPort || (await freePort());
  httpPort = httpPort || (await freePort());
  const out = logFile ? fs.openSync(logFile, 'a') : 'ignore';
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'scripts', 'mail-catcher.js'),
      '--smtp-port',
      String(smtpPort),
      '--http-port',
      String(httpPort),
    ],
    { stdio: ['ignore', out, out] },
  );
  await waitForPort(httpPort, child, 'mail catcher');
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    inboxUrl: `http://127.0.0.1:${httpPort}/`,
    child,
  };
}

/** Runs redis-cli with `args`; resolves its output. */
function redisCli(args) {
  return new Promise((resolve, reject) => {
    execFile('redis-cli', args, { timeout: 60000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`redis-cli ${args.join(' ')}: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** Whether `port` on loopback can be listened on now. */
function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port for a cluster node: its bus port (port + 10000) must be free and valid too. */
async function clusterPort() {
  for (;;) {
    const port = await freePort();
    if (port + 10000 <= 65535 && (await portIsFree(port + 10000))) return port;
  }
}

/** Resolves once every port's `CLUSTER INFO` says `cluster_state:ok` (polled). */
async function waitForClusterOk(ports, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (const port of ports) {
    for (;;) {
      const info = await redisCli(['-p', String(port), 'cluster', 'info']).catch(() => '');
      if (info.includes('cluster_state:ok')) break;
      if (Date.now() > deadline) throw new Error(`redis cluster node ${port}: not ok in time`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Resolves once the node at `port` sees `replicas` replicas attached (polled). */
async function waitForReplicas(port, replicas, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const nodes = await redisCli(['-p', String(port), 'cluster', 'nodes']).catch(() => '');
    const attached = nodes.split('\n').filter((line) => / slave [0-9a-f]{40} /.test(line));
    if (attached.length >= replicas) return;
    if (Date.now() > deadline) throw new Error(`redis cluster: replicas not attached in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts a Redis Cluster of six redis-server processes on free loopback ports (three
 * masters, a replica each: `redis-cli --cluster create ... --cluster-replicas 1`), each with
 * its files in `dir`, and resolves once every node says `cluster_state:ok`: { url (the first
 * node, REDIS_URL), nodes ('host:port,...', REDIS_CLUSTER_NODES), ports, children }.
 * `nodeTimeoutMs`: how long a master may be unreachable before its replica takes over.
 */
async function startRedisCluster({ dir, nodeTimeoutMs = 3000, count = 6 }) {
  fs.mkdirSync(dir, { recursive: true });
  const ports = [];
  while (ports.length < count) {
    const port = await clusterPort();
    if (!ports.includes(port)) ports.push(port);
  }
  const children = ports.map((port) => spawnClusterNode({ dir, port, nodeTimeoutMs }));
  try {
    await Promise.all(ports.map((port, n) => waitForPort(port, children[n], 'redis-server')));
    await redisCli([
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await waitForClusterOk(ports);
    await waitForReplicas(ports[0], count / 2);
  } catch (error) {
    await Promise.all(children.map(stop));
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${ports[0]}`,
    nodes: ports.map((port) => `127.0.0.1:${port}`).join(','),
    ports,
    children,
  };
}

/** One node of a cluster (started again on the same port and files, it rejoins as it was). */
function spawnClusterNode({ dir, port, nodeTimeoutMs = 3000 }) {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  args.push('--appendonly', 'no', '--cluster-enabled', 'yes');
  args.push('--cluster-config-file', `nodes-${port}.conf`);
  args.push('--cluster-node-timeout', String(nodeTimeoutMs));
  args.push('--logfile', path.join(dir, `redis-${port}.log`));
  return spawn('redis-server', args, { stdio: 'ignore' });
}

function stop(child) {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

module.exports = {
  ROOT,
  FERRETDB_BIN,
  freePort,
  redisCli,
  spawnClusterNode,
  startFerretdb,
  startMailCatcher,
  startRedis,
  startRedisCluster,
  stop,
  waitForClusterOk,
  waitForPort,
};
