// Jest's order of test files for `npm test`: the longest first, so that with several workers
// the run does not end with one long file alone (on a fresh clone Jest has no timings of
// earlier runs and would order by file size, starting the two contract runs last). The
// expected seconds are a group's (suite-groups.js) or a file's own in suite-seconds.json;
// files not listed follow in Jest's own order (earlier failures and timings, else size).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Sequencer = require('@jest/test-sequencer').default;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const path = require('node:path');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { groupSeconds, SECONDS } = require('./suite-groups');

const ROOT = path.resolve(__dirname, '../..');

/** Expected seconds of a test file, or -1 when unknown. */
function expectedSeconds(testPath) {
  const relative = path.relative(ROOT, testPath).split(path.sep).join('/');
  return groupSeconds(testPath) ?? SECONDS[relative] ?? -1;
}

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const sorted = Array.isArray(ordered) ? ordered : tests;
    const seconds = new Map(sorted.map((test) => [test.path, expectedSeconds(test.path)]));
    // Array.prototype.sort is stable: Jest's own order holds among the unlisted.
    return [...sorted].sort((a, b) => seconds.get(b.path) - seconds.get(a.path));
  }
}

module.exports = SlowFirstSequencer;
