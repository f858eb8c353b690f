'use strict';
// `npm run bench:export [-- --count=100000]`: a bulk export of every profile of an account
// through the service (Initiate, the worker building the pages until Complete, then every row
// downloaded through the NDJSON Stream and again through the paged Rows route), and its bare
// baseline side by side in one run on the embedded default: a raw driver cursor over the same
// profile documents (each JSON.stringify'd, as the NDJSON holds text). Prints rows per second
// of each, their ratios, bytes, and the api's and the worker's RSS over the export. Nothing
// asserts the figures.
//
//   --count=N   profiles exported (default 100000; --large: 1000000)
const { MongoClient } = require('mongodb');
const { rssMiB } = require('../lib/node-process');
const { startServiceStack } = require('../lib/service-stack');
const { cpuMs } = require('../lib/proc-cpu');
const seed = require('./seed');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);
const COUNT = Number(args.count || (args.large ? 1_000_000 : 100_000));
/** The largest `limit` of Rows (EXPORT_ROWS_LIMIT_MAX, libs/bulk/src/domain/bulk-export.ts). */
const ROWS_LIMIT = 1000;
/** Status polls while the worker builds: short, so the build time is not rounded up much. */
const POLL_MS = 100;

const log = (message) => process.stderr.write(`[bench:export] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function getJson(url, bearer) {
  const res = await fetch(url, { headers: { Authorization: bearer } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text}`);
  return { body: JSON.parse(text), bytes: Buffer.byteLength(text) };
}

/** The NDJSON Stream read to the end as a client would receive it: rows (lines) and bytes. */
async function readStream(url, bearer) {
  const res = await fetch(url, { headers: { Authorization: bearer } });
  if (res.status !== 200) throw new Error(`Stream: ${res.status} ${await res.text()}`);
  let rows = 0;
  let bytes = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
  }
  return { rows, bytes };
}

/** Every row through Rows, `ROWS_LIMIT` at a time (each page parsed, as a client would). */
async function readPages(url, bearer) {
  let rows = 0;
  let bytes = 0;
  let requests = 0;
  for (let offset = 1; ; offset += ROWS_LIMIT) {
    const page = await getJson(
      `${url}?limit=${ROWS_LIMIT}&offset=${offset}&keepAlive=true`,
      bearer,
    );
    requests++;
    rows += page.body.Count;
    bytes += page.bytes;
    if (!page.body.HasMore) return { rows, bytes, requests };
  }
}

/**
 * The baseline: the client's profile documents through a raw driver cursor, every document
 * iterated; once bare, once JSON.stringify'd (the export's rows are JSON text).
 */
async function rawCursor(db, clientId, stringify) {
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  const cursor = db.collection('profiles').find({ clientId }).batchSize(ROWS_LIMIT);
  for await (const doc of cursor) {
    rows++;
    if (stringify) bytes += Buffer.byteLength(JSON.stringify(doc)) + 1;
  }
  return { rows, bytes, ms: performance.now() - started };
}

/**
 * What the worker's reads cost on their own: the same documents each by `_id`, 20 at a time
 * (ProfileExportReader's READ_PARALLEL), with nothing mapped or written.
 */
async function rawById(db, clientId, count) {
  const started = performance.now();
  const profiles = db.collection('profiles');
  let rows = 0;
  for (let first = 1; first <= count; first += 20) {
    const ids = Array.from({ length: Math.min(20, count - first + 1) }, (_, i) => first + i);
    const docs = await Promise.all(ids.map((id) => profiles.findOne({ _id: `${clientId}|${id}` })));
    rows += docs.filter(Boolean).length;
  }
  return { rows, ms: performance.now() - started };
}

