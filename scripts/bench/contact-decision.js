'use strict';
// `npm run bench:decisions`: the contact decision (docs/decisions.md) against its bare
// baseline, GET profile, in one run on the embedded default (FerretDB on SQLite,
// redis-server): the built api and worker on a fresh engine, a tenant configured through the
// API, PROFILES profiles seeded in the stored shape (each an email with an opt-in on the
// newsletter's email filter and a granted "Email" consent), one do-not-contact list holding a
// few other values. Then, with the same connections and duration:
//
// 1. GET /Profile/{id} over the profiles (the baseline: the read model, no engine command);
// 2. GET /ContactDecision?profileId={id}&channelId=Email&programId=..&consentType=Email over
//    the same profiles (configuration stamp, read model, do-not-contact stamp);
// 3. GET /ContactDecision?emailAddress=.. (a bare value: the search key index, then the
//    read model), when the key index is built;
// 4. POST /ContactDecisions with 1,000 questions about 1,000 distinct profiles, one batch at
//    a time: p50 and p99 of BATCHES requests.
//
// Prints req/s, p50, p99 of each and the ratio of the decision's req/s to GET's (goal >= 60 %)
// and the batch's p50 (goal < 50 ms). Only ratios mean much on a shared machine; nothing
// asserts the figures.
//
//   --profiles=2000 --seconds=10 --connections=16 --batches=100
const autocannon = require('autocannon');
const Redis = require('ioredis');
const { MongoClient } = require('mongodb');
const { startServiceStack } = require('../lib/service-stack');
const seed = require('./seed');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);
const PROFILES = Math.max(1001, Number(args.profiles || 2000));
const SECONDS = Number(args.seconds || 10);
const CONNECTIONS = Number(args.connections || 16);
const BATCHES = Number(args.batches || 100);
const BATCH_SIZE = 1000;

