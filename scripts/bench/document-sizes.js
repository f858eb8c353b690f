'use strict';
// `node scripts/bench/document-sizes.js`: the sizes docs/scaling.md's capacity model starts
// from. Runs the service as the benches do (scripts/lib/service-stack.js: a scratch engine and
// Redis, the built api and one worker), makes the bench's tenant and template profile
// (scripts/bench/seed.js: contact elements, an alternate id, custom fields, tags, a preference
// with an attribute, consents), seeds --profiles of that shape, gives --written of them ten real
// merges through the API, then prints per collection the documents' count and their BSON size
// (mean, max: what MongoDB stores before compression) and per Redis key kind the keys' count and
// MEMORY USAGE. Sizes, not speed: nothing here is timed.
const { MongoClient, BSON } = require('mongodb');
const Redis = require('ioredis');
const { startServiceStack } = require('../lib/service-stack');
const seed = require('./seed');

const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const PROFILES = arg('profiles', 200);
const WRITTEN = arg('written', 20);

async function main() {
  const stack = await startServiceStack('sizes');
  let ok = false;
  const mongo = await MongoClient.connect(stack.env.MONGODB_URI.replace(/bench$/, ''));
  const redis = new Redis(stack.env.REDIS_URL);
  try {
    const db = mongo.db('bench');
    const tenant = await seed.createTenant({ origin: stack.origin, env: stack.env });
    await seed.seedProfiles({ db, tenant, from: 1, to: PROFILES });
    await redis.del(`${stack.env.QUEUE_PREFIX}:kx:built`);
    const ids = Array.from({ length: WRITTEN }, (_, i) => i + 2);
    await seed.tenWrites({ origin: stack.origin, redis, tenant, count: WRITTEN, ids });
    // Every profile once through GET: its read model entry exists, as for a working set.
    for (let id = 1; id <= PROFILES; id++) {
      await fetch(`${stack.origin}/Profiles/v4/${tenant.clientId}/Profile/${id}`, {
        headers: { Authorization: `Bearer ${tenant.token}` },
      });
    }
    while (!(await redis.exists(`${stack.env.QUEUE_PREFIX}:kx:built`)))
      await new Promise((resolve) => setTimeout(resolve, 200));

    console.log(`profiles ${PROFILES}, ${WRITTEN} of them with ten merges through the API`);
    console.log('collection                     docs   mean B    max B   _id mean B');
    const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
    for (const name of names) {
      const docs = await db.collection(name).find({}).toArray();
      if (!docs.length) continue;
      const sizes = docs.map((d) => BSON.calculateObjectSize(d));
      const ids = docs.map((d) => String(d._id).length);
      const mean = (xs) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
      console.log(
        `${name.padEnd(28)} ${String(docs.length).padStart(6)} ${String(mean(sizes)).padStart(8)} ${String(Math.max(...sizes)).padStart(8)} ${String(mean(ids)).padStart(8)}`,
      );
    }

    console.log('redis key kind                 keys   mean B    max B');
    const kinds = new Map();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const parts = key.split(':');
        const kind = parts.slice(0, parts[1] === 'bull' ? 3 : 2).join(':');
        const bytes = (await redis.memory('USAGE', key)) ?? 0;
        const entry = kinds.get(kind) ?? { count: 0, total: 0, max: 0 };
        entry.count += 1;
        entry.total += bytes;
        entry.max = Math.max(entry.max, bytes);
        kinds.set(kind, entry);
      }
    } while (cursor !== '0');
    for (const [kind, { count, total, max }] of [...kinds].sort()) {
      console.log(
        `${kind.padEnd(28)} ${String(count).padStart(6)} ${String(Math.round(total / count)).padStart(8)} ${String(max).padStart(8)}`,
      );
    }
    const info = await redis.info('memory');
    console.log(`redis used_memory ${/used_memory:(\d+)/.exec(info)[1]} B`);
    ok = true;
  } finally {
    await redis.quit();
    await mongo.close();
    await stack.close(ok);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
