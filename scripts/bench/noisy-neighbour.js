'use strict';
// `npm run bench:noisy [-- --quick]`: does one tenant's flood of writes slow another tenant's
// writes down? One engine, one Redis, two api processes and one worker, all built, on
// loopback; two tenants configured as `npm run bench` configures its tenant (types, custom
// fields, a program, consent types), with profiles of the bench's shape seeded into the
// engine.
//
//   phase 1 (idle):  tenant Y alone merges at `--y-rate` writes/s (open loop, alternately
//                    through both apis) on its 20 profiles in turn, each write a new
//                    CustomerName.LastName, for `--idle-seconds`;
//   phase 2 (noisy): tenant X sends `--writes` merges as fast as `--connections` connections
//                    (split over the two apis) answer them, on `--profiles` profiles, each
//                    profile's writes in a known order (write k+1 of a profile is sent only
//                    after write k was answered 202, so the order of its 202s is the intended
//                    order; the profiles take turns), while Y goes on as in phase 1 until
//                    every X write is applied.
//
// Y's accept-to-Complete time is measured per write from its scheduled send (open loop: a
// late send counts) to the moment a GET of the profile (polled every 10 ms) shows
// `UpdateStatus: Complete` with the written value or a later one; it is split into the POST
// until its 202 (the apis) and the rest (the queue, the worker, the GET). X's acceptance rate
// is its writes over the time from its first send to its last 202; its drain is read from
// the read model in Redis (every X profile at `v >= acc`). Then the order check: every X
// profile's final value is its last write (GET), and its standard-field history
// (GET .../History/StandardFields) lists X's values of it in the order sent, none missing
// (`--history-sample=N` reads N profiles' histories, all by default).
//
// Rate limits are counted but set above reach (RATE_LIMIT_WRITES_PER_SECOND and
// RATE_LIMIT_READS_PER_SECOND 100000 in the apis' environment): a 429 would be the limit, not
// the queue. Answers 503 (the request deadline) and 429 are counted and sent again (a write
// answered with an error is never applied, so resending keeps the order).
//
//   --writes=20000 --profiles=2000 --idle-seconds=30 --y-rate=5 --y-profiles=20 --connections=16
//   --history-sample=N --cold (X's profiles not read before the flood: no read models)
//   --x-writes-per-second=N  X's own quota (`admin set-client --writes-per-second N`): its
//                    answers 429 past it are waited out (Retry-After) and sent again
//   --quick            4,000 writes on 400 profiles, 10 s idle
//   --root=<dir>       run that checkout's build (its dist/), e.g. a work tree of the commit
//                      before a change, for a before/after from this same script
//
// Nothing asserts the figures; on a shared machine read the ratios of one run.
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');

