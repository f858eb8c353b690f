'use strict';
// `npm run bench:worker [-- --writes=1000 --backlog=400]`: how fast the worker applies
// accepted profile writes, against the physical limit of the same engine, side by side in
// one run on the embedded default (FerretDB on SQLite, redis-server, the built api and one
// worker). Prints writes/s of each and the ratios to (a). Nothing asserts the figures; on a
// shared machine only the ratios mean anything.
//
//   (a) the raw driver loop: per write a findOne, a replaceOne and a history insertOne, each
//       by `_id`, over `--writes` profile documents (copies of a stored profile), with the
//       worker's concurrency (4);
//   (b) the worker, many profiles: `--writes` merges accepted through the api on as many
//       seeded profiles (one write each), and again on a quarter as many (four each);
//   (c) the worker, one profile: `--backlog` merges accepted on one profile, drained;
//   (f) with `--floor[=K]`, after (b): the engine commands of a one-write pass alone (no
//       Redis, no queue, no worker CPU), one profile and K profiles per step (floorLoop).
//
// The writes of (b) and (c) are accepted while both Bull queues are paused (Queue.pause,
// global), so the queued work is exactly those writes; the clock runs from the resume until
// the read model shows every one applied (acc <= v). Acceptance itself is not timed.
//
// `--monitor`: also counts the Redis commands sent while (b) drains (Redis MONITOR, by
// command, per write; Bull's connections and the worker's own alike). With
// BENCH_ENGINE_COMMANDS=1 the worker's engine commands during (b) are printed per write too.
//
// `--reports[=rounds]`: instead of (b'), (c): scenario (b) with the reports' counts kept
// (REPORTS_ENABLED=true) and not kept (false), alternated for `rounds` rounds (default 3;
// the worker restarted with the setting before each drain), each merge also turning the
// profile's Terms consent (Granted, Revoked, ...) so that every write changes the counts
// and the daily events; prints each drain's writes/s, the means and the cost of the
// counts (docs/reports.md, "Cost").
const Bull = require('bull');
const Redis = require('ioredis');
const { randomUUID } = require('node:crypto');
const { MongoClient } = require('mongodb');
const { cpuMs } = require('../lib/proc-cpu');
const { startServiceStack } = require('../lib/service-stack');
const seed = require('./seed');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);
const WRITES = Number(args.writes || 1000);
/** `--cpu-prof=<preload.js>`: a script the api and the worker preload (a CPU profiler). */
const CPU_PROF = args['cpu-prof'] ? String(args['cpu-prof']) : null;
/** `--only=b`: only the raw loop and scenario (b) (profiling). */
const ONLY_MANY = args.only === 'b';
const BACKLOG = Number(args.backlog || 400);
/** `--monitor`: count the Redis commands while (b) drains (MONITOR). */
const MONITOR = Boolean(args.monitor);
const CONCURRENCY = 4;
/**
 * `--floor[=K]`: after (b), the worker's own engine commands with nothing around them. K is
 * at most 16: at 32 (256 reads in flight) the embedded engine stalled for minutes here.
 */
const FLOOR = args.floor ? Math.min(16, args.floor === true ? 8 : Number(args.floor)) : 0;
/** `--reports[=rounds]`: (b) with the reports' counts on and off, alternated. */
const REPORT_ROUNDS = args.reports ? (args.reports === true ? 3 : Number(args.reports)) : 0;

const log = (message) => process.stderr.write(`[bench:worker] ${message}\n`);

