'use strict';
// A Node process of the project (the built api or worker, a baseline server), started for a
// bench: resolves once it printed `readyLine` (at once without one). `entry` is relative to
// this checkout's root, or absolute (another checkout's build, e.g. a commit to compare with).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('./engines');
const { API_NODE_FLAGS } = require('./api-node-flags');

/** BENCH_NODE_ARGS: flags for the started processes, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`. */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

/** The api's entry, in the checkout it was built in (`<root>/dist/apps/api/...`). */
const API_ENTRY = /^(.*)\/dist\/apps\/api\/apps\/api\/src\/main\.js$/;

/**
 * The flags the build of `file` runs its api with in production (its checkout's
 * api-node-flags.js; none before that file existed): a bench of an older commit runs it as
 * it ran then.
 */
function apiFlagsOf(file) {
  const root = API_ENTRY.exec(file)?.[1];
  if (root === undefined) return [];
  if (path.resolve(root) === ROOT) return API_NODE_FLAGS;
  const own = path.join(root, 'scripts', 'lib', 'api-node-flags.js');
  return fs.existsSync(own) ? require(own).API_NODE_FLAGS : [];
}

function startNode(entry, env, readyLine) {
  const file = path.resolve(ROOT, entry);
  const child = spawn(process.execPath, [...apiFlagsOf(file), ...NODE_ARGS, file], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (readyLine && out.includes(readyLine)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}`)));
    if (!readyLine) resolve(child);
  });
}

/** Resident memory of a process in MiB (Linux /proc), or NaN when it is gone. */
function rssMiB(pid) {
  try {
    const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

module.exports = { startNode, rssMiB, apiFlagsOf };
