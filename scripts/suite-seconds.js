#!/usr/bin/env node
/*
 * Updates test/harness/suite-seconds.json (the expected seconds of each e2e file, by which the
 * full run cuts its suite groups and orders its files) from the JSON results of a full run:
 *   JEST_SUITE_GROUPS=1 npx jest --json --outputFile=/tmp/results.json
 *   node scripts/suite-seconds.js /tmp/results.json
 * A grouped file's seconds are its tests' own durations plus an even share of what its group
 * spent outside tests (hooks: the apis started and closed, the modules loaded); an ungrouped
 * file's are its own. Files of the table that the results do not name keep their seconds.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TABLE = path.join(ROOT, 'test/harness/suite-seconds.json');

const results = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const table = JSON.parse(fs.readFileSync(TABLE, 'utf8'));
for (const suite of results.testResults ?? []) {
  const file = path.relative(ROOT, suite.name).split(path.sep).join('/');
  const wall = (suite.endTime - suite.startTime) / 1000;
  if (!file.startsWith('test/groups/')) {
    if (file in table || file.startsWith('test/')) table[file] = Math.round(wall * 10) / 10;
    continue;
  }
  const own = new Map();
  for (const test of suite.assertionResults ?? []) {
    const member = test.ancestorTitles?.[0];
    if (member) own.set(member, (own.get(member) ?? 0) + (test.duration ?? 0) / 1000);
  }
  const outside = Math.max(0, wall - [...own.values()].reduce((sum, s) => sum + s, 0));
  for (const [member, seconds] of own) {
    table[member] = Math.round((seconds + outside / own.size) * 10) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(TABLE, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`[suite-seconds] ${Object.keys(sorted).length} files in ${path.relative(ROOT, TABLE)}`);
