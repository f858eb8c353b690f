// Two projects: fast unit tests beside the code, and end-to-end suites in test/ that
// run against the real engine and a real Redis started once by the global setup.
const moduleNameMapper = {
  '^@app/(shared|auth|config|profiles|consents|preferences|bulk|events|decisions|preference-centre|reports)$': '<rootDir>/libs/$1/src',
  '^@app/(shared|auth|config|profiles|consents|preferences|bulk|events|decisions|preference-centre|reports)/(.*)$': '<rootDir>/libs/$1/src/$2',
};
// What runs on the cluster too: writes and their order, the read model, idempotency keys,
// searches, the fair queue and quotas, rate limits, events, bulk import, reports, merge.
const CLUSTER_SUITES = [
  'profiles/profile-write-queue',
  'profiles/profile-read-model',
  'idempotency',
  'profiles/search-index',
  'jobs/tenant-fair-queue',
  'quotas',
  'rate-limits',
  'events/event-deliveries',
  'bulk/bulk-import-new-profiles',
  'reports/reports',
  'profiles/profile-merge',
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
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'],
      transform,
      moduleNameMapper,
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testEnvironment: 'node',
      moduleFileExtensions: ['js', 'json', 'ts'],
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      moduleNameMapper,
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
      testMatch: [
        ...CLUSTER_SUITES.map((suite) => `<rootDir>/test/${suite}.e2e-spec.ts`),
        // What only a cluster shows (its connections, slots, where keys land).
        '<rootDir>/test/**/*.cluster-spec.ts',
      ],
      transform,
      moduleNameMapper,
      setupFiles: ['<rootDir>/test/harness/cluster-env.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup-cluster.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown-cluster.ts',
    },
  ],
};
