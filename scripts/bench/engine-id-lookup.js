'use strict';
// Benchmark of `_id` lookups on the embedded engine, with and without the `_id` index our
// wrapper adds (tools/ferretdb/idindex.go), side by side in one run: two engines, each
// seeded with 100 and then 10,000 profile-sized documents (~5 KB, string _id), and for each
// size the time and engine CPU per findOne and replaceOne by `_id`. Prints one table and
// the growth 10k/100 per engine. A script that prints figures; nothing asserts them.
// Usage: npm run setup && node scripts/bench/engine-id-lookup.js [calls=200]
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { MongoClient } = require('mongodb');
const { startFerretdb, stop } = require('../lib/engines');
const { cpuMs } = require('../lib/proc-cpu');

const calls = Number(process.argv[2] || 200);
const SIZES = [100, 10000];

function profileDoc(i) {
  return {
    _id: `bench|${i}`,
    clientId: 'bench',
    profileId: i,
    state: 'active',
    appliedSeq: 1,
    data: {
      CustomerName: { FirstName: `First${i}`, LastName: `Last${i}` },
      Emails: Array.from({ length: 3 }, (_, n) => ({
        EmailAddress: `p${i}.${n}@example.com`,
        Key: `p${i}.${n}@example.com`,
        IsActive: true,
      })),
      CustomFields: Array.from({ length: 20 }, (_, n) => ({
        Name: `field${n}`,
        Key: `field${n}`,
        Value: 'x'.repeat(150),
      })),
    },
  };
}

async function seed(collection, from, to) {
  for (let start = from; start < to; start += 500) {
    const batch = [];
    for (let i = start; i < Math.min(to, start + 500); i++) batch.push(profileDoc(i));
    await collection.insertMany(batch, { ordered: false });
  }
}

async function measure(engine, collection, size, op) {
  const before = cpuMs(engine.child.pid);
  const started = process.hrtime.bigint();
  for (let n = 0; n < calls; n++) {
    const i = Math.floor(Math.random() * size);
    if (op === 'findOne') await collection.findOne({ _id: `bench|${i}` });
    else await collection.replaceOne({ _id: `bench|${i}` }, { ...profileDoc(i), appliedSeq: n });
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { msPerCall: ms / calls, cpuMsPerCall: (cpuMs(engine.child.pid) - before) / calls };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcp-bench-id-'));
  const engines = {
    indexed: await startFerretdb({ dataDir: path.join(dir, 'indexed') }),
    'no index': await startFerretdb({
      dataDir: path.join(dir, 'bare'),
      extraArgs: ['--no-id-index'],
    }),
  };
  const rows = [];
  try {
    const clients = {};
    for (const [name, engine] of Object.entries(engines)) {
      clients[name] = await MongoClient.connect(engine.uri);
    }
    let seeded = 0;
    for (const size of SIZES) {
      for (const name of Object.keys(engines)) {
        await seed(clients[name].db('bench').collection('profiles'), seeded, size);
      }
      seeded = size;
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the indexer's next pass
      for (const op of ['findOne', 'replaceOne']) {
        for (const [name, engine] of Object.entries(engines)) {
          const collection = clients[name].db('bench').collection('profiles');
          rows.push({
            engine: name,
            docs: size,
            op,
            ...(await measure(engine, collection, size, op)),
          });
        }
      }
    }
    for (const client of Object.values(clients)) await client.close();
  } finally {
    for (const engine of Object.values(engines)) await stop(engine.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const fmt = (n) => n.toFixed(2).padStart(9);
  console.log(`engine      docs  op          ms/call  engine CPU ms/call   (${calls} calls each)`);
  for (const r of rows) {
    console.log(
      `${r.engine.padEnd(10)} ${String(r.docs).padStart(6)}  ${r.op.padEnd(10)} ${fmt(r.msPerCall)} ${fmt(r.cpuMsPerCall)}`,
    );
  }
  console.log('\ngrowth 10k/100 (ms per call), and indexed vs no index at 10k:');
  for (const op of ['findOne', 'replaceOne']) {
    const at = (engine, docs) =>
      rows.find((r) => r.engine === engine && r.docs === docs && r.op === op);
    const growth = (engine) => (at(engine, 10000).msPerCall / at(engine, 100).msPerCall).toFixed(2);
    const speedup = (at('no index', 10000).msPerCall / at('indexed', 10000).msPerCall).toFixed(1);
    console.log(
      `${op.padEnd(10)} indexed x${growth('indexed')}   no index x${growth('no index')}   indexed is ${speedup}x faster at 10k`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
