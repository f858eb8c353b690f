/*
 * The e2e-cluster project's test files run against the Redis Cluster of its global setup:
 * the harness reads TEST_REDIS_URL and TEST_REDIS_CLUSTER_NODES (test-app.ts). Set here,
 * per test file (Jest gives each file its own copy of the environment), because the e2e
 * project's setup sets TEST_REDIS_URL in the same process for its own files.
 */
process.env.TEST_REDIS_URL = process.env.TEST_CLUSTER_REDIS_URL;
process.env.TEST_REDIS_CLUSTER_NODES = process.env.TEST_CLUSTER_NODES;