/** Wall-clock ms (comparable across this process's threads, sub-ms). */
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One HTTP request through `agent`: { status, text, retryAfter }. */
function send(agent, origin, method, pathname, auth, body) {
  const url = new URL(origin);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method,
        path: pathname,
        headers: {
          Authorization: auth,
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            text: Buffer.concat(chunks).toString('utf8'),
            retryAfter: Number(res.headers['retry-after']) || 0,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

// ---------------------------------------------------------------------------------------
// Tenant X's flood, in a thread of its own: its client work must not delay Y's clock.
// ---------------------------------------------------------------------------------------

/** The value write k (1-based) of X's profile `id` sets. */
const xValue = (id, k) => `X${id}n${k}`;

async function flood({ origins, clientId, token, ids, perProfile, connections }) {
  const agents = origins.map(
    () => new http.Agent({ keepAlive: true, maxSockets: Math.ceil(connections / origins.length) }),
  );
  const auth = `Bearer ${token}`;
  // Profiles ready for their next write, in turn (a profile goes to the end once answered).
  const ready = ids.map((id) => ({ id, k: 0 }));
  let head = 0;
  let finished = 0;
  const counts = { accepted: 0, s503: 0, s429: 0, other: 0 };
  const otherSamples = [];
  const latencies = [];
  const first = now();
  parentPort.postMessage({ type: 'first', t: first });
  const progress = setInterval(
    () => parentPort.postMessage({ type: 'progress', t: now(), accepted: counts.accepted }),
    1000,
  );
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      const agent = agents[c % origins.length];
      const origin = origins[c % origins.length];
      for (;;) {
        if (head >= ready.length) {
          if (finished === ids.length) return;
          await sleep(1);
          continue;
        }
        const item = ready[head++];
        const k = item.k + 1;
        const t0 = now();
        for (;;) {
          const res = await send(
            agent,
            origin,
            'POST',
            `/Profiles/v4/${clientId}/Profile/${item.id}`,
            auth,
            {
              CustomerName: { LastName: xValue(item.id, k) },
            },
          );
          if (res.status === 202) {
            counts.accepted++;
            break;
          }
          if (res.status === 503 || res.status === 429) {
            counts[res.status === 503 ? 's503' : 's429']++;
            await sleep(res.status === 429 ? Math.max(100, res.retryAfter * 1000) : 50);
            continue;
          }
          // Anything else is not resent: the order check shows what it cost.
          counts.other++;
          if (otherSamples.length < 5) otherSamples.push(`${res.status} ${res.text.slice(0, 200)}`);
          break;
        }
        latencies.push(now() - t0);
        item.k = k;
        if (k < perProfile) ready.push(item);
        else finished++;
      }
    }),
  );
  clearInterval(progress);
  const last = now();
  for (const agent of agents) agent.destroy();
  parentPort.postMessage({
    type: 'done',
    t: last,
    first,
    counts,
    otherSamples,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
  });
}

if (!isMainThread) {
  flood(workerData).catch((error) => {
    parentPort.postMessage({ type: 'error', message: String(error?.stack ?? error) });
  });
  return;
}

// ---------------------------------------------------------------------------------------
// The main thread: the stack, the tenants, Y's writes, X's drain, the checks, the report.
// ---------------------------------------------------------------------------------------

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const Redis = require('ioredis');
const { MongoClient } = require('mongodb');
const { ROOT } = require('../lib/engines');
const { cpuMs } = require('../lib/proc-cpu');
const { startServiceStack } = require('../lib/service-stack');
const seed = require('./seed');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);
const QUICK = Boolean(args.quick);
const WRITES = Number(args.writes || (QUICK ? 4000 : 20000));
const PROFILES = Number(args.profiles || (QUICK ? 400 : 2000));
const PER_PROFILE = Math.ceil(WRITES / PROFILES);
const IDLE_SECONDS = Number(args['idle-seconds'] || (QUICK ? 10 : 30));
const Y_RATE = Number(args['y-rate'] || 5);
const Y_PROFILES = Number(args['y-profiles'] || 20);
const CONNECTIONS = Number(args.connections || 16);
const COLD = Boolean(args.cold);
const HISTORY_SAMPLE = Number(args['history-sample'] || PROFILES);
const RUN_ROOT = path.resolve(String(args.root || ROOT));
const RATE_LIMIT = '100000';
/** X's own writes-per-second quota (`admin set-client`), or none: above reach. */
const X_QUOTA = args['x-writes-per-second'] ? Number(args['x-writes-per-second']) : undefined;
/** The seeded profiles' appliedSeq (seed.js): X's k-th write of a profile is seq 1 + k. */
const SEEDED_SEQ = 1;
const APPLY_TIMEOUT_MS = 30 * 60 * 1000;

