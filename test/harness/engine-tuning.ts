/**
 * How the test runs start the embedded engine (FerretDB on SQLite), beside its defaults.
 * Neither changes what the engine answers; both are about a test run's CPU and waits:
 * - `synchronous(normal)`: in WAL mode SQLite then syncs the log at checkpoints, not at every
 *   commit. A killed engine process loses nothing (only a crash of the machine could lose the
 *   last commits), and no test crashes the machine; the runs' Redis keeps no file either.
 * - GOGC=400: the engine's Go garbage collector runs a quarter as often (its heap may grow to
 *   five times the live data instead of twice); it was about a fifth of the engine's CPU in
 *   the contract run (`perf record` of FerretDB: gcBgMarkWorker and gcAssistAlloc).
 */
export const TEST_ENGINE_TUNING = { pragmas: ['synchronous(normal)'], env: { GOGC: '400' } };
