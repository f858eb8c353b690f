'use strict';
// `npm run bench:import [-- --count=100000]`: a bulk import of new profiles through the
// service (Initiate, Stage as NDJSON, Execute, every write applied by the worker), and its
// bare baseline side by side in one run on the embedded default: a raw `insertMany` of the
// same profile documents (read back from the engine after the import) into a scratch
// collection. Prints profiles per second of each and their ratio, the CPU each process spent
// per profile in each phase, the api's and the worker's RSS over the import (streamed
// staging: flat), and GET profile p99 with and without an import running (the fair share of
// the bulk class). Nothing asserts the figures.
//
// The import and the raw insert alternate: `--rounds=R` runs R rounds of (import of `--count`
// new profiles, then the raw insert of the documents that import stored), so the machine's
// drift hits both sides alike; each round's ratio is its import against the raw insert run
// right after it, and from round 2 on also right before it (the round before's documents
// again): the mean of the two. The median and the spread of the rounds are printed. The
// GET p99 probe runs during an import of its own after the rounds (its load would otherwise
// count against the import only).
//
//   --count=N          profiles imported per round (default 100000; --large: 1000000)
//   --rounds=R         rounds of import and raw insert, alternated (default 1)
//   --probe-count=N    records of the import the GET probe runs beside (default min(count,
//                      10000); 0: no probe)
//   --get-rate=200     GET requests per second of the p99 probe
//   --seconds=5        length of each p99 probe
//   --updates=N        then a second import of N of the same records, each a merge into
//                      its profile (the ordinary path, one write per record): its rate
//   --monitor          counts the Redis commands from Execute to applied in round 1 (MONITOR,
//                      by command and key pattern, per profile)
//
// Also printed, for where the time goes and not the goal's figure: a raw insertMany of every
// document the import stored for those profiles (the profiles, their history pages, their
// events and their alternate id claims), each collection in commands of 1000.
//
// BENCH_ENGINE_COMMANDS=1 also prints the engine commands the worker sent per profile (by
// command and collection, with their time), through a counting relay in front of it.
const autocannon = require('autocannon');
const Redis = require('ioredis');
const { BSON, MongoClient } = require('mongodb');
const { rssMiB } = require('../lib/node-process');
const { cpuMs, cpuWaitMs } = require('../lib/proc-cpu');
const { startServiceStack } = require('../lib/service-stack');
const seed = require('./seed');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);
const COUNT = Number(args.count || (args.large ? 1_000_000 : 100_000));
const GET_RATE = Number(args['get-rate'] || 200);
const SECONDS = Number(args.seconds || 5);
const UPDATES = Math.min(COUNT, Number(args.updates || 0));
const ROUNDS = Math.max(1, Number(args.rounds || 1));
const PROBE_COUNT = Number(args['probe-count'] ?? Math.min(COUNT, 10000));
const MONITOR = Boolean(args.monitor);
/** Status and read-model polls while an import runs (a coarse poll would count against it). */
const POLL_MS = 100;
/** NDJSON bytes per Stage call, under the 25 MB default of BULK_STAGE_MAX_BYTES. */
const STAGE_BYTES = 20 * 1024 * 1024;

