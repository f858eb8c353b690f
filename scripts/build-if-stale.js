'use strict';
// Builds the api and the worker (`npm run build`) only when their sources changed since the
// last successful build: a hash of every source and build input is kept in dist/, so a warm
// `npm start` skips the ~100 s build and the stack answers within seconds.
// Silent when the build is up to date (every `npm run admin` runs this first, and its output
// is read by scripts); it says so when it builds.
// Usage: node scripts/build-if-stale.js [--force]
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { isAlive } = require('./lib/runtime');

const ROOT = path.resolve(__dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
// Held while one process builds: another (a second test file, a second shell) waits for it
// and then finds the build up to date, instead of building into dist/ at the same time.
const LOCK = path.join(ROOT, '.build-lock');
const LOCK_POLL_MS = 500;
const INPUTS = [
  'apps',
  'libs',
  'tsconfig.json',
  'nest-cli.json',
  'package.json',
  'package-lock.json',
];
const OUTPUTS = ['dist/apps/api/apps/api/src/main.js', 'dist/apps/worker/apps/worker/src/main.js'];

function files(entry) {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [entry];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((name) => files(path.join(entry, name)))
    .filter((file) => !file.endsWith('.spec.ts'));
}

function sourceHash() {
  const hash = crypto.createHash('sha256');
  for (const file of INPUTS.flatMap(files)) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(ROOT, file)));
  }
  return hash.digest('hex');
}

function upToDate(want) {
  const have = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
  return have === want && OUTPUTS.every((file) => fs.existsSync(path.join(ROOT, file)));
}

/** Takes the build lock, waiting while a live process holds it (a dead one's is taken over). */
function lock() {
  let said = false;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = Number(fs.readFileSync(LOCK, 'utf8')) || 0;
    if (holder && !isAlive(holder)) {
      fs.rmSync(LOCK, { force: true });
      continue;
    }
    if (!said) process.stderr.write(`[build] waiting for the build of process ${holder}\n`);
    said = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, LOCK_POLL_MS);
  }
}

function main() {
  const force = process.argv.includes('--force');
  const want = sourceHash();
  if (!force && upToDate(want)) return 0;
  lock();
  try {
    // Another process may have built while this one waited.
    if (!force && upToDate(want)) return 0;
    process.stderr.write('[build] sources changed: building the api and the worker\n');
    const result = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) return result.status || 1;
    fs.writeFileSync(STAMP, `${want}\n`);
    return 0;
  } finally {
    fs.rmSync(LOCK, { force: true });
  }
}

process.exit(main());
