'use strict';
// Seeding and the write-side measurements of `npm run bench` (see bench.js).
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { ROOT } = require('../lib/engines');
const { cpuMs } = require('../lib/proc-cpu');

const CLIENT_ID = 'bench';

const crmId = (i) => `CRM-${i}`;
const email = (i) => `p${i}@example.com`;
const memberNo = (i) => `M${i}`;

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function call(origin, method, pathname, auth, body, type = 'application/json') {
  const res = await fetch(`${origin}${pathname}`, {
    method,
    headers: {
      ...(auth ? { Authorization: auth } : {}),
      ...(body ? { 'Content-Type': type } : {}),
    },
    body:
      body === undefined ? undefined : type === 'application/json' ? JSON.stringify(body) : body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const localized = (Name) => [{ Locale: 'en-us', Name }];

/**
 * A tenant through the admin CLI and the Configuration API, and one profile of the bench's
 * shape created through the API: its stored document is the template of the seeded ones.
 * `clientId`: the tenant's id (`bench` by default; a bench of several tenants names each);
 * `root`: the checkout whose built admin CLI creates it (this one by default).
 */
async function createTenant({ origin, env, clientId = CLIENT_ID, root = ROOT }) {
  const cli = spawnSync(
    process.execPath,
    [
      path.join(root, 'dist/apps/api/apps/api/src/admin/cli.js'),
      'create-client',
      '--client-id',
      clientId,
      '--user-id',
      'bench',
    ],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  if (cli.status !== 0) throw new Error(`create-client: ${cli.stderr}`);
  const created = JSON.parse(cli.stdout);
  const tokenRes = await call(
    origin,
    'POST',
    '/oauth2/v1/token',
    undefined,
    new URLSearchParams({
      grant_type: 'client_credentials',
      scope: `${clientId}/bench`,
      client_id: created.oauthClientId,
      client_secret: created.oauthClientSecret,
    }).toString(),
    'application/x-www-form-urlencoded',
  );
  const token = tokenRes.body.access_token;
  const auth = `Bearer ${token}`;
  const post = async (p, body) => {
    const res = await call(origin, 'POST', `/Profiles/v4/${clientId}/${p}`, auth, body);
    if (res.status !== 201) throw new Error(`POST ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const types = {
    CustomerTypes: ['Customer'],
    AddressTypes: ['Home'],
    AlternateIdTypes: ['CRM'],
    EmailTypes: ['Personal'],
    PhoneTypes: ['Mobile'],
  };
  for (const [kind, names] of Object.entries(types)) {
    await post(kind, {
      [kind]: names.map((TypeName) => ({ TypeName, LocalizedFields: localized(TypeName) })),
    });
  }
  await post('ConsentTypes', {
    ConsentTypes: ['Terms', 'Email'].map((TypeName) => ({
      TypeName,
      IsActive: true,
      LocalizedFields: localized(TypeName),
      Versions: [
        {
          ConsentVersion: '1.0',
          LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: TypeName }],
        },
      ],
    })),
  });
  await post('CustomFields/Text', {
    TextFields: ['Tier', 'MemberNo', 'Segment'].map((Name) => ({
      Name,
      LocalizedDisplayNames: localized(Name),
    })),
  });
  const programs = await post('Programs', {
    Programs: [
      {
        Name: 'Newsletter',
        ProgramType: 'Marketing',
        Filters: [
          {
            Name: 'News by email',
            ChannelID: 'Email',
            PreferenceAttributes: [{ ID: 'Topic', DisplayOrder: 1 }],
          },
        ],
      },
    ],
  });
  const program = programs.Programs[0];
  const preference = {
    ProgramId: String(program.Id),
    ChannelId: 'Email',
    FilterId: String(program.Filters[0].ID),
    PreferenceAttributes: [{ Key: 'Topic', Value: 'Sports' }],
  };
  const created1 = await call(origin, 'POST', `/Profiles/v4/${clientId}/Profile`, auth, {
    CustomerType: 'Customer',
    CustomerName: { FirstName: 'Template', LastName: 'Profile' },
    DefaultLocale: 'en-us',
    Emails: [
      {
        EmailAddress: 'template@example.com',
        EmailAddressType: 'Personal',
        EmailPreferences: [preference],
        Consents: [{ ConsentType: 'Email', ConsentStatus: 1 }],
      },
    ],
    PhoneNumbers: [{ PhoneNumber: '+1 555 000 0000', PhoneType: 'Mobile' }],
    Addresses: [
      {
        AddressType: 'Home',
        Address1: '1 Main St',
        City: 'Springfield',
        StateProvince: 'IL',
        PostalCode: '12345',
      },
    ],
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'CRM-template' }],
    CustomFields: [
      { Name: 'Tier', Value: 'silver' },
      { Name: 'MemberNo', Value: 'M-template' },
      { Name: 'Segment', Value: 'retail' },
    ],
    ProfileTags: [{ Name: 'vip' }, { Name: 'newsletter' }],
    Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }],
  });
  if (created1.status !== 202)
    throw new Error(`template: ${created1.status} ${JSON.stringify(created1.body)}`);
  const templateId = created1.body.ProfileId;
  for (;;) {
    const got = await call(origin, 'GET', `/Profiles/v4/${clientId}/Profile/${templateId}`, auth);
    if (got.body?.UpdateStatus === 'Complete') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    clientId,
    userId: 'bench',
    token,
    apiHashKey: created.apiHashKey,
    oauthClientId: created.oauthClientId,
    oauthClientSecret: created.oauthClientSecret,
    templateId,
    /** The program of the template's email opt-in (contact decisions ask about it). */
    programId: preference.ProgramId,
    historyIds: [],
  };
}

/** The token endpoint's form body for the tenant's OAuth client (client credentials). */
function tokenForm(tenant) {
  return new URLSearchParams({
    grant_type: 'client_credentials',
    scope: `${tenant.clientId}/${tenant.userId}`,
    client_id: tenant.oauthClientId,
    client_secret: tenant.oauthClientSecret,
  }).toString();
}

/** Profiles `from`..`to` (skipping the template), stored as the worker would store them. */
async function seedProfiles({ db, tenant, from, to }) {
  const { clientId } = tenant;
  const profiles = db.collection('profiles');
  const claims = db.collection('alternate_id_claims');
  const template = await profiles.findOne({ _id: `${clientId}|${tenant.templateId}` });
  const batch = 500;
  for (let start = from; start <= to; start += batch) {
    const docs = [];
    const claimDocs = [];
    for (let i = start; i <= Math.min(to, start + batch - 1); i++) {
      if (i === tenant.templateId) continue;
      const doc = structuredClone(template);
      doc._id = `${clientId}|${i}`;
      doc.profileId = i;
      doc.appliedSeq = 1;
      doc.data.CustomerName.FirstName = `First${i}`;
      doc.data.CustomerName.LastName = `Last${i % 997}`;
      doc.data.Emails[0].EmailAddress = email(i);
      doc.data.Emails[0].Key = email(i);
      const digits = `1555${String(i).padStart(7, '0')}`;
      doc.data.PhoneNumbers[0].PhoneNumber = `+${digits}`;
      doc.data.PhoneNumbers[0].PhoneNumberNumeric = Number(digits);
      doc.data.AlternateIds[0].AlternateId = crmId(i);
      doc.data.AlternateIds[0].Key = `crm|${crmId(i).toLowerCase()}`;
      doc.data.CustomFields.find((f) => f.Name === 'MemberNo').Value = memberNo(i);
      docs.push(doc);
      claimDocs.push({
        _id: `${clientId}|crm|${crmId(i).toLowerCase()}`,
        clientId,
        profileId: i,
      });
    }
    if (docs.length) {
      await profiles.insertMany(docs, { ordered: false });
      await claims.insertMany(claimDocs, { ordered: false });
    }
  }
  await db
    .collection('profile_id_hints')
    .replaceOne({ _id: clientId }, { _id: clientId, last: to }, { upsert: true });
}

async function readSeqs(redis, clientId, ids) {
  // Not a pipeline: on a Redis Cluster one pipeline's keys must share a slot (the client
  // pipelines these commands itself, autopipelining).
  const results = await Promise.all(
    ids.map((id) => redis.hmget(`bench:pm:{${clientId}|${id}}`, 'v', 'acc')),
  );
  return results.map(([v, acc]) => ({ v: Number(v ?? 0), acc: Number(acc ?? 0) }));
}

/** Until every accepted write of these profiles is applied (read model: acc <= v). */
async function waitApplied({ redis, clientId, ids, timeoutMs = 600000 }) {
  const deadline = Date.now() + timeoutMs;
  const unique = [...new Set(ids)];
  for (;;) {
    const seqs = await readSeqs(redis, clientId, unique);
    if (seqs.every((s) => s.acc <= s.v)) return;
    if (Date.now() > deadline) throw new Error('writes not applied in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Merges answered 503 and sent again (printed with the figures). */
const retried503 = { count: 0 };

/** Sends one merge and resolves when it is applied: the accept-to-Complete time in ms. */
async function mergeAndWait({ origin, redis, tenant, id, body }) {
  const t0 = performance.now();
  let res;
  for (;;) {
    res = await call(
      origin,
      'POST',
      `/Profiles/v4/${tenant.clientId}/Profile/${id}`,
      `Bearer ${tenant.token}`,
      body,
    );
    // A 503 (the request deadline) is what a client retries; counted, and the time counts.
    if (res.status !== 503) break;
    retried503.count++;
    process.stderr.write(`[bench] merge ${id}: 503, retried (${JSON.stringify(res.body)})\n`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (res.status !== 202) throw new Error(`merge ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  const key = `bench:pm:{${tenant.clientId}|${id}}`;
  const seq = Number(await redis.hget(key, 'acc'));
  for (;;) {
    const v = Number((await redis.hget(key, 'v')) ?? 0);
    if (v >= seq) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Many merges at once, on distinct profiles: applied writes per second at saturation. */
async function workerSaturation({ origin, redis, tenant, ids, procs }) {
  const count = Math.min(ids.length, 600);
  const targets = [...new Set(ids)].slice(0, count);
  const before = Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, cpuMs(p.pid)]));
  const started = performance.now();
  const times = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < targets.length) {
        const id = targets[next++];
        times.push(
          await mergeAndWait({
            origin,
            redis,
            tenant,
            id,
            body: { CustomFields: [{ Name: 'Segment', Value: `s${next}` }] },
          }),
        );
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = Object.fromEntries(
    Object.entries(procs).map(([k, p]) => [k, (cpuMs(p.pid) - before[k]) / targets.length]),
  );
  return {
    perSecond: targets.length / elapsed,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    cpu,
  };
}

/** Merges offered at a fixed rate (distinct profiles in turn): accept-to-Complete latency. */
async function acceptToComplete({ origin, redis, tenant, ids, rate, seconds }) {
  const targets = [...new Set(ids)];
  const total = Math.max(10, Math.floor(rate * seconds));
  const pending = [];
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      mergeAndWait({
        origin,
        redis,
        tenant,
        id: targets[n % targets.length],
        body: { CustomFields: [{ Name: 'Segment', Value: `r${n}` }] },
      }),
    );
  }
  const times = await Promise.all(pending);
  return {
    rate: total / ((performance.now() - started) / 1000),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
  };
}

/**
 * The physical limit of applying a write on this engine: a raw driver loop doing a read, a
 * replace and a history insert by `_id`, with the worker's concurrency (4).
 */
async function rawDriverLoop({ db, seconds, procs }) {
  const template = await db.collection('profiles').findOne({});
  const raw = db.collection('raw_profiles');
  const history = db.collection('raw_history');
  const n = 1000;
  await raw.deleteMany({});
  for (let start = 0; start < n; start += 500) {
    await raw.insertMany(
      Array.from({ length: 500 }, (_, k) => ({ ...template, _id: `raw|${start + k}` })),
    );
  }
  await new Promise((r) => setTimeout(r, 600)); // the engine's _id index step
  const before = Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, cpuMs(p.pid)]));
  const deadline = performance.now() + seconds * 1000;
  const times = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const id = `raw|${Math.floor(Math.random() * n)}`;
        const doc = await raw.findOne({ _id: id });
        await raw.replaceOne({ _id: id }, { ...doc, appliedSeq: (doc.appliedSeq || 0) + 1 });
        await history.insertOne({
          _id: randomUUID(),
          profile: id,
          entries: [{ snapshot: 'x'.repeat(1000) }],
        });
        times.push(performance.now() - t0);
      }
    }),
  );
  const cpu = Object.fromEntries(
    Object.entries(procs).map(([k, p]) => [k, (cpuMs(p.pid) - before[k]) / times.length]),
  );
  return {
    perSecond: times.length / seconds,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    cpu,
  };
}