const log = (message) =>
  process.stderr.write(`[bench:noisy ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

function commitOf(root) {
  try {
    const head = execFileSync('git', ['-C', root, 'log', '-1', '--format=%h %s'], {
      encoding: 'utf8',
    }).trim();
    return head.length > 90 ? `${head.slice(0, 87)}...` : head;
  } catch {
    return 'unknown commit';
  }
}

/** A client's own writes-per-second quota, through the built admin CLI. */
function setQuota(clientId, writesPerSecond, env) {
  const cli = spawnSync(
    process.execPath,
    [
      path.join(RUN_ROOT, 'dist/apps/api/apps/api/src/admin/cli.js'),
      'set-client',
      '--client-id',
      clientId,
      '--writes-per-second',
      String(writesPerSecond),
    ],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`set-client: ${cli.stderr}`);
}

/** `fn(item, origin)` for each item, 8 at a time over the apis. */
async function eachOf(list, origins, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async (_, c) => {
      while (next < list.length) await fn(list[next++], origins[c % origins.length]);
    }),
  );
}

/** Y's values: `Y<k>`, k growing over the whole run (a shown k at or above a write's is it or a later one). */
let yValues = 0;

/**
 * Tenant Y's writes at a fixed rate until `stop()`. Per write: the POST until its 202, then
 * its sequence number (the read model's `acc`, read before the profile takes another write)
 * until the read model shows it applied (`v`: one poller for all of Y's waiting writes, every
 * 5 ms, on a Redis connection of its own), then a GET until it shows `Complete` with the
 * value: one GET per write as a rule. Polling GETs every 10 ms per waiting write instead
 * multiplied the apis' load by the writes waiting (a thousand GETs/s once Y's writes queued),
 * and made Y its own noisy neighbour.
 */
function startY({ origins, tenant, ids, redisUrl, prefix }) {
  const agent = new http.Agent({ keepAlive: true });
  const redis = new Redis(redisUrl);
  const auth = `Bearer ${tenant.token}`;
  const base = `/Profiles/v4/${tenant.clientId}/Profile`;
  const busy = new Set(); // profiles whose last write is not answered yet
  const records = [];
  const pending = [];
  let stopped = false;
  let turn = 0;
  const counts = { s503: 0, s429: 0, other: 0, timeouts: 0, getsAgain: 0 };

  const waiters = new Set();
  let polling = null;
  const poll = async () => {
    while (waiters.size) {
      const list = [...waiters];
      const pipeline = redis.pipeline();
      for (const w of list) pipeline.hget(w.key, 'v');
      const results = await pipeline.exec();
      const t = now();
      list.forEach((w, i) => {
        if (Number(results[i][1] ?? 0) >= w.seq) {
          waiters.delete(w);
          w.resolve(t);
        } else if (t > w.deadline) {
          waiters.delete(w);
          w.resolve(null);
        }
      });
      await sleep(5);
    }
    polling = null;
  };
  const appliedAt = (key, seq) =>
    new Promise((resolve) => {
      waiters.add({ key, seq, resolve, deadline: now() + APPLY_TIMEOUT_MS });
      polling ??= poll();
    });

  const one = async (n, due) => {
    // A profile whose previous write is not shown yet is skipped: a GET shows Complete only
    // when every accepted write of the profile is applied, so a write sent behind another on
    // the same profile would wait for it. When all are busy the write waits (its time runs
    // from when it was due).
    let id;
    for (;;) {
      const free = ids.filter((candidate) => !busy.has(candidate));
      if (free.length) {
        id = free[turn++ % free.length];
        break;
      }
      await sleep(5);
    }
    busy.add(id);
    const origin = origins[n % origins.length];
    const value = ++yValues;
    const key = `${prefix}:pm:{${tenant.clientId}|${id}}`; // the read model's entry
    const record = { n, id, due, sent: now() };
    for (;;) {
      const res = await send(agent, origin, 'POST', `${base}/${id}`, auth, {
        CustomerName: { LastName: `Y${value}` },
      });
      if (res.status === 202) break;
      if (res.status === 503 || res.status === 429) {
        counts[res.status === 503 ? 's503' : 's429']++;
        await sleep(res.status === 429 ? Math.max(100, res.retryAfter * 1000) : 50);
        continue;
      }
      counts.other++;
      busy.delete(id);
      log(`Y write ${n}: ${res.status} ${res.text.slice(0, 200)}`);
      return null;
    }
    record.accepted = now();
    const seq = Number(await redis.hget(key, 'acc'));
    record.applied = await appliedAt(key, seq);
    if (record.applied === null) {
      counts.timeouts++;
      busy.delete(id);
      return null;
    }
    for (;;) {
      const res = await send(agent, origin, 'GET', `${base}/${id}`, auth);
      if (res.status === 200) {
        const body = JSON.parse(res.text);
        const shown = Number(String(body.CustomerName?.LastName ?? '').replace(/^Y/, ''));
        if (body.UpdateStatus === 'Complete' && shown >= value) break;
      }
      counts.getsAgain++;
      await sleep(10);
    }
    record.visible = now();
    busy.delete(id);
    records.push(record);
    return record;
  };

  const started = now();
  const loop = (async () => {
    for (let n = 0; !stopped; n++) {
      const due = started + (n * 1000) / Y_RATE;
      const wait = due - now();
      if (wait > 0) await sleep(wait);
      if (stopped) break;
      pending.push(one(n, due));
    }
  })();
  return {
    records,
    counts,
    /** Stops sending; resolves once every write sent is visible. */
    stop: async () => {
      stopped = true;
      await loop;
      await Promise.all(pending);
      agent.destroy();
      redis.disconnect();
    },
  };
}

/**
 * What waits to run: Bull's waiting turns or jobs (`jobs`, and `jobs-bulk` of the commits
 * before fair share) and X's items in the fair queue (none before it); and what runs (Bull's
 * active jobs of both).
 */
async function queueDepth(redis, prefix, tenant) {
  const results = await redis
    .pipeline()
    .llen(`${prefix}:{${prefix}:bull}:jobs:wait`)
    .llen(`${prefix}:{${prefix}:bull}:jobs-bulk:wait`)
    .llen(`${prefix}:{${prefix}:fair}:q:${tenant}|interactive`)
    .llen(`${prefix}:{${prefix}:fair}:q:${tenant}|bulk`)
    .llen(`${prefix}:{${prefix}:bull}:jobs:active`)
    .llen(`${prefix}:{${prefix}:bull}:jobs-bulk:active`)
    .exec();
  const [jobs, bulk, fairInteractive, fairBulk, active, activeBulk] = results.map(([, n]) =>
    Number(n),
  );
  return { jobs, bulk, fair: fairInteractive + fairBulk, active: active + activeBulk };
}

/** Y's figures for the writes scheduled in [from, to). */
function yFigures(records, from, to) {
  const rows = records.filter((r) => r.due >= from && r.due < to);
  const spans = (a, b) => rows.map((r) => r[b] - r[a]);
  const total = spans('due', 'visible');
  return {
    count: rows.length,
    p50: percentile(total, 50),
    p99: percentile(total, 99),
    max: Math.max(...total),
    post: spans('due', 'accepted'),
    queue: spans('accepted', 'applied'),
    get: spans('applied', 'visible'),
  };
}

async function main() {
  for (const entry of ['api/apps/api/src/main.js', 'worker/apps/worker/src/main.js']) {
    if (!fs.existsSync(path.join(RUN_ROOT, 'dist/apps', entry))) {
      throw new Error(
        `${RUN_ROOT} has no build (dist/apps/${entry}): run "node scripts/build-if-stale.js" there`,
      );
    }
  }
  const commit = commitOf(RUN_ROOT);
  const startLoad = loadavg();
  log(`running ${RUN_ROOT} (${commit}); load average ${startLoad}`);
  const rateEnv = {
    RATE_LIMIT_WRITES_PER_SECOND: RATE_LIMIT,
    RATE_LIMIT_READS_PER_SECOND: RATE_LIMIT,
  };
  const stack = await startServiceStack('noisy', rateEnv, { apis: 2, root: RUN_ROOT });
  const { engine, redisServer, env, origins, close } = stack;
  const procs = {
    api1: stack.apis[0].pid,
    api2: stack.apis[1].pid,
    worker: stack.worker.pid,
    engine: engine.child.pid,
    redis: redisServer.child.pid,
  };
  const cpuNow = () => ({
    ...Object.fromEntries(Object.entries(procs).map(([k, pid]) => [k, cpuMs(pid)])),
    bench: (() => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    })(),
    t: now(),
    load: loadavg(),
  });
  let failed = true;
  let mongo;
  let redis;
  let xAgent;
  try {
    mongo = await MongoClient.connect(engine.uri);
    const db = mongo.db('bench');
    redis = new Redis(redisServer.url);
    xAgent = new http.Agent({ keepAlive: true });
    const x = await seed.createTenant({
      origin: origins[0],
      env,
      clientId: 'tenantx',
      root: RUN_ROOT,
    });
    const y = await seed.createTenant({
      origin: origins[1],
      env,
      clientId: 'tenanty',
      root: RUN_ROOT,
    });
    if (X_QUOTA !== undefined) setQuota(x.clientId, X_QUOTA, env);
    const xFirst = x.templateId + 1;
    const yFirst = y.templateId + 1;
    log(`seeding ${PROFILES} profiles of X and ${Y_PROFILES} of Y`);
    await seed.seedProfiles({ db, tenant: x, from: xFirst, to: xFirst + PROFILES - 1 });
    await seed.seedProfiles({ db, tenant: y, from: yFirst, to: yFirst + Y_PROFILES - 1 });
    const xIds = Array.from({ length: PROFILES }, (_, k) => xFirst + k);
    const yIds = Array.from({ length: Y_PROFILES }, (_, k) => yFirst + k);

    // X's profiles read once (their read models built, as for profiles in use): the first
    // write on a profile without one costs the api and the engine about ten times a later one
    // (the profile read and its read model built before the write is recorded), so a cold
    // flood is accepted little faster than the worker applies it and builds no backlog.
    // `--cold` leaves them cold.
    if (!COLD) {
      log(`warm-up: X's ${PROFILES} profiles read once`);
      await eachOf(xIds, origins, async (id, origin) => {
        await send(
          xAgent,
          origin,
          'GET',
          `/Profiles/v4/${x.clientId}/Profile/${id}`,
          `Bearer ${x.token}`,
        );
      });
    }

    // Warm-up (not measured): one write on each of Y's profiles, applied; JIT and read models.
    log("warm-up: one write on each of Y's profiles");
    const yOptions = {
      origins,
      tenant: y,
      ids: yIds,
      redisUrl: redisServer.url,
      prefix: env.QUEUE_PREFIX,
    };
    const warm = startY(yOptions);
    await sleep((Y_PROFILES / Y_RATE) * 1000);
    await warm.stop();
    await sleep(1000);

    log(`phase 1 (idle): Y alone at ${Y_RATE} writes/s for ${IDLE_SECONDS} s`);
    const marks = { idle: cpuNow() };
    const yRun = startY(yOptions);
    await sleep(IDLE_SECONDS * 1000);

    log(
      `phase 2 (noisy): X sends ${PROFILES * PER_PROFILE} writes (${PROFILES} profiles x ${PER_PROFILE})`,
    );
    marks.flood = cpuNow();
    let floodDone = null;
    let floodError = null;
    let accepted = 0;
    const thread = new Worker(__filename, {
      workerData: {
        origins,
        clientId: x.clientId,
        token: x.token,
        ids: xIds,
        perProfile: PER_PROFILE,
        connections: CONNECTIONS,
      },
    });
    thread.on('message', (message) => {
      if (message.type === 'progress') accepted = message.accepted;
      if (message.type === 'done') {
        floodDone = message;
        accepted = message.counts.accepted;
      }
      if (message.type === 'error') floodError = message.message;
    });
    thread.on('error', (error) => (floodError = String(error?.stack ?? error)));

    // X's drain, from the read model: a profile's applied writes are v - SEEDED_SEQ. A
    // profile with all its writes applied is not read again.
    const total = PROFILES * PER_PROFILE;
    const timeline = [];
    const depths = [];
    let appliedAtAccepted = null;
    let applied = 0;
    let remaining = xIds;
    let appliedDone = 0; // writes of the profiles left out
    const deadline = now() + APPLY_TIMEOUT_MS;
    let lastLog = 0;
    for (;;) {
      if (floodError) throw new Error(`X's flood failed: ${floodError}`);
      const seqs = await seed.readSeqs(redis, x.clientId, remaining);
      depths.push(await queueDepth(redis, env.QUEUE_PREFIX, x.clientId));
      const partial = seqs.map((s) => Math.min(PER_PROFILE, Math.max(0, s.v - SEEDED_SEQ)));
      applied = appliedDone + partial.reduce((sum, k) => sum + k, 0);
      const t = now();
      timeline.push({ t, accepted, applied });
      if (floodDone && !marks.accepted) {
        marks.accepted = { ...cpuNow(), t: floodDone.t };
        appliedAtAccepted = applied;
        log(
          `X: last 202 after ${((floodDone.t - floodDone.first) / 1000).toFixed(1)} s; ${applied} of ${total} applied`,
        );
      }
      if (t - lastLog > 10000) {
        log(`X: ${accepted} accepted, ${applied} applied`);
        lastLog = t;
      }
      // Done once every write was answered and every profile shows its last accepted one
      // applied (acc is recorded before the 202).
      if (floodDone && seqs.every((s) => s.acc > 0 && s.v >= s.acc)) break;
      appliedDone += PER_PROFILE * partial.filter((k) => k === PER_PROFILE).length;
      remaining = remaining.filter((_, i) => partial[i] < PER_PROFILE);
      if (t > deadline)
        throw new Error(
          `X not applied in ${APPLY_TIMEOUT_MS / 60000} min (${applied} of ${total})`,
        );
      await sleep(250);
    }
    marks.applied = cpuNow();
    await thread.terminate();
    log("X applied; waiting for Y's last writes");
    await yRun.stop();
    marks.end = cpuNow();

    // The order check: final values, then histories.
    log(
      `checking X: final values of ${PROFILES} profiles, histories of ${Math.min(HISTORY_SAMPLE, PROFILES)}`,
    );
    const agent = xAgent;
    const auth = `Bearer ${x.token}`;
    const base = `/Profiles/v4/${x.clientId}/Profile`;
    const violations = { finalValue: 0, notComplete: 0, historyOrder: 0, historyMissing: 0 };
    const examples = [];
    const each = (list, fn) => eachOf(list, origins, fn);
    await each(xIds, async (id, origin) => {
      const res = await send(agent, origin, 'GET', `${base}/${id}`, auth);
      const body = JSON.parse(res.text);
      if (body.UpdateStatus !== 'Complete') violations.notComplete++;
      if (body.CustomerName?.LastName !== xValue(id, PER_PROFILE)) {
        violations.finalValue++;
        if (examples.length < 5)
          examples.push(`profile ${id}: final LastName ${body.CustomerName?.LastName}`);
      }
    });
    const step = PROFILES / Math.min(HISTORY_SAMPLE, PROFILES);
    const sample = Array.from(
      { length: Math.min(HISTORY_SAMPLE, PROFILES) },
      (_, k) => xIds[Math.floor(k * step)],
    );
    await each(sample, async (id, origin) => {
      const res = await send(agent, origin, 'GET', `${base}/${id}/History/StandardFields`, auth);
      if (res.status !== 200)
        throw new Error(`history of ${id}: ${res.status} ${res.text.slice(0, 200)}`);
      const prefix = `X${id}n`;
      const seen = JSON.parse(res.text)
        .map((entry) => entry.CustomerName?.LastName)
        .filter((name) => typeof name === 'string' && name.startsWith(prefix))
        .map((name) => Number(name.slice(prefix.length)));
      const inOrder = seen.every((k, i) => i === 0 || k > seen[i - 1]);
      const complete = seen.length === PER_PROFILE && new Set(seen).size === PER_PROFILE;
      if (!inOrder) violations.historyOrder++;
      if (!complete) violations.historyMissing++;
      if ((!inOrder || !complete) && examples.length < 10)
        examples.push(`profile ${id}: history ${seen.join(',')}`);
    });
    const seqsAfter = await seed.readSeqs(redis, x.clientId, xIds);
    const appliedFinal = seqsAfter.reduce((sum, s) => sum + Math.max(0, s.v - SEEDED_SEQ), 0);

    report({
      commit,
      startLoad,
      marks,
      floodDone,
      total,
      appliedAtAccepted,
      appliedFinal,
      timeline,
      y: yRun,
      depths,
      violations,
      examples,
      historyRead: sample.length,
    });
    failed = false;
  } finally {
    xAgent?.destroy();
    await redis?.quit();
    await mongo?.close();
    await close(!failed);
  }
}

