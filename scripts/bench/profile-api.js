'use strict';
// `node scripts/bench/profile-api.js --scenario=token|get|get-signed|decision|email|accept|worker [--seconds=10]`:
// runs one bench scenario against the built api started with `--cpu-prof`, then prints the
// api's CPU profile summed by function (self time) and by package/file (`worker`: a backlog
// of merges is accepted with the worker stopped, then a worker started with `--cpu-prof`
// drains it for --seconds). `--callers=fnA,fnB --depth=N` shows who calls the heaviest
// frames; --keep=<file> keeps the raw .cpuprofile;
// --monitor prints the Redis commands of one request; --root=<dir> profiles that checkout's
// build (a work tree of an older commit, e.g. .bench/<sha> of `npm run bench:compare`);
// --categories prints the busy time by layer (promise hooks, GC, Nest, Fastify, ioredis,
// the service's own code by lib). For finding where a hot path's CPU goes; prints figures,
// asserts nothing.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomUUID, createHmac } = require('node:crypto');
const autocannon = require('autocannon');
const { MongoClient } = require('mongodb');
const Redis = require('ioredis');
const { ROOT, freePort, startFerretdb, startRedis, stop, waitForPort } = require('../lib/engines');
const seed = require('./seed');
const { apiFlagsOf } = require('../lib/node-process');

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? true];
  }),
);
const SCENARIO = String(args.scenario || 'get');
const SECONDS = Number(args.seconds || 10);
const TOP = Number(args.top || 40);
/** The checkout whose build is profiled. */
const RUN_ROOT = path.resolve(String(args.root || ROOT));