/** (a): per write, a read, a replace and a history insert by `_id`, 4 at a time. */
async function rawLoop(db, template, count) {
  const raw = db.collection('raw_profiles');
  const history = db.collection('raw_history');
  await raw.deleteMany({});
  for (let start = 0; start < count; start += 500) {
    await raw.insertMany(
      Array.from({ length: Math.min(500, count - start) }, (_, k) => ({
        ...template,
        _id: `raw|${start + k}`,
      })),
    );
  }
  await new Promise((r) => setTimeout(r, 600)); // the engine's _id index step
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const id = `raw|${next++}`;
        const doc = await raw.findOne({ _id: id });
        await raw.replaceOne({ _id: id }, { ...doc, appliedSeq: (doc.appliedSeq || 0) + 1 });
        await history.insertOne({
          _id: randomUUID(),
          profile: id,
          entries: [{ snapshot: 'x'.repeat(1000) }],
        });
      }
    }),
  );
  return (count / (performance.now() - started)) * 1000;
}

/**
 * `--floor`: the engine commands a one-write pass of the worker sends, with nothing around
 * them (no Redis, no queue, no fold), on copies of the documents (b) stored: per write the
 * profile and its write record read, the history page's entry set by position, an events
 * document inserted and the profile replaced, each by `_id`, 4 at a time. With `batch` > 1,
 * `batch` profiles per step: their reads concurrent, then one `bulkWrite` of the replaces,
 * one of the history sets and one `insertMany` of the events (what a job taking several
 * profiles could send at best). The lower bound of any worker on this storage layout.
 */
async function floorLoop(db, docs, count, batch) {
  const profiles = db.collection('floor_profiles');
  const writes = db.collection('floor_writes');
  const pages = db.collection('floor_history');
  const events = db.collection('floor_events');
  for (const collection of [profiles, writes, pages, events]) await collection.deleteMany({});
  for (let start = 0; start < count; start += 500) {
    const ids = Array.from({ length: Math.min(500, count - start) }, (_, k) => start + k);
    await profiles.insertMany(ids.map((k) => ({ ...docs.profile, _id: `f|${k}` })));
    await writes.insertMany(ids.map((k) => ({ ...docs.write, _id: `f|${k}|1` })));
    await pages.insertMany(ids.map((k) => ({ ...docs.page, _id: `f|${k}|0` })));
  }
  await new Promise((r) => setTimeout(r, 600)); // the engine's _id index step
  const entry = docs.page.entries?.[0] ?? { snapshot: 'x'.repeat(1000) };
  const slot = (docs.page.n ?? docs.page.entries?.length ?? 1) + 1;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const ids = [];
        while (ids.length < batch && next < count) ids.push(next++);
        const read = await Promise.all(
          ids.map(async (k) => {
            const [profile] = await Promise.all([
              profiles.findOne({ _id: `f|${k}` }),
              writes.findOne({ _id: `f|${k}|1` }),
            ]);
            return { k, profile };
          }),
        );
        const pageSets = read.map(({ k }) => ({
          updateOne: {
            filter: { _id: `f|${k}|0` },
            update: { $set: { [`entries.${slot}`]: entry, n: slot + 1 } },
          },
        }));
        const replaces = read.map(({ k, profile }) => ({
          replaceOne: {
            filter: { _id: `f|${k}` },
            replacement: { ...profile, appliedSeq: (profile.appliedSeq || 0) + 1 },
          },
        }));
        const eventDocs = read.map(({ k }) => ({ ...docs.event, _id: `f|${k}|e${slot}` }));
        await pages.bulkWrite(pageSets, { ordered: false });
        if (batch > 1) await events.insertMany(eventDocs, { ordered: false });
        else await events.insertOne(eventDocs[0]);
        await profiles.bulkWrite(replaces, { ordered: false });
      }
    }),
  );
  return (count / (performance.now() - started)) * 1000;
}

