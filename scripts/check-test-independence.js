#!/usr/bin/env node
/*
 * Runs every end-to-end test alone (`jest -t "^<full name>$"`), so a test that passes only
 * after its neighbours shows. Slow (a test app per test): run it by hand, not in CI.
 *   node scripts/check-test-independence.js [--files=<substring>] [--sample=<n>] [--seed=<n>]
 *     [--only=<file with one "path: full name" per line, as the failures are printed>]
 * Prints one line per test run alone and a summary; exits 1 when one failed or did not run.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? 'true'];
  }),
);
const root = path.resolve(__dirname, '..');
const jest = path.join(root, 'node_modules', '.bin', 'jest');

function runJest(extra) {
  const out = path.join(os.tmpdir(), `independence-${process.pid}-${Date.now()}.json`);
  spawnSync(jest, ['--selectProjects=e2e', '--json', `--outputFile=${out}`, ...extra], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  try {
    return JSON.parse(fs.readFileSync(out, 'utf8'));
  } catch {
    return null;
  } finally {
    fs.rmSync(out, { force: true });
  }
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const files = spawnSync(jest, ['--selectProjects=e2e', '--listTests'], {
  cwd: root,
  encoding: 'utf8',
})
  .stdout.split('\n')
  .filter((line) => line.endsWith('.e2e-spec.ts'))
  .filter((file) => !args.files || file.includes(args.files))
  .sort();

let tests = [];
for (const file of files) {
  const report = runJest([file]);
  for (const result of report?.testResults ?? []) {
    for (const assertion of result.assertionResults) tests.push({ file, name: assertion.fullName });
  }
}
if (args.only) {
  const wanted = new Set(
    fs
      .readFileSync(args.only, 'utf8')
      .split('\n')
      .map((line) => line.replace(/^\s*failed alone: /, '').trim())
      .filter(Boolean),
  );
  tests = tests.filter(({ file, name }) => wanted.has(`${path.relative(root, file)}: ${name}`));
}
if (args.sample) {
  // A seeded shuffle, so a sample can be run again.
  let seed = Number(args.seed ?? 1);
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  tests = tests
    .map((test) => ({ test, key: random() }))
    .sort((a, b) => a.key - b.key)
    .slice(0, Number(args.sample))
    .map(({ test }) => test);
}

const failed = [];
for (const [index, { file, name }] of tests.entries()) {
  // Jest matches test names case-insensitively: a name may select a sibling spelled alike.
  const report = runJest([file, `--testNamePattern=^${escape(name)}$`]);
  const ok = report && report.numPassedTests >= 1 && report.numFailedTests === 0;
  if (!ok) failed.push(`${path.relative(root, file)}: ${name}`);
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${index + 1}/${tests.length} ${path.relative(root, file)}: ${name}`);
}
console.log(`${tests.length - failed.length} of ${tests.length} tests pass alone`);
for (const line of failed) console.log(`  failed alone: ${line}`);
process.exit(failed.length ? 1 : 0);
