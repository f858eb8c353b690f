// Jest's order of test files for `npm test`: the longest suites first, so that with several
// workers the run does not end with one long file alone (on a fresh clone Jest has no timings
// of earlier runs and would order by file size). Then Jest's own order (earlier failures and
// timings when it has them, else size).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Sequencer = require('@jest/test-sequencer').default;

// The suites that took longest in a full run on 2 cores (2026-12-02), longest first; a
// renamed or removed file here only loses its place.
const LONGEST_FIRST = [
  'test/contract/customauth3.contract-spec.ts',
  'test/contract/bearer.contract-spec.ts',
  'test/reports/reports-correctness.e2e-spec.ts',
  'test/engine/crash-points.e2e-spec.ts',
  'test/profiles/profile-write-queue.e2e-spec.ts',
  'test/profiles/profile-redis-outage.e2e-spec.ts',
  'test/profiles/profile-merge-crash.e2e-spec.ts',
  'test/profiles/tenant-fairness.e2e-spec.ts',
  'test/data-subject/data-subject.e2e-spec.ts',
  'test/quotas.e2e-spec.ts',
  'libs/profiles/src/wire/compiled-validation.spec.ts',
  'test/bulk/bulk-export-runs.e2e-spec.ts',
  'test/settings.e2e-spec.ts',
  'test/events/event-subscription-handshakes.e2e-spec.ts',
  'test/preference-centre/preference-centre-browser.e2e-spec.ts',
  'test/engine/write-commit.e2e-spec.ts',
  'test/engine/stalled-engine.e2e-spec.ts',
];

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = LONGEST_FIRST.findIndex((path) => test.path.endsWith(path));
      return index < 0 ? LONGEST_FIRST.length : index;
    };
    const ordered = super.sort(tests);
    const sorted = Array.isArray(ordered) ? ordered : tests;
    // Array.prototype.sort is stable: Jest's own order holds among the unlisted.
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowFirstSequencer;
