'use strict';
// The Node (V8) flags the api process runs with, wherever it is started: `npm start`
// (scripts/launch.js), `npm run start:api` (package.json), the container (deploy/Dockerfile)
// and the benches (scripts/lib/node-process.js), so a bench measures what production runs.
// apps/api/src/api-node-flags.spec.ts checks that package.json and the Dockerfile carry them.
//
// --max-semi-space-size=128 (MiB; Node 20's default is 16): a GET allocates some 50 KB
// (Fastify, Nest's guards and pipes, passport, promises), 250 MB/s at 5,000 req/s. With the
// default young generation the requests in flight at each scavenge were promoted, the old
// generation grew by some 90 MB every few seconds and its collections came back: 16 %
// fewer api CPU per GET with 64 MiB, alternated in one run (docs/benchmarks.md). At 64 MiB
// every scavenge still copied and promoted some 6 MB (`--trace-gc-nvp`: 12 % of what was
// allocated since the last one), 12-30 ms a pause: 128 MiB halves how often, and took 9-15 %
// off the api CPU per GET and decision against 64, alternated in one run (256: no better).
// It costs at most 3 x 128 MiB of young generation per api process.
const API_NODE_FLAGS = ['--max-semi-space-size=128'];

module.exports = { API_NODE_FLAGS };
