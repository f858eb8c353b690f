'use strict';
// Starts the embedded engine (FerretDB) and Redis as child processes on free loopback
// ports. Used by the launcher (npm start), the admin wrapper and the test harness.
const { spawn } = require('node:child_process');
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

/** Starts FerretDB on SQLite files in dataDir; resolves { uri, child }. */
async function startFerretdb({ dataDir, port, logFile, extraArgs = [] }) {
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
      `file:${dataDir.replace(/\/?$/, '/')}`,
      ...extraArgs,
    ],
    { stdio: ['ignore', out, out] },
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

function stop(child) {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

module.exports = { ROOT, FERRETDB_BIN, freePort, startFerretdb, startRedis, stop, waitForPort };