function report({
  commit,
  startLoad,
  marks,
  floodDone,
  total,
  appliedAtAccepted,
  appliedFinal,
  timeline,
  y,
  depths,
  violations,
  examples,
  historyRead,
}) {
  const f = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  const s = (ms) => (ms / 1000).toFixed(1);
  console.log(
    `\nnpm run bench:noisy${QUICK ? ' --quick' : ''}: ${new Date().toISOString()}, ${os.cpus().length} cores (${os.cpus()[0].model}), node ${process.version}`,
  );
  console.log(`  build: ${RUN_ROOT} (${commit})${COLD ? "; X's profiles cold (--cold)" : ''}`);
  console.log(
    `  2 api processes, 1 worker (WORKER_CONCURRENCY ${process.env.WORKER_CONCURRENCY ?? 'default'}), RATE_LIMIT_WRITES_PER_SECOND and RATE_LIMIT_READS_PER_SECOND ${RATE_LIMIT} in their env${X_QUOTA === undefined ? '' : `; X's own quota ${X_QUOTA} writes/s`}`,
  );
  console.log(
    `  load average (1/5/15 min): start ${startLoad}; idle ${marks.idle.load}; flood ${marks.flood.load}; X accepted ${marks.accepted.load}; X applied ${marks.applied.load}`,
  );

  const idle = yFigures(y.records, marks.idle.t, marks.flood.t);
  const sending = yFigures(y.records, marks.flood.t, marks.accepted.t);
  const draining = yFigures(y.records, marks.accepted.t, marks.applied.t);
  const loaded = yFigures(y.records, marks.flood.t, marks.applied.t);
  console.log(
    `\nY: ${Y_RATE} writes/s on ${Y_PROFILES} profiles; accept-to-Complete ms, from the scheduled send to a GET showing Complete with the value;`,
  );
  console.log(
    `   its parts (p50/p99): POST until 202 (the apis), 202 until the read model shows it applied (the queue, the worker), then the GET`,
  );
  console.log(
    `  ${'phase'.padEnd(34)} ${'writes'.padStart(6)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)}   ${'POST'.padEnd(13)} ${'applied'.padEnd(13)} GET`,
  );
  const part = (values) => `${f(percentile(values, 50))}/${f(percentile(values, 99))}`;
  const row = (name, r) =>
    console.log(
      `  ${name.padEnd(34)} ${String(r.count).padStart(6)} ${f(r.p50).padStart(7)} ${f(r.p99).padStart(7)} ${f(r.max).padStart(7)}   ${part(r.post).padEnd(13)} ${part(r.queue).padEnd(13)} ${part(r.get)}`,
    );
  row(`idle (${s(marks.flood.t - marks.idle.t)} s)`, idle);
  row(`flood: while X sends (${s(marks.accepted.t - marks.flood.t)} s)`, sending);
  row(`flood: while X drains (${s(marks.applied.t - marks.accepted.t)} s)`, draining);
  row(`flood: all (${s(marks.applied.t - marks.flood.t)} s)`, loaded);
  const ratio = loaded.p99 / idle.p99;
  console.log(
    `  Y p99 loaded / idle: ${f(loaded.p99)} / ${f(idle.p99)} ms = x${ratio.toFixed(2)} (goal <= 2x: ${ratio <= 2 ? 'met' : 'NOT met'}); while X sends x${f(sending.p99 / idle.p99, 2)}, while X drains x${f(draining.p99 / idle.p99, 2)}`,
  );
  console.log(
    `  Y answers: 503 ${y.counts.s503}, 429 ${y.counts.s429} (sent again), other ${y.counts.other}, not applied in time ${y.counts.timeouts}; GETs sent again (applied, not shown yet) ${y.counts.getsAgain}`,
  );

  const sendSeconds = (floodDone.t - floodDone.first) / 1000;
  const applySeconds = (marks.applied.t - floodDone.first) / 1000;
  const drainSeconds = (marks.applied.t - floodDone.t) / 1000;
  console.log(
    `\nX: ${total} writes on ${PROFILES} profiles (${PER_PROFILE} each, in order), ${CONNECTIONS} connections over 2 apis`,
  );
  console.log(
    `  accepted in ${sendSeconds.toFixed(1)} s: ${f(floodDone.counts.accepted / sendSeconds)} writes/s (POST p50 ${f(floodDone.p50, 1)}, p99 ${f(floodDone.p99, 1)}, max ${f(floodDone.max)} ms)`,
  );
  console.log(
    `  applied while X sent: ${appliedAtAccepted} (${f(appliedAtAccepted / sendSeconds)}/s); the rest, ${total - appliedAtAccepted}, in ${drainSeconds.toFixed(1)} s after the last 202 (${f((total - appliedAtAccepted) / drainSeconds)}/s)`,
  );
  console.log(
    `  fully applied ${applySeconds.toFixed(1)} s after the first send: ${f(total / applySeconds)} writes/s from first send to last applied`,
  );
  const buckets = [];
  for (const point of timeline) {
    const second = Math.max(0, Math.floor((point.t - floodDone.first) / 10000) * 10);
    if (!buckets.length || buckets[buckets.length - 1].second !== second)
      buckets.push({ second, ...point });
  }
  console.log(
    `  accepted / applied every 10 s: ${buckets.map((b) => `${b.second}s ${b.accepted}/${b.applied}`).join(', ')}`,
  );
  const peak = (k) => Math.max(...depths.map((d) => d[k]));
  const mean = (k) => depths.reduce((sum, d) => sum + d[k], 0) / (depths.length || 1);
  console.log(
    `  jobs waiting while X was in (peak / mean of samples every 250 ms): Bull jobs ${peak('jobs')} / ${f(mean('jobs'))}, Bull jobs-bulk ${peak('bulk')} / ${f(mean('bulk'))}, X's items in the fair queue ${peak('fair')} / ${f(mean('fair'))}; running (Bull active) ${peak('active')} / ${f(mean('active'))}`,
  );
  console.log(
    `  X answers: 202 ${floodDone.counts.accepted}, 503 ${floodDone.counts.s503}, 429 ${floodDone.counts.s429} (sent again), other ${floodDone.counts.other}${floodDone.otherSamples.length ? ` (${floodDone.otherSamples.join('; ')})` : ''}`,
  );
  console.log(
    `  order check: final value not the last write ${violations.finalValue}, not Complete ${violations.notComplete} (of ${PROFILES}); histories read ${historyRead}: out of order ${violations.historyOrder}, a write missing or twice ${violations.historyMissing}; applied seqs ${appliedFinal} of ${total}`,
  );
  for (const example of examples) console.log(`    ${example}`);

  console.log('\nCPU, % of one core, per phase:');
  const names = ['api1', 'api2', 'worker', 'engine', 'redis', 'bench'];
  console.log(`  ${'phase'.padEnd(22)} ${names.map((n) => n.padStart(7)).join('')}`);
  const cpuRow = (name, a, b) =>
    console.log(
      `  ${name.padEnd(22)} ${names.map((n) => f(((b[n] - a[n]) / (b.t - a.t)) * 100).padStart(7)).join('')}`,
    );
  cpuRow('idle', marks.idle, marks.flood);
  cpuRow('flood: X sends', marks.flood, marks.accepted);
  cpuRow('flood: X drains', marks.accepted, marks.applied);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