/** Ten real writes on each of `count` profiles (history, the disk figure); their ids. */
async function tenWrites({ origin, redis, tenant, count, ids }) {
  const targets = [...new Set(ids)].slice(0, count);
  for (let round = 0; round < 10; round++) {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < targets.length) {
          const id = targets[next++];
          for (;;) {
            const res = await call(
              origin,
              'POST',
              `/Profiles/v4/${tenant.clientId}/Profile/${id}`,
              `Bearer ${tenant.token}`,
              {
                CustomFields: [{ Name: 'Tier', Value: `t${round}` }],
                Emails: [
                  { EmailAddress: `extra${round}.${id}@example.com`, EmailAddressType: 'Personal' },
                ],
              },
            );
            // A 503 (the request deadline) is sent again, as a client would, and counted.
            if (res.status === 503) {
              retried503.count++;
              process.stderr.write(`[bench] seeding merge ${id}: 503, retried\n`);
              await new Promise((r) => setTimeout(r, 100));
              continue;
            }
            if (res.status !== 202) {
              process.stderr.write(
                `[bench] seeding merge ${id}: ${res.status} ${JSON.stringify(res.body)}\n`,
              );
            }
            break;
          }
        }
      }),
    );
  }
  await waitApplied({ redis, clientId: tenant.clientId, ids: targets });
  return targets;
}

module.exports = {
  tokenForm,
  retried503,
  createTenant,
  seedProfiles,
  readSeqs,
  waitApplied,
  workerSaturation,
  acceptToComplete,
  rawDriverLoop,
  tenWrites,
  crmId,
  email,
  memberNo,
};
