#!/usr/bin/env node
/*
 * The failed tests of a Jest run, compactly, from its JSON results (`jest --json --outputFile`):
 * scripts/test.sh prints this last, so that the end of a long CI log names every failure (the
 * log's middle is often cut) with the start and the end of its message.
 * Usage: node scripts/test-failures.js <results.json>
 */
const { readFileSync } = require('node:fs');

const HEAD_LINES = 12;
const TAIL_LINES = 24;

function excerpt(message) {
  // Colours and stack frames out: the end of a message is then its report's end (schemathesis
  // prints which operation failed which check there), not Jest's own frames.
  const lines = message
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => !/^\s+at /.test(line));
  if (lines.length <= HEAD_LINES + TAIL_LINES) return lines;
  return [
    ...lines.slice(0, HEAD_LINES),
    `      [... ${lines.length - HEAD_LINES - TAIL_LINES} lines ...]`,
    ...lines.slice(-TAIL_LINES),
  ];
}

const file = process.argv[2];
let results;
try {
  results = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.log(`[test] no Jest results to summarise (${file}: ${error.message})`);
  process.exit(0);
}
const root = process.cwd() + '/';
const failed = [];
for (const suite of results.testResults ?? []) {
  const path = suite.name.startsWith(root) ? suite.name.slice(root.length) : suite.name;
  const tests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
  if (tests.length === 0 && suite.status === 'failed') {
    // The file failed outside any test (a beforeAll, a compile error).
    failed.push({ path, title: '(the file itself)', messages: [suite.message ?? ''] });
  }
  for (const test of tests) {
    // A group of the full run (test/harness/suite-groups.js) names each of its files in the
    // outermost describe: the failure is named by that file, which `npx jest <file>` runs alone.
    const grouped = path.startsWith('test/groups/') && test.ancestorTitles?.length > 0;
    failed.push({
      path: grouped ? test.ancestorTitles[0] : path,
      title: grouped ? [...test.ancestorTitles.slice(1), test.title].join(' ') : test.fullName,
      messages: test.failureMessages ?? [],
    });
  }
}
if (failed.length === 0) process.exit(0);
console.log(`[test] ${failed.length} failed test(s):`);
for (const { path, title, messages } of failed) {
  console.log(`  ${path} › ${title}`);
  for (const line of excerpt(messages.join('\n'))) console.log(`      ${line}`);
}
