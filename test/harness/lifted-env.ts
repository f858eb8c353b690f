/*
 * The e2e-lifted project's test files (jest.config.js): the harness answers the contact
 * decisions with the lifted decisions app (apps/decisions) instead of the api
 * (test-app.ts, routeDecisions), so the decisions' suites prove the lifted app too.
 */
process.env.TEST_LIFTED_DECISIONS = '1';