const log = (message) => process.stderr.write(`[bench:decisions] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function call(origin, method, pathname, auth, body) {
  const res = await fetch(`${origin}${pathname}`, {
    method,
    headers: { Authorization: auth, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function load(name, url, auth, pathOf) {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    pipelining: 1,
    headers: { Authorization: auth },
    requests: [{ setupRequest: (req) => ({ ...req, path: pathOf(i++) }) }],
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad) log(`${name}: ${bad} of ${result.requests.total} requests failed`);
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad,
  };
}

async function main() {
  const stack = await startServiceStack('decisions');
  const { origin, env, engine, redisServer, close } = stack;
  let ok = false;
  const mongo = await MongoClient.connect(engine.uri);
  const redis = new Redis(redisServer.url);
  try {
    const tenant = await seed.createTenant({ origin, env });
    const auth = `Bearer ${tenant.token}`;
    const base = `/Profiles/v4/${tenant.clientId}`;
    // The template (every seeded profile is its copy) gets an opt-in.
    const template = await call(origin, 'GET', `${base}/Profile/${tenant.templateId}`, auth);
    const email = template.body.Emails[0];
    const preference = email.EmailPreferences[0];
    const programId = preference.ProgramId;
    const merged = await call(origin, 'POST', `${base}/Profile/${tenant.templateId}`, auth, {
      Emails: [
        {
          EmailAddress: email.EmailAddress,
          EmailPreferences: [
            {
              ProgramId: preference.ProgramId,
              ChannelId: preference.ChannelId,
              FilterId: preference.FilterId,
              PreferenceType: 1,
            },
          ],
        },
      ],
    });
    if (merged.status !== 202)
      throw new Error(`template: ${merged.status} ${JSON.stringify(merged.body)}`);
    for (;;) {
      const got = await call(origin, 'GET', `${base}/Profile/${tenant.templateId}`, auth);
      if (got.body?.UpdateStatus === 'Complete') break;
      await sleep(50);
    }

    const started = Date.now();
    await seed.seedProfiles({ db: mongo.db('bench'), tenant, from: 1, to: PROFILES });
    log(`seeded ${PROFILES} profiles in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // The worker rebuilds the search key index from the profiles (as after a lost Redis).
    await redis.del('bench:kx:built');

    // One do-not-contact list holding values no seeded profile has.
    const list = await call(origin, 'POST', `${base}/DoNotContactLists`, auth, {
      Name: 'Complaints',
      ListType: 'Email',
    });
    await call(origin, 'POST', `${base}/DoNotContactLists/${list.body.ListId}/Entries`, auth, {
      Entries: Array.from({ length: 10 }, (_, n) => ({ Value: `listed${n}@example.com` })),
    });

    const ids = Array.from({ length: PROFILES - 1 }, (_, n) => n + 2);
    const profilePath = (i) => `${base}/Profile/${ids[i % ids.length]}`;
    const decisionPath = (i) =>
      `${base}/ContactDecision?profileId=${ids[i % ids.length]}&channelId=Email&programId=${programId}&consentType=Email`;
    const barePath = (i) =>
      `${base}/ContactDecision?emailAddress=p${ids[i % ids.length]}@example.com&channelId=Email&programId=${programId}`;

    // Warm every read-model entry (and the decision's caches) once, and check the answers.
    for (let at = 0; at < ids.length; at += 100) {
      await Promise.all(
        ids.slice(at, at + 100).map((_, n) => call(origin, 'GET', profilePath(at + n), auth)),
      );
    }
    const sample = await call(origin, 'GET', decisionPath(0), auth);
    if (sample.status !== 200 || sample.body.Allowed !== true)
      throw new Error(`decision: ${sample.status} ${JSON.stringify(sample.body)}`);
    log(`sample decision: ${sample.body.Reasons.map((r) => r.Code).join(', ')}`);

    const rows = [];
    rows.push(await load('GET profile (baseline)', origin, auth, profilePath));
    rows.push(await load('GET ContactDecision by id', origin, auth, decisionPath));
    const deadline = Date.now() + 60000;
    while (!(await redis.exists('bench:kx:built')) && Date.now() < deadline) await sleep(200);
    if (await redis.exists('bench:kx:built')) {
      const bare = await call(origin, 'GET', barePath(0), auth);
      if (bare.status !== 200) throw new Error(`bare: ${bare.status} ${JSON.stringify(bare.body)}`);
      rows.push(await load('GET ContactDecision by bare email', origin, auth, barePath));
    } else log('search key index not built within 60 s: bare-email line skipped');

    // The batch: 1,000 questions about 1,000 distinct profiles, one request at a time.
    const times = [];
    for (let b = 0; b < BATCHES + 3; b++) {
      const Questions = Array.from({ length: BATCH_SIZE }, (_, n) => ({
        ProfileId: ids[(b * 37 + n) % ids.length],
        ChannelId: 'Email',
        ProgramId: programId,
        ConsentType: 'Email',
      }));
      const t0 = performance.now();
      const res = await call(origin, 'POST', `${base}/ContactDecisions`, auth, { Questions });
      const ms = performance.now() - t0;
      if (res.status !== 200 || res.body.Decisions.length !== BATCH_SIZE)
        throw new Error(`batch: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      if (b >= 3) times.push(ms); // the first batches warm the process
    }

    const pad = (text, n) => String(text).padEnd(n);
    const out = [
      `profiles ${PROFILES}, ${CONNECTIONS} connections, ${SECONDS} s per run`,
      `${pad('scenario', 36)}${pad('req/s', 10)}${pad('p50 ms', 9)}p99 ms`,
      ...rows.map(
        (row) =>
          `${pad(row.name, 36)}${pad(row.rps.toFixed(0), 10)}${pad(row.p50, 9)}${row.p99}${row.bad ? `  (${row.bad} failed)` : ''}`,
      ),
      `ratio GET ContactDecision / GET profile: ${((rows[1].rps / rows[0].rps) * 100).toFixed(0)} % (goal >= 60 %)`,
      ...(rows[2]
        ? [`ratio bare email / GET profile: ${((rows[2].rps / rows[0].rps) * 100).toFixed(0)} %`]
        : []),
      `POST ContactDecisions, ${BATCH_SIZE} questions (${BATCHES} batches): p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms (goal p50 < 50 ms)`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
    ok = true;
  } finally {
    await redis.quit().catch(() => undefined);
    await mongo.close().catch(() => undefined);
    await close(ok);
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