const log = (message) => process.stderr.write(`[bench:import] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The service's text key (libs/shared textKey): claims are keyed by it. */
const textKey = (value) =>
  typeof value === 'string' ? value.trim().replace(/\s+/g, ' ').toLowerCase() : '';

function record(i, runId) {
  return {
    CustomerType: 'Customer',
    CustomerName: { FirstName: `Imported${i}`, LastName: `Family${i % 997}` },
    Emails: [{ EmailAddress: `imported.${runId}.${i}@example.com` }],
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: `IMP-${runId}-${i}` }],
  };
}

/** Record i again, for its profile: a new first name and a second email (a merge). */
function update(i, runId) {
  return {
    CustomerName: { FirstName: `Updated${i}` },
    Emails: [{ EmailAddress: `updated.${runId}.${i}@example.com` }],
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: `IMP-${runId}-${i}` }],
  };
}

/** The NDJSON bodies of an import: records 1..count, about STAGE_BYTES each. */
function* stageBodies(runId, count = COUNT, make = record) {
  let lines = [];
  let bytes = 0;
  for (let i = 1; i <= count; i++) {
    const line = JSON.stringify(make(i, runId));
    if (bytes + line.length + 1 > STAGE_BYTES && lines.length) {
      yield lines.join('\n');
      lines = [];
      bytes = 0;
    }
    lines.push(line);
    bytes += line.length + 1;
  }
  if (lines.length) yield lines.join('\n');
}

/** GET profile at a fixed rate for SECONDS: its p50 and p99 in ms. */
async function getProbe(url, bearer) {
  const result = await autocannon({
    url,
    headers: { Authorization: bearer },
    connections: 8,
    overallRate: GET_RATE,
    duration: SECONDS,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad) log(`GET probe: ${bad} of ${result.requests.total} requests failed`);
  return { p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

/** Redis MONITOR from now: `stop(per)` ends it and answers the counts per command. */
async function monitorCommands(url) {
  const counts = new Map();
  const base = new Redis(url);
  const monitor = await base.monitor();
  monitor.on('monitor', (_time, argv, source) => {
    // Commands a script ran are shown too: counted once, as the script.
    if (String(source).startsWith('lua')) return;
    const name = String(argv[0]).toLowerCase();
    // The bench's own polling of the read model is not the service's.
    if (name === 'monitor' || (name === 'hmget' && argv.length === 4 && argv[3] === 'acc')) return;
    const key =
      name === 'evalsha' || name === 'eval'
        ? `${name} ${String(argv[3] ?? '').replace(/[|:][^|:]*\d[^|:]*/g, ':<id>')}`
        : `${name} ${String(argv[1] ?? '').replace(/[|:][^|:]*\d[^|:]*/g, ':<id>')}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  });
  return {
    stop: (per) => {
      monitor.disconnect();
      base.disconnect();
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return [...counts.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${(n / per).toFixed(3).padStart(9)}  ${k.slice(0, 90)}`)
        .concat(`${(total / per).toFixed(3).padStart(9)}  total`);
    },
  };
}

/** The middle value of `values` (the mean of the two middle ones for an even count). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  const { engine, redisServer, env, api, worker, origin, close, engineCommands } =
    await startServiceStack('import');
  const procs = {
    engine: engine.child.pid,
    api: api.pid,
    worker: worker.pid,
    redis: redisServer.child.pid,
    bench: process.pid,
  };
  const cpuNow = () =>
    Object.fromEntries(
      Object.entries(procs).flatMap(([k, pid]) => [
        [k, cpuMs(pid)],
        [`${k}Wait`, cpuWaitMs(pid)],
      ]),
    );
  /** CPU ms per profile of each process between two snapshots (`count` profiles). */
  const cpuPer = (from, to, count) =>
    Object.fromEntries(Object.keys(from).map((k) => [k, (to[k] - from[k]) / count]));
  const cpuText = (per, only = Object.keys(procs)) =>
    only.map((k) => `${k} ${per[k].toFixed(2)}`).join(', ');
  /** Per process: ms waiting for a CPU (runnable, another process running) per profile. */
  const waitText = (per, only) => only.map((k) => `${k} ${per[`${k}Wait`].toFixed(2)}`).join(', ');
  let failed = true;
  try {
    const tenant = await seed.createTenant({ origin, env });
    const bearer = `Bearer ${tenant.token}`;
    const base = `${origin}/Profiles/v4/${tenant.clientId}/Bulk/Import`;
    const mongo = await MongoClient.connect(engine.uri);
    const db = mongo.db('bench');
    const redis = new Redis(redisServer.url);
    const getUrl = `${origin}/Profiles/v4/${tenant.clientId}/Profile/${tenant.templateId}`;
    const hintOf = async () =>
      (await db.collection('profile_id_hints').findOne({ _id: tenant.clientId }))?.last ??
      tenant.templateId;

    let monitorNext = MONITOR;
    let redisCommands = null;
    const rss = { api: [], worker: [] };
    const sampler = setInterval(() => {
      rss.api.push(rssMiB(api.pid));
      rss.worker.push(rssMiB(worker.pid));
    }, 500);
    /**
     * One import of `bodies` (NDJSON): Initiate, Stage, Execute, then until every profile's
     * read model holds its last accepted write. `whileRunning` is called at Execute.
     */
    const importOnce = async (bodies, whileRunning = () => undefined) => {
      const first = (await hintOf()) + 1;
      const cpu = [cpuNow()];
      const started = Date.now();
      const initiated = await fetch(base, {
        method: 'POST',
        headers: { Authorization: bearer, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          Name: 'bench',
          MatchCriteria: 'AlternateIdType',
          MatchValue: 'CRM',
        }),
      });
      const token = (await initiated.json()).AccessToken;
      for (const body of bodies) {
        const res = await fetch(`${base}/${token}/Stage`, {
          method: 'POST',
          headers: { Authorization: bearer, 'Content-Type': 'application/x-ndjson' },
          body,
        });
        if (res.status !== 200) throw new Error(`Stage: ${res.status} ${await res.text()}`);
        const status = await res.json();
        log(`staged ${status.ValidationSuccessful} (${status.ValidationFailed} refused)`);
      }
      const staged = Date.now();
      cpu.push(cpuNow());
      engineCommands?.reset();
      const monitor = monitorNext ? await monitorCommands(redisServer.url) : null;
      monitorNext = false;
      const executed = await fetch(`${base}/${token}/Execute`, {
        method: 'POST',
        headers: { Authorization: bearer },
      });
      if (executed.status !== 202) throw new Error(`Execute: ${executed.status}`);
      const running = whileRunning();
      let status;
      for (;;) {
        status = await (
          await fetch(`${base}/${token}`, { headers: { Authorization: bearer } })
        ).json();
        if (status.Status === 'Completed' || status.Status === 'Failed') break;
        await sleep(POLL_MS);
      }
      const accepted = Date.now();
      log(
        `Execute ${status.Status}: ${status.Processed} processed, ${status.NotHonored} not honored`,
      );
      // Applied: every imported profile's read model holds its last accepted write. The
      // profiles are ids after the hint before the import, up to the client's id hint; a new
      // profile created by the import's batch path is published applied (no accepted mark),
      // one written the ordinary way was marked accepted before Completed, and an id reserved
      // but left unused has neither (so `acc > v` is what still waits).
      // Checked from the first not yet applied on, a slice at a time (a light poll).
      const last = await hintOf();
      for (let next = first; next <= last;) {
        const slice = Array.from({ length: Math.min(5000, last - next + 1) }, (_, i) => next + i);
        const seqs = await seed.readSeqs(redis, tenant.clientId, slice);
        const pending = seqs.findIndex((s) => s.acc > s.v);
        if (pending === -1) next += slice.length;
        else {
          next += pending;
          await sleep(POLL_MS);
        }
      }
      const applied = Date.now();
      cpu.push(cpuNow());
      if (monitor) redisCommands = monitor.stop(status.Processed);
      return { started, staged, accepted, applied, status, first, last, running, cpu };
    };

    /** Reads `ids` by `_id` from `collection`, 50 at a time; the documents found. */
    const readBack = async (collection, ids) => {
      const found = [];
      for (let i = 0; i < ids.length; i += 50) {
        const docs = await Promise.all(
          ids.slice(i, i + 50).map((_id) => db.collection(collection).findOne({ _id })),
        );
        found.push(...docs.filter(Boolean));
      }
      return found;
    };
    /** A raw insertMany of `docs` (1000 per command, unordered) into `collection`: ms. */
    const rawInsert = async (collection, docs) => {
      const scratch = db.collection(collection);
      const t0 = performance.now();
      for (let i = 0; i < docs.length; i += 1000) {
        await scratch.insertMany(docs.slice(i, i + 1000), { ordered: false });
      }
      return performance.now() - t0;
    };
    const perSecond = (count, ms) => (count / ms) * 1000;

    // The raw inserts' scratch collections exist (and carry the engine's `_id` index, which
    // it adds to a new collection within a quarter second) before any insert is timed, as
    // the service's collections do.
    for (const collection of [
      'bench_insert_many',
      'bench_all_profiles',
      'bench_all_profile_history',
      'bench_all_profile_events',
      'bench_all_alternate_id_claims',
    ]) {
      await db.collection(collection).insertOne({ _id: 'created' });
    }
    await sleep(1000);

    // What each process spends while nothing is imported (timers, queue polls), per second:
    // a share of each phase's CPU that is time, not profiles.
    const idleFrom = cpuNow();
    await sleep(3000);
    const idle = cpuPer(idleFrom, cpuNow(), 3);

    const rounds = [];
    let workerCommands = null;
    /** The documents of the round before, inserted raw again right before the next import. */
    let previous = null;
    for (let round = 1; round <= ROUNDS; round++) {
      const runId = `${Date.now().toString(36)}r${round}`;
      // From round 2 on, each import is bracketed by raw inserts: the round before's
      // documents again (under other ids) just before it, its own just after it.
      const rawBefore = previous
        ? perSecond(
            previous.length,
            await rawInsert(
              'bench_insert_many',
              previous.map((doc) => ({ ...doc, _id: `again|${doc._id}` })),
            ),
          )
        : null;
      const imported = await importOnce(stageBodies(runId));
      const { started, staged, accepted, applied, status, first, last, cpu } = imported;
      if (round === 1) workerCommands = engineCommands?.report(status.Processed);

      // The baseline: the same profile documents, as the worker stored them, by a raw
      // insertMany (1000 per command) into a scratch collection of the same engine, right
      // after the import (the scratch collection grows round by round as `profiles` does).
      const ids = [];
      for (let id = first; id <= last; id++) ids.push(`${tenant.clientId}|${id}`);
      // A reserved id left unused, or a shell: not one of the imported profiles.
      const profiles = (await readBack('profiles', ids)).filter((doc) => doc.state === 'active');
      const docs = profiles.map((doc) => ({ ...doc, _id: `baseline|${doc._id}` }));
      const rawCpu = [cpuNow()];
      const rawMs = await rawInsert('bench_insert_many', docs);
      rawCpu.push(cpuNow());

      // Every document the import stored for those profiles (not the goal's figure).
      const others = {
        profile_history: profiles.flatMap((doc) =>
          Array.from({ length: doc.historyPages ?? 0 }, (_, p) => `${doc._id}|p${p}`),
        ),
        profile_events: profiles.map((doc) => `${doc._id}|e1`),
        alternate_id_claims: profiles.flatMap((doc) =>
          (doc.data?.AlternateIds ?? []).map(
            (pair) =>
              `${tenant.clientId}|${textKey(pair.AlternateIdType)}|${textKey(pair.AlternateId)}`,
          ),
        ),
      };
      const stored = { profiles: docs };
      for (const [collection, keys] of Object.entries(others)) {
        stored[collection] = (await readBack(collection, keys)).map((doc) => ({
          ...doc,
          _id: `baseline|${doc._id}`,
        }));
      }
      let allMs = 0;
      const allCpu = [cpuNow()];
      for (const [collection, list] of Object.entries(stored)) {
        allMs += await rawInsert(`bench_all_${collection}`, list);
      }
      allCpu.push(cpuNow());
      const bytes = Object.fromEntries(
        Object.entries(stored).map(([collection, list]) => [
          collection,
          {
            count: list.length,
            bytes: list.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0),
          },
        ]),
      );

      const n = status.Processed;
      const service = perSecond(n, applied - started);
      const rawAfter = perSecond(docs.length, rawMs);
      // The mean time per document of the raw inserts around the import.
      const raw = rawBefore === null ? rawAfter : 2 / (1 / rawBefore + 1 / rawAfter);
      previous = docs;
      const result = {
        rawBefore,
        rawAfter,
        round,
        runId,
        n,
        stageS: (staged - started) / 1000,
        executeS: (accepted - staged) / 1000,
        appliedS: (applied - accepted) / 1000,
        service,
        raw,
        ratio: service / raw,
        executeRatio: perSecond(n, applied - staged) / raw,
        all: perSecond(docs.length, allMs),
        allCpu: cpuPer(allCpu[0], allCpu[1], docs.length),
        stageCpu: cpuPer(cpu[0], cpu[1], n),
        executeCpu: cpuPer(cpu[1], cpu[2], n),
        rawCpu: cpuPer(rawCpu[0], rawCpu[1], docs.length),
        bytes,
      };
      rounds.push(result);
      log(
        `round ${round}: import ${service.toFixed(0)}/s, raw ${raw.toFixed(0)}/s, ` +
          `${((service / raw) * 100).toFixed(1)} %`,
      );
    }

    // GET latency: without an import, then while one runs (the probe overlaps its start).
    let quiet = null;
    let busy = null;
    if (PROBE_COUNT > 0) {
      log(`GET p99 without an import (${GET_RATE}/s for ${SECONDS} s)`);
      quiet = await getProbe(getUrl, bearer);
      const probed = await importOnce(stageBodies(`${Date.now().toString(36)}p`, PROBE_COUNT), () =>
        getProbe(getUrl, bearer),
      );
      busy = await probed.running;
    }
    clearInterval(sampler);

    const range = (values) => {
      const seen = values.filter(Number.isFinite);
      return `${Math.min(...seen).toFixed(0)}-${Math.max(...seen).toFixed(0)} MiB`;
    };
    const pct = (x) => `${(x * 100).toFixed(1)} %`;
    const sum = (per) => Object.keys(procs).reduce((total, k) => total + per[k], 0);
    /** CPU per profile of every process over the import (stage, then execute to applied). */
    const importCpu = (r) => sum(r.stageCpu) + sum(r.executeCpu);
    /** CPU per profile of the raw insert: the engine's and this process's (the driver). */
    const rawCpu = (per) => per.engine + per.bench;
    const spread = (pick) => {
      const values = rounds.map(pick);
      return rounds.length > 1
        ? `median ${pct(median(values))}, ${pct(Math.min(...values))}-${pct(Math.max(...values))}`
        : pct(values[0]);
    };
    console.log(
      `\nbulk import of ${COUNT} new profiles, ${ROUNDS} round(s) of import then raw insert ` +
        `(engine: FerretDB on SQLite)`,
    );
    for (const r of rounds) {
      const rows = [
        ['profiles imported', String(r.n)],
        ['stage (NDJSON, checked)', `${r.stageS.toFixed(1)} s`],
        ['execute (all accepted)', `${r.executeS.toFixed(1)} s`],
        ['until every write applied', `${r.appliedS.toFixed(1)} s`],
        ['import, profiles/s (initiate to applied)', r.service.toFixed(0)],
        [
          'raw insertMany of the same profile documents, profiles/s',
          r.rawBefore === null
            ? `${r.raw.toFixed(0)} (right after the import)`
            : `${r.raw.toFixed(0)} (${r.rawBefore.toFixed(0)} right before the import, ${r.rawAfter.toFixed(0)} right after)`,
        ],
        ['ratio import / raw insertMany', pct(r.ratio)],
        // Stage excluded (the upload, checked and stored), for where the time goes.
        ['ratio Execute-to-applied / raw insertMany', pct(r.executeRatio)],
        [
          'raw insertMany of every document stored (not the goal), profiles/s',
          `${r.all.toFixed(0)} (import at ${pct(r.service / r.all)}; CPU ms per profile: ${cpuText(r.allCpu, ['engine', 'bench'])})`,
        ],
        [
          'CPU ms per profile: import (every process) / raw insertMany',
          `${importCpu(r).toFixed(2)} / ${rawCpu(r.rawCpu).toFixed(2)} (${pct(rawCpu(r.rawCpu) / importCpu(r))}, not the goal)`,
        ],
        ['CPU ms per profile, stage', cpuText(r.stageCpu, ['api', 'engine', 'redis', 'bench'])],
        [
          'CPU ms per profile, execute to applied',
          cpuText(r.executeCpu, ['worker', 'engine', 'redis', 'api']),
        ],
        ['CPU ms per profile, raw insertMany', cpuText(r.rawCpu, ['engine', 'bench'])],
        [
          'ms per profile waiting for a CPU, execute',
          waitText(r.executeCpu, ['worker', 'engine', 'redis', 'api']),
        ],
        [
          'ms per profile waiting for a CPU, raw insertMany',
          waitText(r.rawCpu, ['engine', 'bench']),
        ],
        [
          'documents stored, count and bytes per profile',
          Object.entries(r.bytes)
            .map(
              ([c, { count, bytes }]) =>
                `${c} ${(count / r.n).toFixed(2)} x ${(bytes / Math.max(1, count)).toFixed(0)} B`,
            )
            .join(', '),
        ],
      ];
      const width = Math.max(...rows.map(([name]) => name.length));
      console.log(`round ${r.round}`);
      for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
    }
    const summary = [
      ['ratio import / raw insertMany', spread((r) => r.ratio)],
      ['CPU ms per second while idle', cpuText(idle, ['worker', 'engine', 'redis', 'api'])],
      ['ratio Execute-to-applied / raw insertMany', spread((r) => r.executeRatio)],
      ['CPU ratio raw / import (not the goal)', spread((r) => rawCpu(r.rawCpu) / importCpu(r))],
      ['api RSS during the imports', range(rss.api)],
      ['worker RSS during the imports', range(rss.worker)],
    ];
    if (quiet && busy) {
      summary.push(
        ['GET p99 without an import', `${quiet.p99} ms (p50 ${quiet.p50} ms)`],
        [`GET p99 during an import of ${PROBE_COUNT}`, `${busy.p99} ms (p50 ${busy.p50} ms)`],
        ['ratio GET p99 during / without', `${(busy.p99 / Math.max(1, quiet.p99)).toFixed(2)}x`],
      );
    }
    let mergedCommands = null;
    if (UPDATES) {
      // A merge-heavy import: each record matches a profile the first round made.
      const merged = await importOnce(stageBodies(rounds[0].runId, UPDATES, update));
      mergedCommands = engineCommands?.report(merged.status.Processed);
      const rate = perSecond(merged.status.Processed, merged.applied - merged.started);
      const raw = median(rounds.map((r) => r.raw));
      summary.push(
        [
          `import of ${UPDATES} records into existing profiles, stage`,
          `${((merged.staged - merged.started) / 1000).toFixed(1)} s`,
        ],
        ['  execute (all accepted)', `${((merged.accepted - merged.staged) / 1000).toFixed(1)} s`],
        [
          '  until every write applied',
          `${((merged.applied - merged.accepted) / 1000).toFixed(1)} s`,
        ],
        ['  profiles/s (initiate to applied)', rate.toFixed(0)],
        ['  ratio to the raw insertMany (median of the rounds)', pct(rate / raw)],
      );
    }
    const width = Math.max(...summary.map(([name]) => name.length));
    console.log('all rounds');
    for (const [name, value] of summary) console.log(`  ${name.padEnd(width)}  ${value}`);
    if (workerCommands) {
      console.log(
        `\nthe worker's engine commands from Execute to applied (round 1), per profile imported:`,
      );
      console.log(`    count   time (summed over concurrent commands)`);
      for (const line of workerCommands) console.log(`  ${line}`);
    }
    if (redisCommands) {
      console.log(`\nRedis commands from Execute to applied (round 1), per profile imported:`);
      for (const line of redisCommands) console.log(`  ${line}`);
    }
    if (mergedCommands) {
      console.log(`\nthe same for the import into existing profiles, per record:`);
      for (const line of mergedCommands) console.log(`  ${line}`);
    }
    await redis.quit();
    await mongo.close();
    failed = false;
  } finally {
    await close(!failed);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
