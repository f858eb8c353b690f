'use strict';
// Redis bytes per profile of the search key index alone (issue 41, item 5), without the
// engine: profiles of the bench's shape (seed.js: unique first name, email, phone, CRM id
// and member number; one of 997 last names; shared city, tier, segment and tags) are added
// straight through the index writer (ProfileKeyIndex.addAll, as the rebuild adds a page),
// into a redis-server of its own (no persistence), and the script prints `INFO memory`'s
// used_memory before and after, per profile, and `MEMORY USAGE` per kind of key.
//
//   node scripts/bench/search-index-memory.js --sizes=100000,1000000 [--sample=10]
//
// `--sample=N`: MEMORY USAGE of every Nth key per kind (1: every key), scaled up to all.
require('../lib/ts-require');
require('reflect-metadata');
const os = require('node:os');
const path = require('node:path');
const fs = require('node:fs');
const Redis = require('ioredis');
const { startRedis } = require('../lib/engines');
const { RedisService } = require('../../libs/shared/src/redis/redis.service');
const { ProfileRules } = require('../../libs/profiles/src/domain/profile-rules');
const {
  ProfileKeyIndex,
} = require('../../libs/profiles/src/read/search/profile-key-index.service');

const arg = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const SIZES = arg('sizes', '100000').split(',').map(Number);
const SAMPLE = Number(arg('sample', '1'));
const CLIENT_ID = 'bench';
const BATCH = 500;

/** The searchable data of seeded profile `i` (seed.js's template and its changes). */
function profileOf(i) {
  const digits = `1555${String(i).padStart(7, '0')}`;
  return {
    clientId: CLIENT_ID,
    profileId: i,
    state: 'active',
    data: {
      CustomerName: { FirstName: `First${i}`, LastName: `Last${i % 997}` },
      Emails: [{ EmailAddress: `p${i}@example.com`, Key: `p${i}@example.com` }],
      PhoneNumbers: [{ PhoneNumber: `+${digits}`, PhoneNumberNumeric: Number(digits) }],
      Addresses: [{ City: 'Springfield', StateProvince: 'IL' }],
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: `CRM-${i}`, Key: `crm|crm-${i}` }],
      CustomFields: [
        { Name: 'Tier', Value: 'silver' },
        { Name: 'MemberNo', Value: `M${i}` },
        { Name: 'Segment', Value: 'retail' },
      ],
      ProfileTags: [{ Name: 'vip' }, { Name: 'newsletter' }],
    },
  };
}

/** The kind of an index key: its search key's prefix; name runs by their length. */
function kindOf(key) {
  const inner = /\{[^:]*:(.*)\}/.exec(key)?.[1] ?? key;
  const run = /^(first|middle|last)~(.*)$/.exec(inner);
  if (run) return `${run[1]}~ (${run[2].length}-character run)`;
  const part = /\}:/.test(key) ? ' part' : '';
  return (/^[a-z]+[:~]/.exec(inner)?.[0] ?? inner) + part;
}

async function usedMemory(redis) {
  return Number(/used_memory:(\d+)/.exec(await redis.info('memory'))[1]);
}

async function byKind(redis) {
  const kinds = new Map();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${CLIENT_ID}:kx:*`, 'COUNT', 5000);
    cursor = next;
    const sampled = [];
    for (const key of keys) {
      const kind = kindOf(key);
      const k = kinds.get(kind) ?? {
        keys: 0,
        sampled: 0,
        bytes: 0,
        members: 0,
        encodings: new Map(),
      };
      kinds.set(kind, k);
      if (k.keys++ % SAMPLE === 0) {
        k.sampled++;
        sampled.push([k, key]);
      }
    }
    const answers = await Promise.all(
      sampled.map(async ([k, key]) => {
        const [bytes, type, encoding] = await Promise.all([
          redis.memory('USAGE', key, 'SAMPLES', 0),
          redis.type(key),
          redis.object('ENCODING', key),
        ]);
        const members = type === 'set' ? await redis.scard(key) : await redis.strlen(key);
        return [k, bytes, members, `${type}/${encoding}`];
      }),
    );
    for (const [k, bytes, members, encoding] of answers) {
      k.bytes += Number(bytes);
      k.members += members;
      k.encodings.set(encoding, (k.encodings.get(encoding) ?? 0) + 1);
    }
  } while (cursor !== '0');
  // The sampled keys' sums scaled to every key of their kind.
  for (const k of kinds.values()) {
    k.bytes = Math.round((k.bytes * k.keys) / k.sampled);
    k.members = Math.round((k.members * k.keys) / k.sampled);
  }
  return kinds;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kx-memory-'));
  const server = await startRedis({ dir, persist: false });
  const redis = new Redis(server.url);
  const service = Object.create(RedisService.prototype);
  Object.assign(service, {
    client: new Redis(server.url, { enableAutoPipelining: true }),
    cluster: false,
    settings: { queuePrefix: CLIENT_ID },
  });
  // The service's default split limit (SEARCH_INDEX_SET_SPLIT).
  const index = new ProfileKeyIndex(service, new ProfileRules([]), { searchIndexSetSplit: 500 });
  try {
    const before = await usedMemory(redis);
    let seeded = 0;
    for (const size of SIZES) {
      const started = Date.now();
      for (let from = seeded + 1; from <= size; from += BATCH) {
        const page = [];
        for (let i = from; i <= Math.min(size, from + BATCH - 1); i++) page.push(profileOf(i));
        await index.addAll(page);
      }
      seeded = size;
      const after = await usedMemory(redis);
      const kinds = await byKind(redis);
      console.log(
        `\n${size} profiles (added in ${((Date.now() - started) / 1000).toFixed(0)} s): ` +
          `used_memory ${before} -> ${after} B, ${((after - before) / size).toFixed(0)} B per profile`,
      );
      console.log('kind | keys | members | MEMORY USAGE | B/profile | encodings (sampled)');
      const rows = [...kinds].sort((a, b) => b[1].bytes - a[1].bytes);
      for (const [kind, k] of rows) {
        const enc = [...k.encodings].map(([e, n]) => `${e} ${n}`).join(', ');
        console.log(
          `${kind} | ${k.keys} | ${k.members} | ${k.bytes} | ${(k.bytes / size).toFixed(1)} | ${enc}`,
        );
      }
      const total = rows.reduce((sum, [, k]) => sum + k.bytes, 0);
      console.log(`all kx keys: ${total} B, ${(total / size).toFixed(1)} B per profile`);
    }
  } finally {
    redis.disconnect();
    service.client.disconnect();
    server.child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
