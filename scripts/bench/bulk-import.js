'use strict';
// `npm run bench:import [-- --count=100000]`: a bulk import of new profiles through the
// service (Initiate, Stage as NDJSON, Execute, every write applied by the worker), and its
// bare baseline side by side in one run on the embedded default: a raw `insertMany` of the
// same profile documents (read back from the engine after the import) into a scratch
// collection. Prints profiles per second of each and their ratio, the api's and the worker's
// RSS over the import (streamed staging: flat), and GET profile p99 with and without an
// import running (the fair share of the bulk lane). Nothing asserts the figures.
//
//   --count=N          profiles imported (default 100000; --large: 1000000)
//   --get-rate=200     GET requests per second of the p99 probe
//   --seconds=5        length of each p99 probe
//   --updates=N        then a second import of N of the same records, each a merge into
//                      its profile (the ordinary path, one write per record): its rate
//
// BENCH_ENGINE_COMMANDS=1 also prints the engine commands the worker sent per profile (by
// command and collection, with their time), through a counting relay in front of it.
const autocannon = require('autocannon');
const Redis = require('ioredis');
const { MongoClient } = require('mongodb');
const { rssMiB } = require('../lib/node-process');
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
/** NDJSON bytes per Stage call, under the 25 MB default of BULK_STAGE_MAX_BYTES. */
const STAGE_BYTES = 20 * 1024 * 1024;

const log = (message) => process.stderr.write(`[bench:import] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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

async function main() {
  const { engine, redisServer, env, api, worker, origin, close, engineCommands } =
    await startServiceStack('import');
  let failed = true;
  try {
    const tenant = await seed.createTenant({ origin, env });
    const bearer = `Bearer ${tenant.token}`;
    const base = `${origin}/Profiles/v4/${tenant.clientId}/Bulk/Import`;
    const mongo = await MongoClient.connect(engine.uri);
    const db = mongo.db('bench');
    const redis = new Redis(redisServer.url);
    const getUrl = `${origin}/Profiles/v4/${tenant.clientId}/Profile/${tenant.templateId}`;

    log(`GET p99 without an import (${GET_RATE}/s for ${SECONDS} s)`);
    const quiet = await getProbe(getUrl, bearer);

    const runId = Date.now().toString(36);
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
      engineCommands?.reset();
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
        await sleep(500);
      }
      const accepted = Date.now();
      log(
        `Execute ${status.Status}: ${status.Processed} processed, ${status.NotHonored} not honored`,
      );
      // Applied: every imported profile's read model holds its last accepted write. The
      // profiles are ids after the template, up to the client's id hint; a new profile
      // created by the import's batch path is published applied (no accepted mark), one
      // written the ordinary way was marked accepted before Completed, and an id reserved
      // but left unused has neither (so `acc > v` is what still waits).
      // Checked from the first not yet applied on, a slice at a time (a light poll).
      const hint = await db.collection('profile_id_hints').findOne({ _id: tenant.clientId });
      for (let next = tenant.templateId + 1; next <= hint.last;) {
        const slice = Array.from(
          { length: Math.min(5000, hint.last - next + 1) },
          (_, i) => next + i,
        );
        const seqs = await seed.readSeqs(redis, tenant.clientId, slice);
        const pending = seqs.findIndex((s) => s.acc > s.v);
        if (pending === -1) next += slice.length;
        else {
          next += pending;
          await sleep(500);
        }
      }
      return { started, staged, accepted, applied: Date.now(), status, last: hint.last, running };
    };

    // GET latency while the import runs (the probe overlaps the import's start).
    const imported = await importOnce(stageBodies(runId), () => getProbe(getUrl, bearer));
    const { started, staged, accepted, applied, status, last } = imported;
    const workerCommands = engineCommands?.report(status.Processed);
    clearInterval(sampler);
    const busy = await imported.running;

    // The baseline: the same profile documents, as the worker stored them, by a raw
    // insertMany (1000 per command) into a scratch collection of the same engine.
    const docs = [];
    const profiles = db.collection('profiles');
    for (let id = tenant.templateId + 1; docs.length < status.Processed && id <= last; id++) {
      const doc = await profiles.findOne({ _id: `${tenant.clientId}|${id}` });
      // A reserved id left unused, or a shell: not one of the imported profiles.
      if (doc?.state === 'active') docs.push({ ...doc, _id: `baseline|${id}` });
    }
    const scratch = db.collection('bench_insert_many');
    const rawStart = Date.now();
    for (let i = 0; i < docs.length; i += 1000) {
      await scratch.insertMany(docs.slice(i, i + 1000), { ordered: false });
    }
    const rawMs = Date.now() - rawStart;

    const perSecond = (count, ms) => (count / ms) * 1000;
    const service = perSecond(status.Processed, applied - started);
    const raw = perSecond(docs.length, rawMs);
    const range = (values) => {
      const seen = values.filter(Number.isFinite);
      return `${Math.min(...seen).toFixed(0)}-${Math.max(...seen).toFixed(0)} MiB`;
    };
    const rows = [
      ['profiles imported', String(status.Processed)],
      ['stage (NDJSON, checked)', `${((staged - started) / 1000).toFixed(1)} s`],
      ['execute (all accepted)', `${((accepted - staged) / 1000).toFixed(1)} s`],
      ['until every write applied', `${((applied - accepted) / 1000).toFixed(1)} s`],
      ['import, profiles/s (initiate to applied)', service.toFixed(0)],
      [`raw insertMany of the same ${docs.length} documents, profiles/s`, raw.toFixed(0)],
      ['ratio import / raw insertMany', `${((service / raw) * 100).toFixed(1)} %`],
      // Stage excluded (the upload, checked and stored), for where the time goes.
      [
        'ratio Execute-to-applied / raw insertMany',
        `${((perSecond(status.Processed, applied - staged) / raw) * 100).toFixed(1)} %`,
      ],
      ['api RSS during the import', range(rss.api)],
      ['worker RSS during the import', range(rss.worker)],
      ['GET p99 without an import', `${quiet.p99} ms (p50 ${quiet.p50} ms)`],
      ['GET p99 during the import', `${busy.p99} ms (p50 ${busy.p50} ms)`],
      ['ratio GET p99 during / without', `${(busy.p99 / Math.max(1, quiet.p99)).toFixed(2)}x`],
    ];
    let mergedCommands = null;
    if (UPDATES) {
      // A merge-heavy import: each record matches a profile the first import made.
      const merged = await importOnce(stageBodies(runId, UPDATES, update));
      mergedCommands = engineCommands?.report(merged.status.Processed);
      const rate = perSecond(merged.status.Processed, merged.applied - merged.started);
      rows.push(
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
        ['  ratio to the raw insertMany', `${((rate / raw) * 100).toFixed(1)} %`],
      );
    }
    const width = Math.max(...rows.map(([name]) => name.length));
    console.log(`\nbulk import of ${COUNT} new profiles (engine: FerretDB on SQLite)`);
    for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
    if (workerCommands) {
      console.log(`\nthe worker's engine commands from Execute to applied, per profile imported:`);
      console.log(`    count   time (summed over concurrent commands)`);
      for (const line of workerCommands) console.log(`  ${line}`);
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
