'use strict';
// A Node process of the project (the built api or worker, a baseline server), started for a
// bench: resolves once it printed `readyLine` (at once without one). `entry` is relative to
// this checkout's root, or absolute (another checkout's build, e.g. a commit to compare with).
const { spawn } = require('node:child_process');
const path = require('node:path');
const { ROOT } = require('./engines');

/** BENCH_NODE_ARGS: flags for the started processes, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`. */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

function startNode(entry, env, readyLine) {
  const child = spawn(process.execPath, [...NODE_ARGS, path.resolve(ROOT, entry)], {
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

module.exports = { startNode, rssMiB };
