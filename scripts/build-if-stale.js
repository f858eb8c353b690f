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

const ROOT = path.resolve(__dirname, '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
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

function main() {
  const want = sourceHash();
  const have = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : '';
  const built = OUTPUTS.every((file) => fs.existsSync(path.join(ROOT, file)));
  if (!process.argv.includes('--force') && built && have === want) return 0;
  process.stderr.write('[build] sources changed: building the api and the worker\n');
  const result = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) return result.status || 1;
  fs.writeFileSync(STAMP, `${want}\n`);
  return 0;
}

process.exit(main());
