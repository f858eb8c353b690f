// Six projects: fast unit tests beside the code, end-to-end suites in test/ that run against
// the real engine and a real Redis started once by the global setup, the contract run
// (schemathesis against the OpenAPI document; `bash scripts/setup-schemathesis.sh` first, as
// `npm test` does), the suites run again against the lifted apps (decisions, events worker),
// and the suites that exercise Redis again on a real Redis Cluster.
// `npx jest --selectProjects unit e2e` leaves the contract, the lifted and the cluster out.
const { availableParallelism } = require('node:os');
const { writeSuiteGroups } = require('./test/harness/suite-groups');

// The full run (`npm test` without arguments) sets JEST_SUITE_GROUPS=1: the e2e projects
// then run their files in groups, several to one Jest test file, loading the service once a
// group instead of once a file (test/harness/suite-groups.js).
const GROUPED = process.env.JEST_SUITE_GROUPS === '1';
/** A project's testMatch: its files, or in a full run the groups made of them. */
const suites = (project, testMatch) =>
  GROUPED ? [writeSuiteGroups(project, testMatch)] : testMatch;
const moduleNameMapper = {
  '^@app/(shared|auth|config|profiles|consents|preferences|bulk|events|decisions|preference-centre|reports)$':
    '<rootDir>/libs/$1/src',
  '^@app/(shared|auth|config|profiles|consents|preferences|bulk|events|decisions|preference-centre|reports)/(.*)$':
    '<rootDir>/libs/$1/src/$2',
};
// The work trees `npm run bench:compare` makes (.bench/<sha>) are other checkouts.
const modulePathIgnorePatterns = ['<rootDir>/.bench/'];
// What runs on the cluster too: writes and their order, the read model, idempotency keys,
// searches, the fair queue and quotas, rate limits, events, bulk import, reports, merge.
const CLUSTER_SUITES = [
  'profiles/profile-write-queue',
  'profiles/profile-read-model',
  'idempotency',
  'profiles/search-index',
  'profiles/search-index-rebuild',
  'jobs/tenant-fair-queue',
  'quotas',
  'rate-limits',
  'events/event-deliveries',
  'bulk/bulk-import-new-profiles',
  'reports/reports',
  'profiles/profile-merge',
];
// What runs again with the deliveries lifted (e2e-lifted-events): subscriptions and their
// handshakes, deliveries with their order, retries, dead letters, pauses and crashes.
const LIFTED_EVENTS_SUITES = [
  'event-subscriptions',
  'event-subscription-handshakes',
  'event-deliveries',
];
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
};

module.exports = {
  // Whole-suite option (ignored inside a project): e2e tests wait for real processes.
  testTimeout: 60000,
  // A failed e2e test can leave a job frozen at a crash point in a worker that then never
  // finishes closing: the run must still end (with the failure) instead of hanging CI.
  forceExit: true,
  // Files run side by side, each with its own database and queue prefix: one per core, and
  // two on a single core (an e2e file spends much of its time waiting for its worker, the
  // engine or schemathesis). Three on 2 cores under another load made 800 ms request
  // deadlines of the engine suites expire (docs/operations.md, "The test suite's time").
  maxWorkers: Math.max(2, availableParallelism()),
  testSequencer: '<rootDir>/test/harness/slow-first-sequencer.js',
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'],
      transform,
      moduleNameMapper,
      modulePathIgnorePatterns,
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: suites('e2e', ['<rootDir>/test/**/*.e2e-spec.ts']),
      transform,
      moduleNameMapper,
      modulePathIgnorePatterns,
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
    },
    {
      displayName: 'contract',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: ['<rootDir>/test/contract/*.contract-spec.ts'],
      transform,
      moduleNameMapper,
      modulePathIgnorePatterns,
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
    },
    {
      // The contact decisions' suites again, answered by the lifted decisions app
      // (apps/decisions; docs/scaling.md, "Lifted apps"): the libs serve it unchanged.
      displayName: 'e2e-lifted',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: suites('e2e-lifted', ['<rootDir>/test/decisions/*.e2e-spec.ts']),
      transform,
      moduleNameMapper,
      modulePathIgnorePatterns,
      setupFiles: ['<rootDir>/test/harness/lifted-env.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
    },
    {
      // The event deliveries' suites again, with the events queue served by the lifted
      // events worker (apps/events-worker; docs/scaling.md, "Lifted apps") and the workers
      // leaving it (EVENTS_DELIVERY=lifted): the libs serve it unchanged.
      displayName: 'e2e-lifted-events',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: suites(
        'e2e-lifted-events',
        LIFTED_EVENTS_SUITES.map((suite) => `<rootDir>/test/events/${suite}.e2e-spec.ts`),
      ),
      transform,
      moduleNameMapper,
      modulePathIgnorePatterns,
      setupFiles: ['<rootDir>/test/harness/lifted-events-env.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
    },
    {
      // The suites that exercise Redis's part, again against a real Redis Cluster (six
      // redis-server processes; docs/scaling.md, "Redis"): every connection is a cluster
      // client and every script's keys must share a slot.
      displayName: 'e2e-cluster',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: suites('e2e-cluster', [
        ...CLUSTER_SUITES.map((suite) => `<rootDir>/test/${suite}.e2e-spec.ts`),
        // What only a cluster shows (its connections, slots, where keys land).
        '<rootDir>/test/**/*.cluster-spec.ts',
      ]),
      transform,
      moduleNameMapper,
      modulePathIgnorePatterns,
      setupFiles: ['<rootDir>/test/harness/cluster-env.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup-cluster.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown-cluster.ts',
    },
  ],
};