async function main() {
  const { engine, redisServer, env, origin, close, worker, engineCommands, restartWorker } =
    await startServiceStack('worker', {
      ...(CPU_PROF ? { NODE_OPTIONS: `--require ${CPU_PROF}` } : {}),
      ...(REPORT_ROUNDS ? { OPERATOR_TOKEN: 'bench-operator' } : {}),
    });
  const procs = { engine: engine.child.pid, worker: worker.pid, redis: redisServer.child.pid };
  /** CPU ms per write of each process while `work` runs. */
  const measured = async (count, work) => {
    const before = Object.fromEntries(Object.entries(procs).map(([k, pid]) => [k, cpuMs(pid)]));
    const result = await work();
    const cpu = Object.entries(procs)
      .map(([k, pid]) => `${k} ${((cpuMs(pid) - before[k]) / count).toFixed(1)}`)
      .join(', ');
    return { ...result, cpu };
  };
  let failed = true;
  try {
    const tenant = await seed.createTenant({ origin, env });
    const mongo = await MongoClient.connect(engine.uri);
    const db = mongo.db('bench');
    const redis = new Redis(redisServer.url);
    const queues = ['jobs'].map(
      (name) => new Bull(name, { redis: redisServer.url, prefix: 'bench' }),
    );
    const first = tenant.templateId + 1;
    log(`seeding ${WRITES} profiles`);
    await seed.seedProfiles({ db, tenant, from: first, to: first + WRITES - 1 });
    const template = await db.collection('profiles').findOne({ _id: `bench|${first}` });

    /** Accepts one merge per entry of `ids` (paused queues), then times the drain. */
    const drain = async (ids, label, extraBody = () => ({})) => {
      for (const queue of queues) await queue.pause();
      let next = 0;
      let resent = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < ids.length) {
            const n = next++;
            for (;;) {
              const res = await fetch(
                `${origin}/Profiles/v4/${tenant.clientId}/Profile/${ids[n]}`,
                {
                  method: 'POST',
                  headers: {
                    Authorization: `Bearer ${tenant.token}`,
                    'Content-Type': 'application/json',
                  },
                  body: JSON.stringify({
                    CustomFields: [{ Name: 'Segment', Value: `${label}${n}` }],
                    ...extraBody(n),
                  }),
                },
              );
              // A loaded machine may answer 503 (deadline): sent again, and counted.
              if (res.status === 503) {
                resent++;
                continue;
              }
              if (res.status !== 202) throw new Error(`merge: ${res.status} ${await res.text()}`);
              break;
            }
          }
        }),
      );
      const queued = (await Promise.all(queues.map((queue) => queue.getJobCounts()))).reduce(
        (sum, counts) => sum + counts.waiting + counts.delayed + counts.paused,
        0,
      );
      const counted = MONITOR && label === 'm' ? await monitorCommands() : null;
      engineCommands?.reset();
      const result = await measured(ids.length, async () => {
        const started = performance.now();
        for (const queue of queues) await queue.resume();
        await seed.waitApplied({ redis, clientId: tenant.clientId, ids });
        return { perSecond: (ids.length / (performance.now() - started)) * 1000, queued };
      });
      if (counted)
        log(`Redis commands per write while ${label} drained:\n${counted.stop(ids.length)}`);
      if (engineCommands && label === 'm') {
        log(
          `engine commands of the worker per write:\n${engineCommands.report(ids.length).join('\n')}`,
        );
      }
      log(
        `${label}: ${ids.length} writes, ${queued} queued jobs, ${result.perSecond.toFixed(0)}/s` +
          (resent ? ` (${resent} merges answered 503 and sent again)` : ''),
      );
      return result;
    };

    /** Redis MONITOR from now: `stop(per)` ends it and answers the counts per command. */
    const monitorCommands = async () => {
      const counts = new Map();
      const base = new Redis(redisServer.url);
      const monitor = await base.monitor();
      monitor.on('monitor', (_time, argv, source) => {
        // Commands a script ran are shown too: counted once, as the script.
        if (String(source).startsWith('lua')) return;
        const name = String(argv[0]).toLowerCase();
        // The bench's own polling of the read model is not the worker's.
        if (name === 'monitor' || (name === 'hmget' && argv.length === 4 && argv[3] === 'acc'))
          return;
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
            .map(([k, n]) => `${(n / per).toFixed(2).padStart(8)}  ${k.slice(0, 90)}`)
            .concat(`${(total / per).toFixed(2).padStart(8)}  total`)
            .join('\n');
        },
      };
    };

    log(`(a) raw driver loop, ${WRITES} writes`);
    const raw = await measured(WRITES, async () => ({
      perSecond: await rawLoop(db, template, WRITES),
    }));
    const ids = Array.from({ length: WRITES }, (_, k) => first + k);
    if (REPORT_ROUNDS) {
      await reportsOnAndOff({ ids, drain, restartWorker, procs, origin, tenant, redis, raw });
      for (const queue of queues) await queue.close();
      await redis.quit();
      await mongo.close();
      failed = false;
      return;
    }
    log(`(b) worker, ${WRITES} writes on ${WRITES} profiles`);
    const many = await drain(ids, 'm');
    if (FLOOR) {
      const some = async (name, filter = {}) => db.collection(name).findOne(filter);
      const docs = {
        profile: template,
        write: await some('profile_writes'),
        page: await some('profile_history'),
        event: await some('profile_events'),
      };
      const floors = [];
      for (const batch of [1, FLOOR]) {
        log(`(f) the worker's engine commands alone, ${batch} profile(s) per step`);
        floors.push(
          await measured(WRITES, async () => ({
            perSecond: await floorLoop(db, docs, WRITES, batch),
          })),
        );
      }
      const again = await measured(WRITES, async () => ({
        perSecond: await rawLoop(db, template, WRITES),
      }));
      const mean = (raw.perSecond + again.perSecond) / 2;
      const line = (name, run) =>
        `  ${name.padEnd(52)} ${run.perSecond.toFixed(0).padStart(5)}/s  ${(run.perSecond / mean).toFixed(2)}x  CPU ms per write: ${run.cpu}`;
      console.log(`\nthe worker's floor (ratios to the mean of (a))`);
      console.log(line('(a) raw driver loop', raw));
      console.log(line('    again', again));
      console.log(line('(b) worker, one write per profile', many));
      console.log(line("(f) the worker's engine commands alone", floors[0]));
      console.log(line(`    the same, ${FLOOR} profiles per step`, floors[1]));
    }
    if (ONLY_MANY || FLOOR) {
      console.log(
        `raw ${raw.perSecond.toFixed(0)}/s (${raw.cpu}); worker ${many.perSecond.toFixed(0)}/s (${many.cpu})`,
      );
      for (const queue of queues) await queue.close();
      await redis.quit();
      await mongo.close();
      failed = false;
      return;
    }
    const quarter = Math.max(1, Math.floor(WRITES / 4));
    const fours = Array.from({ length: WRITES }, (_, k) => first + (k % quarter));
    log(`(b') worker, ${WRITES} writes on ${quarter} profiles`);
    const grouped = await drain(fours, 'g');
    log(`(c) worker, ${BACKLOG} writes on one profile`);
    const backlog = await drain(Array(BACKLOG).fill(first), 'b');
    const rawAgain = await measured(WRITES, async () => ({
      perSecond: await rawLoop(db, template, WRITES),
    }));

    const rows = [
      ['(a) raw driver loop (read, replace, history insert by _id), writes/s', raw.perSecond, raw],
      ['    the same, run again after the worker runs', rawAgain.perSecond, rawAgain],
      [`(b) worker, ${WRITES} writes on ${WRITES} profiles, writes/s`, many.perSecond, many],
      [
        `    ${WRITES} writes on ${quarter} profiles (4 each), writes/s`,
        grouped.perSecond,
        grouped,
      ],
      [`(c) worker, a backlog of ${BACKLOG} on one profile, writes/s`, backlog.perSecond, backlog],
    ];
    const base = (raw.perSecond + rawAgain.perSecond) / 2;
    const width = Math.max(...rows.map(([name]) => name.length));
    console.log(`\nworker apply rate (engine: FerretDB on SQLite; ratios to the mean of (a))`);
    for (const [name, value, run] of rows) {
      const ratio =
        run.queued === undefined
          ? ''
          : `  ${(value / base).toFixed(2)}x of (a), ${run.queued} queued jobs`;
      console.log(`  ${name.padEnd(width)}  ${value.toFixed(0).padStart(6)}${ratio}`);
      console.log(`  ${''.padEnd(width)}  CPU ms per write: ${run.cpu}`);
    }
    for (const queue of queues) await queue.close();
    await redis.quit();
    await mongo.close();
    failed = false;
  } finally {
    await close(!failed);
  }
}