async function main() {
  const { engine, redisServer, env, api, worker, origin, close } =
    await startServiceStack('export');
  let failed = true;
  try {
    const tenant = await seed.createTenant({ origin, env });
    const bearer = `Bearer ${tenant.token}`;
    const base = `${origin}/Profiles/v4/${tenant.clientId}/Bulk/Export`;
    const mongo = await MongoClient.connect(engine.uri);
    const db = mongo.db('bench');

    // Seeding inserts profile documents in the stored form (clones of the template profile,
    // which went through the API and the worker) and the profile id hint, ids 1..COUNT. That
    // is all an export reads: the worker's ProfileExportReader reads `<client>|<id>` by
    // `_id` with the hint's `last`, and no history, read model or search key index.
    const seeding = Date.now();
    await seed.seedProfiles({ db, tenant, from: 1, to: COUNT });
    log(`seeded ${COUNT} profiles in ${((Date.now() - seeding) / 1000).toFixed(1)} s`);

    const rss = { api: [], worker: [], engine: [] };
    const sampler = setInterval(() => {
      rss.api.push(rssMiB(api.pid));
      rss.worker.push(rssMiB(worker.pid));
      rss.engine.push(rssMiB(engine.child.pid));
    }, 500);
    // CPU of each process over the build: which of them the build's time is spent in.
    const procs = { api: api.pid, worker: worker.pid, engine: engine.child.pid };
    const cpuBefore = Object.fromEntries(Object.entries(procs).map(([k, pid]) => [k, cpuMs(pid)]));
    const started = performance.now();
    const initiated = await fetch(base, {
      method: 'POST',
      headers: { Authorization: bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ SegmentName: 'bench' }),
    });
    if (initiated.status !== 201) throw new Error(`Initiate: ${initiated.status}`);
    const token = (await initiated.json()).AccessToken;
    let status;
    // [ms since Initiate, RowCount] at each change seen: the first page, then the pace.
    const progress = [];
    for (;;) {
      status = (await getJson(`${base}/${token}`, bearer)).body;
      if (status.RowCount !== progress.at(-1)?.[1])
        progress.push([performance.now() - started, status.RowCount]);
      if (status.Status === 'Complete') break;
      if (status.Status === 'Failed') throw new Error(`export failed: ${JSON.stringify(status)}`);
      await sleep(POLL_MS);
    }
    const built = performance.now();
    const cpu = Object.fromEntries(
      Object.entries(procs).map(([k, pid]) => [k, (cpuMs(pid) - cpuBefore[k]) / status.RowCount]),
    );
    log(`export ${token} Complete: ${status.RowCount} rows, ${status.ByteCount} bytes`);

    // keepAlive=true: the export stays Complete, so the read order changes nothing.
    const stream = await readStream(`${base}/${token}/Stream?keepAlive=true`, bearer);
    const streamed = performance.now();
    const pages = await readPages(`${base}/${token}/Rows`, bearer);
    const paged = performance.now();
    clearInterval(sampler);
    if (stream.rows !== status.RowCount || stream.bytes !== status.ByteCount)
      log(`Stream: ${stream.rows} rows, ${stream.bytes} bytes, unlike the status's counts`);
    if (pages.rows !== status.RowCount) log(`Rows: ${pages.rows} rows, unlike the RowCount`);
    const committed = await fetch(`${base}/${token}/Commit`, {
      method: 'POST',
      headers: { Authorization: bearer },
    });
    if (committed.status !== 200) log(`Commit: ${committed.status}`);

    // The baseline, after the export (both read documents the seeding just wrote).
    // Each with the engine's CPU per row, to set beside the build's.
    const withEngineCpu = async (read) => {
      const before = cpuMs(engine.child.pid);
      const result = await read();
      return { ...result, engineMs: (cpuMs(engine.child.pid) - before) / result.rows };
    };
    const bare = await withEngineCpu(() => rawCursor(db, tenant.clientId, false));
    const raw = await withEngineCpu(() => rawCursor(db, tenant.clientId, true));
    const byId = await withEngineCpu(() => rawById(db, tenant.clientId, COUNT));

    const perSecond = (count, ms) => (count / ms) * 1000;
    const rawRate = perSecond(raw.rows, raw.ms);
    const rates = {
      build: perSecond(status.RowCount, built - started),
      stream: perSecond(stream.rows, streamed - built),
      pages: perSecond(pages.rows, paged - streamed),
      endToEnd: perSecond(stream.rows, streamed - started),
      byId: perSecond(byId.rows, byId.ms),
    };
    // The build's pace once the first page is saved (the queue's pick-up and the first run
    // left out): does a page cost the same at the end as at the start?
    const [firstAt, firstRows] = progress.find(([, rows]) => rows > 0);
    const pace = perSecond(status.RowCount - firstRows, built - started - firstAt);
    const ratio = (rate) => `${((rate / rawRate) * 100).toFixed(1)} %`;
    const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
    const took = (read) => `${seconds(read.ms)}, engine CPU ${read.engineMs.toFixed(2)} ms/row`;
    const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
    const range = (values) => {
      const seen = values.filter(Number.isFinite);
      return `${Math.min(...seen).toFixed(0)}-${Math.max(...seen).toFixed(0)} MiB`;
    };
    const table = [
      ['rows exported (RowCount)', `${status.RowCount} (${mb(status.ByteCount)} of rows)`],
      [
        'build (Initiate to Complete)',
        `${seconds(built - started)}: ${rates.build.toFixed(0)} rows/s`,
      ],
      ['  first page seen after', `${seconds(firstAt)} (${firstRows} rows)`],
      ['  build after the first page, rows/s', pace.toFixed(0)],
      [
        '  CPU ms per row during the build',
        `worker ${cpu.worker.toFixed(2)}, engine ${cpu.engine.toFixed(2)}, api ${cpu.api.toFixed(2)}`,
      ],
      [
        'Stream (NDJSON), rows/s',
        `${rates.stream.toFixed(0)} (${seconds(streamed - built)}, ${mb(stream.bytes)})`,
      ],
      [
        `Rows (limit ${ROWS_LIMIT}), rows/s`,
        `${rates.pages.toFixed(0)} (${seconds(paged - streamed)}, ${pages.requests} requests, ${mb(pages.bytes)})`,
      ],
      ['Initiate to streamed, rows/s', rates.endToEnd.toFixed(0)],
      ['raw cursor, bare, rows/s', `${perSecond(bare.rows, bare.ms).toFixed(0)} (${took(bare)})`],
      [
        'raw cursor + JSON.stringify, rows/s',
        `${rawRate.toFixed(0)} (${took(raw)}, ${mb(raw.bytes)})`,
      ],
      ['raw findOne by _id, 20 at once, rows/s', `${rates.byId.toFixed(0)} (${took(byId)})`],
      ['ratio build / raw cursor', ratio(rates.build)],
      ['ratio build / raw by _id', `${((rates.build / rates.byId) * 100).toFixed(1)} %`],
      ['ratio Stream / raw cursor', ratio(rates.stream)],
      ['ratio Rows / raw cursor', ratio(rates.pages)],
      ['ratio Initiate to streamed / raw cursor', ratio(rates.endToEnd)],
      ['api RSS during the export', range(rss.api)],
      ['worker RSS during the export', range(rss.worker)],
      ['engine RSS during the export', range(rss.engine)],
    ];
    const width = Math.max(...table.map(([name]) => name.length));
    console.log(`\nbulk export of ${COUNT} profiles (engine: FerretDB on SQLite)`);
    for (const [name, value] of table) console.log(`  ${name.padEnd(width)}  ${value}`);
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
