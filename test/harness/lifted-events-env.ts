/*
 * The e2e-lifted-events project's test files (jest.config.js): the events queue is served by
 * the lifted events worker (apps/events-worker) alone, the workers running with
 * EVENTS_DELIVERY=lifted (test-app.ts refuses a worker that serves that queue), so the
 * events' suites prove the lifted app: no delivery or handshake is made by a worker.
 */
process.env.TEST_LIFTED_EVENTS = '1';