/**
 * `--reports`: (b) with the counts kept and not, alternated (on, off, then off, on, ...),
 * after the counts of the seeded profiles were built (a rebuild, not timed). Each merge
 * turns the Terms consent of its profile: Revoked in odd drains, Granted in even ones.
 */
async function reportsOnAndOff({ ids, drain, restartWorker, procs, origin, tenant, redis, raw }) {
  log('building the counts of the seeded profiles (a rebuild)');
  const res = await fetch(`${origin}/Profiles/v4/Reports/Rebuilds`, {
    method: 'POST',
    headers: { Authorization: 'Bearer bench-operator', 'Content-Type': 'application/json' },
    body: JSON.stringify({ ClientId: tenant.clientId }),
  });
  if (res.status !== 202) throw new Error(`rebuild: ${res.status} ${await res.text()}`);
  for (;;) {
    const meta = await redis.hgetall(`bench:rp:${tenant.clientId}:meta`);
    if (meta.built && !meta.rebuild) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const runs = { on: [], off: [] };
  let drained = 0;
  for (let round = 0; round < REPORT_ROUNDS; round++) {
    for (const mode of round % 2 ? ['off', 'on'] : ['on', 'off']) {
      const worker = await restartWorker({ REPORTS_ENABLED: mode === 'on' ? 'true' : 'false' });
      procs.worker = worker.pid;
      const status = drained++ % 2 ? 1 : 3;
      log(`(b) worker, counts ${mode}, ${ids.length} writes on ${ids.length} profiles`);
      const result = await drain(ids, `r${drained}`, () => ({
        Consents: [{ ConsentType: 'Terms', ConsentStatus: status }],
      }));
      // That the counts were kept: the profiles the counts hold a mark of.
      const marked = await redis.hlen(`bench:rp:${tenant.clientId}:told`);
      const counted = await redis.hget(`bench:rp:${tenant.clientId}:meta`, 'built');
      log(`counts ${mode}: marks of ${marked} profiles, built ${counted ? 'yes' : 'no'}`);
      runs[mode].push(result);
    }
  }
  const mean = (list) => list.reduce((sum, run) => sum + run.perSecond, 0) / list.length;
  const on = mean(runs.on);
  const off = mean(runs.off);
  console.log(
    `\nworker apply rate with the reports' counts on and off (engine: FerretDB on SQLite)`,
  );
  console.log(`  (a) raw driver loop, writes/s  ${raw.perSecond.toFixed(0)}`);
  for (const mode of ['on', 'off']) {
    for (const run of runs[mode])
      console.log(
        `  (b) counts ${mode.padEnd(3)}, writes/s    ${run.perSecond.toFixed(0).padStart(6)}  CPU ms per write: ${run.cpu}`,
      );
  }
  console.log(
    `  mean on ${on.toFixed(0)}/s, mean off ${off.toFixed(0)}/s: on/off ${(on / off).toFixed(3)}, cost ${((1 - on / off) * 100).toFixed(1)} %`,
  );
  const workerCpu = (list) =>
    list.reduce((sum, run) => sum + Number(/worker ([\d.]+)/.exec(run.cpu)[1]), 0) / list.length;
  console.log(
    `  worker CPU ms per write: on ${workerCpu(runs.on).toFixed(2)}, off ${workerCpu(runs.off).toFixed(2)} (${((workerCpu(runs.on) / workerCpu(runs.off) - 1) * 100).toFixed(1)} %)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