function startApi(env, profDir) {
  const entry = path.join(RUN_ROOT, 'dist/apps/api/apps/api/src/main.js');
  return spawn(
    process.execPath,
    [
      // The flags that build's api runs with in production (scripts/lib/api-node-flags.js).
      ...apiFlagsOf(entry),
      '--cpu-prof',
      `--cpu-prof-dir=${profDir}`,
      path.join(RUN_ROOT, 'dist/apps/api/apps/api/src/main.js'),
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

/** Self time per function and per package, of the samples in [from, to] µs before the end. */
function summarize(file, fromEndUs, toEndUs) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = prof.timeDeltas;
  let at = prof.startTime;
  for (let i = 0; i < prof.samples.length; i++) {
    at += dt[i] || 0;
    const beforeEnd = prof.endTime - at;
    if (beforeEnd > fromEndUs || beforeEnd < toEndUs) continue;
    self.set(prof.samples[i], (self.get(prof.samples[i]) || 0) + (dt[i] || 0));
  }
  const byFn = new Map();
  const byFile = new Map();
  let total = 0;
  for (const [id, us] of self) {
    const n = byId.get(id);
    const cf = n.callFrame;
    if (cf.functionName === '(idle)' || cf.functionName === '(program)') continue;
    total += us;
    const file = cf.url.replace(/^file:\/\//, '').replace(RUN_ROOT + '/', '');
    const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? (file || cf.functionName);
    const key = `${cf.functionName || '(anon)'} ${file}:${cf.lineNumber}`;
    byFn.set(key, (byFn.get(key) || 0) + us);
    byFile.set(pkg, (byFile.get(pkg) || 0) + us);
  }
  const print = (title, map) => {
    console.log(`\n${title} (ms of ${(total / 1000).toFixed(0)} busy)`);
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP)
      .forEach(([k, us]) =>
        console.log(
          `${(us / 1000).toFixed(0).padStart(7)} ${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`,
        ),
      );
  };
  if (args.categories) print('by layer', byLayer(self, byId));
  print('by package or file', byFile);
  print('by function (self)', byFn);
  // Who calls the heaviest native frames (the stack of each sample, four frames up).
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = (id) => {
    const cf = byId.get(id).callFrame;
    return `${cf.functionName || '(anon)'} ${cf.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${cf.lineNumber}`;
  };
  for (const heavy of String(args.callers || '')
    .split(',')
    .filter(Boolean)) {
    const stacks = new Map();
    for (const [id, us] of self) {
      if (byId.get(id).callFrame.functionName !== heavy) continue;
      const chain = [];
      for (
        let p = parent.get(id);
        p !== undefined && chain.length < Number(args.depth || 6);
        p = parent.get(p)
      )
        chain.push(name(p));
      const key = chain.join(' <- ');
      stacks.set(key, (stacks.get(key) || 0) + us);
    }
    print(`callers of ${heavy}`, stacks);
  }
}

/**
 * Busy time by layer: what a request pays to Node's promise hooks (an AsyncLocalStorage in
 * use), the garbage collector, microtasks, Nest, passport, Fastify, ioredis, Node's HTTP and
 * sockets, and each lib of the service.
 */
function byLayer(self, byId) {
  const layers = new Map();
  for (const [id, us] of self) {
    const { functionName: fn, url } = byId.get(id).callFrame;
    if (fn === '(idle)' || fn === '(program)') continue;
    let layer;
    if (/async_hooks/.test(url)) layer = 'promise hooks (node:async_hooks)';
    else if (fn === '(garbage collector)') layer = 'garbage collector';
    else if (fn === 'runMicrotasks') layer = 'microtasks';
    else if (/node_modules\/@nestjs\/core/.test(url)) layer = '@nestjs/core';
    else if (/passport/.test(url)) layer = 'passport';
    else if (/node_modules\/@nestjs\//.test(url)) layer = 'other @nestjs';
    else if (/node_modules\/(fastify|find-my-way|@fastify)/.test(url)) layer = 'fastify';
    else if (/node_modules\/(ioredis|redis-parser|denque)/.test(url)) layer = 'ioredis';
    else if (/\/dist\//.test(url)) {
      layer = `service: ${url
        .replace(/^.*\/dist\/apps\/api\//, '')
        .split('/')
        .slice(0, 2)
        .join('/')}`;
    } else if (/node:internal\/crypto/.test(url)) layer = 'node crypto';
    else if (!url || /^node:/.test(url)) layer = 'node (http, net, streams, timers)';
    else layer = `other: ${url.replace(/^.*node_modules\//, '').split('/')[0]}`;
    layers.set(layer, (layers.get(layer) || 0) + us);
  }
  return layers;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcp-prof-'));
  const profDir = path.join(dir, 'prof');
  let worker;
  const engine = await startFerretdb({ dataDir: path.join(dir, 'engine') });
  const redisServer = await startRedis({ dir: path.join(dir, 'redis'), persist: false });
  const apiPort = await freePort();
  const env = {
    PORT: String(apiPort),
    MONGODB_URI: `${engine.uri}bench`,
    REDIS_URL: redisServer.url,
    JWT_SECRET: randomUUID(),
    QUEUE_PREFIX: 'bench',
    LOG_LEVEL: 'error',
    // As in the bench: the limits are counted but never reached (no 429 in the figures).
    RATE_LIMIT_READS_PER_SECOND: '1000000',
    RATE_LIMIT_WRITES_PER_SECOND: '1000000',
  };
  const children = [engine.child, redisServer.child];
  try {
    const api = startApi(env, profDir);
    children.push(api);
    await waitForPort(apiPort, api, 'api', 60000);
    worker = spawn(
      process.execPath,
      [path.join(RUN_ROOT, 'dist/apps/worker/apps/worker/src/main.js')],
      {
        env: { ...process.env, ...env },
        stdio: 'ignore',
      },
    );
    children.push(worker);
    const origin = `http://127.0.0.1:${apiPort}`;
    const tenant = await seed.createTenant({ origin, env, root: RUN_ROOT });
    const mongo = await MongoClient.connect(engine.uri);
    await seed.seedProfiles({ db: mongo.db('bench'), tenant, from: 2, to: 300 });
    const redis = new Redis(redisServer.url);
    await redis.del('bench:kx:built');
    const bearer = `Bearer ${tenant.token}`;
    const ids = Array.from({ length: 299 }, (_, i) => i + 2);
    for (const id of ids) {
      await fetch(`${origin}/Profiles/v4/${tenant.clientId}/Profile/${id}`, {
        headers: { Authorization: bearer },
      });
    }
    // A search needs the key index the worker rebuilds from the seeded profiles.
    while (SCENARIO === 'email' && !(await redis.exists('bench:kx:built'))) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const pick = () => ids[Math.floor(Math.random() * ids.length)];
    const profilePath = () => `/Profiles/v4/${tenant.clientId}/Profile/${pick()}`;
    const ts = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const signed = `CUSTOMAUTH3-HMAC-SHA256 Credential=${tenant.userId}/${ts} Signature=${createHmac('sha256', tenant.apiHashKey).update(`${tenant.clientId}:${tenant.userId}:${ts}`).digest('base64')}`;
    const all = {
      get: {
        headers: { authorization: bearer },
        requests: [{ setupRequest: (r) => ({ ...r, path: profilePath() }) }],
      },
      'get-signed': {
        headers: { authorization: signed },
        requests: [{ setupRequest: (r) => ({ ...r, path: profilePath() }) }],
      },
      decision: {
        headers: { authorization: bearer },
        requests: [
          {
            setupRequest: (r) => ({
              ...r,
              path: `/Profiles/v4/${tenant.clientId}/ContactDecision?profileId=${pick()}&channelId=Email&programId=${tenant.programId}&consentType=Email`,
            }),
          },
        ],
      },
      email: {
        headers: { authorization: bearer },
        requests: [
          {
            setupRequest: (r) => ({
              ...r,
              path: `/Profiles/v4/${tenant.clientId}/Profile/Email?emailAddress=${seed.email(pick())}`,
            }),
          },
        ],
      },
      accept: {
        method: 'POST',
        headers: { authorization: bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ CustomFields: [{ Name: 'Tier', Value: 'gold' }] }),
        requests: [{ setupRequest: (r) => ({ ...r, path: profilePath() }) }],
      },
      token: {
        url: `${origin}/oauth2/v1/token`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: seed.tokenForm(tenant),
      },
    };
    const options = all[SCENARIO];
    if (SCENARIO === 'accept' || SCENARIO === 'worker') await stop(worker);
    if (SCENARIO === 'worker') {
      const backlog = await autocannon({
        url: origin,
        connections: 16,
        duration: 5,
        ...all.accept,
      });
      const drainer = spawn(
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${profDir}-worker`,
          path.join(RUN_ROOT, 'dist/apps/worker/apps/worker/src/main.js'),
        ],
        { env: { ...process.env, ...env }, stdio: 'ignore' },
      );
      const started = Date.now();
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      const left = await redis.llen('bench:{bench:bull}:jobs:wait');
      drainer.kill('SIGINT');
      await new Promise((r) => drainer.once('exit', r));
      const ran = Date.now() - started;
      console.log(
        `worker: ${backlog.requests.total} writes accepted, drained for ${ran} ms, ${left} jobs left waiting`,
      );
      const file = fs.readdirSync(`${profDir}-worker`).find((f) => f.endsWith('.cpuprofile'));
      summarize(path.join(`${profDir}-worker`, file), ran * 1000, 0);
      await mongo.close();
      redis.disconnect();
      return;
    }
    if (args.monitor) await monitorOne(redis, origin, options);
    const statsBefore = await commandStats(redis);
    const loadStart = Date.now();
    const result = await autocannon({
      url: origin,
      connections: 16,
      duration: SECONDS,
      ...options,
    });
    console.log(
      `${SCENARIO}: ${result.requests.average} req/s, p50 ${result.latency.p50} ms, non-2xx ${result.non2xx}`,
    );
    const loadEnd = Date.now();
    // The Redis commands one request costs (each a write to the socket, and Redis's CPU).
    const statsAfter = await commandStats(redis);
    const perRequest = Object.entries(statsAfter)
      .map(([name, calls]) => [name, (calls - (statsBefore[name] ?? 0)) / result.requests.total])
      .filter(([, calls]) => calls >= 0.01)
      .sort((x, y) => y[1] - x[1]);
    console.log(
      `Redis commands per request: ${perRequest.map(([n, c]) => `${n} ${c.toFixed(2)}`).join(', ')}`,
    );
    await mongo.close();
    redis.disconnect();
    api.kill('SIGINT');
    await new Promise((r) => api.once('exit', r));
    const exited = Date.now();
    children.splice(children.indexOf(api), 1);
    const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    // --keep=<file>: the raw profile, for Chrome DevTools or speedscope.
    if (args.keep) fs.copyFileSync(path.join(profDir, file), String(args.keep));
    summarize(path.join(profDir, file), (exited - loadStart) * 1000, (exited - loadEnd) * 1000);
  } finally {
    for (const child of children.reverse()) await stop(child).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(`${profDir}-worker`, { recursive: true, force: true });
  }
}

/** --monitor: the Redis commands of one request of the scenario, in order (MONITOR). */
async function monitorOne(redis, origin, options) {
  const first = options.requests?.[0]?.setupRequest?.({}) ?? {};
  const send = () =>
    fetch(new URL(first.path ?? '', options.url ?? origin), {
      method: options.method ?? 'GET',
      headers: options.headers,
      body: options.body,
    });
  await send(); // warm: the commands of a steady state
  const monitor = await redis.monitor();
  const seen = [];
  monitor.on('monitor', (time, command) =>
    seen.push(command.map((a) => String(a).slice(0, 60)).join(' ')),
  );
  await send();
  await new Promise((r) => setTimeout(r, 200));
  monitor.disconnect();
  console.log(`Redis commands of one request:\n  ${seen.join('\n  ')}`);
}

/** Calls per Redis command so far (INFO commandstats). */
async function commandStats(redis) {
  const info = await redis.info('commandstats');
  return Object.fromEntries(
    [...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((m) => [m[1], Number(m[2])]),
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
