'use strict';
// `npm run bench:floor [-- --rounds=6 --seconds=4]`: what the fixed stack alone costs the two
// GETs, against the bare baselines of `npm run bench`. Runs Redis, baseline-server.js (bare
// Fastify) and nest-floor-server.js (the same work through NestJS, Fastify and an AuthGuard of
// @nestjs/passport over passport-custom, run with the api's Node flags), then GET bearer and
// GET CUSTOMAUTH3 on both, alternated per round (the first round warms both and is not
// counted). Prints per scheme the CPU per request of each process, req/s, and the floor's
// ratios to the bare baseline per round and their median: the service's ratios in `npm run
// bench` can be no better than these. Prints figures; asserts nothing.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createHmac } = require('node:crypto');
const autocannon = require('autocannon');
const jwt = require('jsonwebtoken');
const Redis = require('ioredis');
const { startRedis } = require('../lib/engines');
const { startNode } = require('../lib/node-process');
const { API_NODE_FLAGS } = require('../lib/api-node-flags');
const { cpuMs } = require('../lib/proc-cpu');
const { freePort } = require('../lib/engines');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);
const ROUNDS = Math.max(2, Number(args.rounds ?? 6));
const SECONDS = Number(args.seconds ?? 4);
const CONNECTIONS = 16;
const JWT_SECRET = 'floor-bench-secret-of-at-least-32-characters';
const HMAC_KEY = 'floor-bench-api-hash-key';

/** A profile as GET answers it: the size of what both sides send matters, not its content. */
const PROFILE = JSON.stringify({
  ProfileId: 1042,
  CustomerType: 'Person',
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Emails: [{ EmailAddress: 'ada@example.com', EmailType: 'Personal', IsPreferred: true }],
  Phones: [{ PhoneNumber: '+15555550123', PhoneType: 'Mobile' }],
  Consents: [{ ConsentTypeId: 1, Status: 1, Version: '2024-01', Language: 'en' }],
  Preferences: [{ ProgramId: 3, ChannelId: 1, FrequencyId: 2, OptIn: true }],
  CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
  Tags: ['vip', 'newsletter'],
  UpdateStatus: 'Complete',
});

/** Runs one load; the CPU per request (ms) of `pid` and the mean req/s. */
async function measure(url, headers, pid) {
  const before = cpuMs(pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS });
  const total = result.requests.total || 1;
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad) throw new Error(`${url}: ${bad} of ${total} requests failed`);
  return { cpu: (cpuMs(pid) - before) / total, rps: result.requests.average };
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'floor-bench-'));
  const children = [];
  try {
    const redisStarted = await startRedis({ dir, persist: false });
    children.push(redisStarted.child);
    const redis = new Redis(redisStarted.url);
    await redis.set('baseline:profile', PROFILE);
    await redis.set('baseline:hmac-key', HMAC_KEY);
    redis.disconnect();
    const env = { REDIS_URL: redisStarted.url, JWT_SECRET };
    const barePort = await freePort();
    const floorPort = await freePort();
    const bare = await startNode(
      'scripts/bench/baseline-server.js',
      { ...env, PORT: String(barePort) },
      'baseline ready',
    );
    children.push(bare);
    const floor = await startNode(
      'scripts/bench/nest-floor-server.js',
      { ...env, PORT: String(floorPort), NODE_OPTIONS: API_NODE_FLAGS.join(' ') },
      'floor ready',
    );
    children.push(floor);

    const token = jwt.sign({ sub: 'floor', cid: 'floor' }, JWT_SECRET, {
      algorithm: 'HS256',
      expiresIn: 3600,
    });
    const issued = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const signature = createHmac('sha256', HMAC_KEY)
      .update(`floor:user:${issued}`)
      .digest('base64');
    const schemes = [
      {
        name: 'bearer GET',
        path: '/get/baseline:profile',
        headers: { authorization: `Bearer ${token}` },
      },
      {
        name: 'CUSTOMAUTH3 GET',
        path: '/get-signed/floor/baseline:profile',
        headers: {
          authorization: `CUSTOMAUTH3-HMAC-SHA256 Credential=user/${issued} Signature=${signature}`,
        },
      },
    ];
    const sides = [
      { name: 'bare', port: barePort, pid: bare.pid },
      { name: 'floor', port: floorPort, pid: floor.pid },
    ];
    const rounds = Object.fromEntries(schemes.map((s) => [s.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const scheme of schemes) {
        const order = round % 2 ? [...sides].reverse() : sides;
        const got = {};
        for (const side of order) {
          const url = `http://127.0.0.1:${side.port}${scheme.path}`;
          got[side.name] = await measure(url, scheme.headers, side.pid);
        }
        if (round > 0) rounds[scheme.name].push(got); // round 0 warms both (JIT)
      }
    }

    console.log(
      `framework floor: ${ROUNDS - 1} rounds of ${SECONDS} s per side, ${CONNECTIONS} connections, load ${os.loadavg()[0].toFixed(1)}`,
    );
    for (const scheme of schemes) {
      const list = rounds[scheme.name];
      const cpuRatios = list.map((r) => r.floor.cpu / r.bare.cpu);
      const rpsRatios = list.map((r) => r.floor.rps / r.bare.rps);
      console.log(
        `${scheme.name.padEnd(16)} bare ${median(list.map((r) => r.bare.rps)).toFixed(0)} req/s, ${median(list.map((r) => r.bare.cpu)).toFixed(4)} ms CPU/req; ` +
          `Nest floor ${median(list.map((r) => r.floor.rps)).toFixed(0)} req/s, ${median(list.map((r) => r.floor.cpu)).toFixed(4)} ms CPU/req`,
      );
      console.log(
        `${''.padEnd(16)} floor/bare: req/s ${median(rpsRatios).toFixed(2)}, CPU per request x${median(cpuRatios).toFixed(2)} ` +
          `(rounds: ${list.map((_, i) => `${rpsRatios[i].toFixed(2)} x${cpuRatios[i].toFixed(2)}`).join(', ')})`,
      );
    }
  } finally {
    for (const child of children.reverse()) child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
