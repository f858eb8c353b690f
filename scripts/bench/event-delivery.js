'use strict';
// `npm run bench:events`: event deliveries to a webhook subscription (docs/events.md,
// "Deliveries"), through the service and its bare baseline side by side in one run on the
// embedded default. A receiver (node:http on 127.0.0.1, in this process) answers the
// subscription's handshake, verifies each delivery's Standard Webhooks signature and records
// when it arrived. The phases:
//
// 1. a tenant, a subscription to `standardfield.firstname.updated` (Validated), P profiles;
// 2. throughput: M merges changing FirstName, 32 clients at once (each its own profiles, in
//    order), until every accepted merge's change has arrived: events delivered per second
//    (M / (last arrival - first merge sent)), against a bare Bull queue on the same Redis
//    whose processor (concurrency 4, the worker's default) signs and POSTs a body of the same
//    size to the same receiver (M / (last arrival - first job added));
// 3. latency: merges at a steady rate (distinct profiles in turn): change-to-delivery p50 and
//    p99, and the bare loop's enqueue-to-arrival at the same rate;
// 4. outage: the receiver answers 503 to everything for a while as merges go on, then 204
//    again: what was sent, what arrived (lost, duplicates), the longest delay, and how long
//    the backlog took after the recovery (the retries follow EVENTS_DELIVERY_RETRY_DELAYS_MS,
//    set short here and printed).
//
// Prints the figures and the api's and the worker's RSS; nothing asserts them. With
// BENCH_ENGINE_COMMANDS=1 also the worker's engine commands per change in the throughput
// phase (scripts/lib/engine-command-counter.js).
//
//   --profiles=200        profiles written
//   --count=2000          merges (= events) of the throughput phase, and jobs of the baseline
//   --rate=50             merges per second of the latency phase (and jobs of its baseline)
//   --seconds=20          length of the latency phase
//   --outage-seconds=60   how long the receiver answers 503
//   --outage-rate=10      merges per second during the outage
//   --skip-outage         no outage phase
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const Queue = require('bull');
const { request } = require('undici');
const { Webhook } = require('standardwebhooks');
const { rssMiB } = require('../lib/node-process');
const { startServiceStack } = require('../lib/service-stack');
const seed = require('./seed');

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key, value ?? true];
  }),
);
const PROFILES = Number(args.profiles || 200);
const COUNT = Number(args.count || 2000);
const RATE = Number(args.rate || 50);
const SECONDS = Number(args.seconds || 20);
const OUTAGE_SECONDS = Number(args['outage-seconds'] || 60);
const OUTAGE_RATE = Number(args['outage-rate'] || 10);
const SKIP_OUTAGE = Boolean(args['skip-outage']);
/** Concurrent clients of the throughput phase. */
const CLIENTS = 32;
/** The worker's WORKER_CONCURRENCY default: the baseline processor's concurrency. */
const BASELINE_CONCURRENCY = 4;
/** Short retries, so an outage of a minute is caught up within the run. */
const RETRY_DELAYS_MS = '1000,2000,5000,10000,20000,30000,60000';
const EXTRA_ENV = {
  EVENTS_ALLOW_PRIVATE_TARGETS: 'true',
  EVENTS_DELIVERY_RETRY_DELAYS_MS: RETRY_DELAYS_MS,
};

const log = (message) => process.stderr.write(`[bench:events] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function call(origin, method, pathname, bearer, body) {
  const res = await fetch(`${origin}${pathname}`, {
    method,
    headers: {
      Authorization: bearer,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Polls `done` every 20 ms until it is true (true) or `timeoutMs` passed (false). */
async function waitUntil(done, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (done()) return true;
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
}

/**
 * The receiver: `/hook` for the service's subscription (the handshake answered with its
 * Challenge), `/base` for the baseline's POSTs. Each delivery's signature is verified (both
 * paths alike) and its arrival recorded; answered 204, or 503 to everything while `outage`.
 */
function startReceiver(baselineSecret) {
  const state = {
    outage: false,
    /** Arrivals answered 2xx: {at, eventId, profileId, sequence, firstName}. */
    service: [],
    baseline: [],
    /** Requests answered 503 during the outage. */
    rejected: 0,
    handshakes: 0,
    badSignatures: 0,
    /** A delivered body of the service (the baseline's template) and its size. */
    sample: null,
    sampleBytes: 0,
    serviceHook: null,
    baselineHook: new Webhook(baselineSecret),
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      if (state.outage) {
        state.rejected++;
        res.writeHead(503).end();
        return;
      }
      const isService = req.url === '/hook';
      if (isService && body.includes('"SubscriptionValidation"')) {
        const challenge = JSON.parse(body);
        if (challenge.Type === 'SubscriptionValidation') {
          state.handshakes++;
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ Challenge: challenge.Challenge }));
          return;
        }
      }
      let payload;
      try {
        payload = (isService ? state.serviceHook : state.baselineHook).verify(body, req.headers);
      } catch {
        state.badSignatures++;
        payload = JSON.parse(body);
      }
      const arrival = {
        at,
        eventId: payload.EventId,
        profileId: payload.ProfileId,
        sequence: payload.Sequence,
        firstName: payload.Data?.FirstName,
      };
      if (isService) {
        state.service.push(arrival);
        if (!state.sample) {
          state.sample = payload;
          state.sampleBytes = Buffer.byteLength(body);
        }
      } else {
        state.baseline.push(arrival);
      }
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      state.url = `http://127.0.0.1:${server.address().port}`;
      state.close = () =>
        new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        });
      resolve(state);
    });
  });
}

/**
 * One merge changing FirstName; a 503 (the request deadline) is sent again, as a client
 * would, and counted. The send time kept is the accepted attempt's. (An attempt answered 503
 * may still be applied later: docs/api.md, 503; its change then arrives as a second event.)
 */
async function merge(ctx, profileId, firstName) {
  for (;;) {
    const sentAt = performance.now();
    const res = await fetch(`${ctx.origin}/Profiles/v4/${ctx.clientId}/Profile/${profileId}`, {
      method: 'POST',
      headers: { Authorization: ctx.bearer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ CustomerName: { FirstName: firstName } }),
    });
    const text = await res.text();
    if (res.status === 503) {
      ctx.retried503++;
      log(`merge ${profileId} FirstName ${firstName}: 503, sent again (${text})`);
      await sleep(100);
      continue;
    }
    if (res.status !== 202) {
      ctx.refused++;
      log(`merge ${profileId} ${firstName}: ${res.status} ${text}`);
      return null;
    }
    const acceptedAt = performance.now();
    ctx.sent.set(changeKey(profileId, firstName), sentAt);
    return { sentAt, acceptedAt };
  }
}

/** Calls `fire(n)` at `rate` per second for `seconds` (not awaiting each); their promises. */
async function steady(rate, seconds, fire) {
  const total = Math.max(1, Math.floor(rate * seconds));
  const pending = [];
  const started = performance.now();
  for (let n = 0; n < total; n++) {
    const wait = started + (n * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(fire(n));
  }
  return { pending, total, started, ended: performance.now() };
}

/** The change a delivery carries: its profile and the FirstName a merge set. */
const changeKey = (profileId, firstName) => `${profileId}|${firstName}`;

/**
 * The arrivals whose FirstName starts with `prefix`: all of them, the first of each EventId,
 * and the first of each change (profile and FirstName: one merge).
 */
function arrivalsOf(list, prefix) {
  const all = list.filter((a) => typeof a.firstName === 'string' && a.firstName.startsWith(prefix));
  const byEvent = new Map();
  const byChange = new Map();
  for (const a of all) {
    if (!byEvent.has(a.eventId)) byEvent.set(a.eventId, a);
    const key = changeKey(a.profileId, a.firstName);
    if (!byChange.has(key)) byChange.set(key, a);
  }
  return { all, byEvent, byChange };
}

/** The changes of a phase whose merge was accepted (202). */
function sentKeys(ctx, prefix) {
  return [...ctx.sent.keys()].filter((key) => key.split('|')[1].startsWith(prefix));
}

/** Whether every one of `keys` arrived. */
function allArrived(list, prefix, keys) {
  const { byChange } = arrivalsOf(list, prefix);
  return keys.every((key) => byChange.has(key));
}

async function createProfiles(ctx, count) {
  const ids = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) {
        const i = next++;
        let res;
        for (;;) {
          res = await call(ctx.origin, 'POST', `/Profiles/v4/${ctx.clientId}/Profile`, ctx.bearer, {
            CustomerType: 'Customer',
            CustomerName: { FirstName: `p${i}`, LastName: 'Bench' },
          });
          // The request deadline, as for merges: sent again (a client would), and counted.
          if (res.status !== 503) break;
          ctx.created503++;
          await sleep(100);
        }
        if (res.status !== 202)
          throw new Error(`create profile: ${res.status} ${JSON.stringify(res.body)}`);
        ids.push(res.body.ProfileId);
      }
    }),
  );
  let pending = [...ids];
  const deadline = Date.now() + 120000;
  while (pending.length) {
    if (Date.now() > deadline) throw new Error(`${pending.length} profiles not applied in time`);
    const states = await Promise.all(
      pending.map((id) =>
        call(ctx.origin, 'GET', `/Profiles/v4/${ctx.clientId}/Profile/${id}`, ctx.bearer),
      ),
    );
    pending = pending.filter((_, i) => states[i].body?.UpdateStatus !== 'Complete');
    if (pending.length) await sleep(100);
  }
  return ids.sort((a, b) => a - b);
}

async function main() {
  const stack = await startServiceStack('events', EXTRA_ENV);
  const { redisServer, env, api, worker, origin, close, engineCommands } = stack;
  let failed = true;
  let receiver;
  let queue;
  const problems = [];
  try {
    const tenant = await seed.createTenant({ origin, env });
    const ctx = {
      origin,
      clientId: tenant.clientId,
      bearer: `Bearer ${tenant.token}`,
      /** Merges accepted: the send time of the accepted attempt, by change. */
      sent: new Map(),
      retried503: 0,
      created503: 0,
      refused: 0,
    };
    const baselineSecret = `whsec_${randomBytes(32).toString('base64')}`;
    receiver = await startReceiver(baselineSecret);
    const subs = `/Profiles/v4/${ctx.clientId}/Events/Subscriptions`;
    const created = await call(origin, 'POST', subs, ctx.bearer, {
      Name: 'bench',
      Url: `${receiver.url}/hook`,
      State: 'Active',
      Subscriptions: [{ Entity: 'StandardField', EventType: 'standardfield.firstname.updated' }],
    });
    if (created.status !== 201)
      throw new Error(`subscription: ${created.status} ${JSON.stringify(created.body)}`);
    const subscriptionId = created.body.SubscriptionId;
    receiver.serviceHook = new Webhook(created.body.Secret);
    const validating = performance.now();
    for (;;) {
      const got = await call(origin, 'GET', `${subs}/${subscriptionId}`, ctx.bearer);
      if (got.body?.ValidationStatus === 'Validated') break;
      if (got.body?.ValidationStatus === 'Failed')
        throw new Error(`handshake Failed: ${got.body.ValidationFailure}`);
      if (performance.now() - validating > 60000) throw new Error('not Validated in 60 s');
      await sleep(50);
    }
    const validatedMs = performance.now() - validating;
    log(`subscription ${subscriptionId} Validated after ${validatedMs.toFixed(0)} ms`);
    log(`api pid ${api.pid}, worker pid ${worker.pid}, receiver ${receiver.url}`);
    const ids = await createProfiles(ctx, PROFILES);
    log(`${ids.length} profiles created and applied`);

    const rss = { api: [], worker: [] };
    const sampler = setInterval(() => {
      rss.api.push(rssMiB(api.pid));
      rss.worker.push(rssMiB(worker.pid));
    }, 500);

    // Throughput: each client its own profiles (so a profile's merges go in order), M in all.
    const clients = Math.min(CLIENTS, ids.length);
    engineCommands?.reset();
    const throughputStart = performance.now();
    let lastAccepted = throughputStart;
    await Promise.all(
      Array.from({ length: clients }, async (_, w) => {
        for (let k = 0; k < COUNT; k++) {
          if ((k % ids.length) % clients !== w) continue;
          const done = await merge(ctx, ids[k % ids.length], `t${k}`);
          if (done) lastAccepted = Math.max(lastAccepted, done.acceptedAt);
        }
      }),
    );
    const tpKeys = sentKeys(ctx, 't');
    const acceptedCount = tpKeys.length;
    log(`throughput: ${acceptedCount} merges accepted; waiting for their events`);
    const throughputDone = await waitUntil(
      () => allArrived(receiver.service, 't', tpKeys),
      Math.max(300000, COUNT * 100),
    );
    const tp = arrivalsOf(receiver.service, 't');
    const workerCommands = engineCommands?.report(tp.byChange.size);
    if (!throughputDone)
      problems.push(`throughput: ${tp.byChange.size} of ${acceptedCount} changes arrived in time`);
    const tpFirst = Math.min(...tp.all.map((a) => a.at));
    const tpLast = Math.max(...tp.all.map((a) => a.at));
    const serviceRate = (tp.byChange.size / (tpLast - throughputStart)) * 1000;
    const acceptRate = (acceptedCount / (lastAccepted - throughputStart)) * 1000;

    // The bare baseline: a Bull queue on the same Redis, signing and POSTing the same body.
    const template = receiver.sample;
    if (!template) throw new Error('no event arrived: nothing to model the baseline on');
    const baselineUrl = `${receiver.url}/base`;
    const signer = new Webhook(baselineSecret);
    queue = new Queue('event-delivery-baseline', redisServer.url, { prefix: 'bench-baseline' });
    queue.process(BASELINE_CONCURRENCY, async (job) => {
      const { id, firstName } = job.data;
      const body = JSON.stringify({ ...template, EventId: id, Data: { FirstName: firstName } });
      const now = new Date();
      const res = await request(baselineUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signer.sign(id, now, body),
        },
        body,
      });
      await res.body.dump();
      if (res.statusCode >= 300) throw new Error(`baseline POST: ${res.statusCode}`);
    });
    const jobOptions = { attempts: 1, removeOnComplete: true, removeOnFail: 1000 };
    const baselineStart = performance.now();
    await queue.addBulk(
      Array.from({ length: COUNT }, (_, k) => ({
        data: { id: `b-${k}`, firstName: `bt${k}` },
        opts: jobOptions,
      })),
    );
    const baselineDone = await waitUntil(
      () => arrivalsOf(receiver.baseline, 'bt').byEvent.size >= COUNT,
      300000,
    );
    const bt = arrivalsOf(receiver.baseline, 'bt');
    if (!baselineDone) problems.push(`baseline: ${bt.byEvent.size} of ${COUNT} POSTs arrived`);
    const baselineRate =
      (bt.byEvent.size / (Math.max(...bt.all.map((a) => a.at)) - baselineStart)) * 1000;
    log(`throughput: service ${serviceRate.toFixed(0)}/s, baseline ${baselineRate.toFixed(0)}/s`);

    // Latency at a steady write rate: merges on distinct profiles in turn.
    const lat = await steady(RATE, SECONDS, (n) => merge(ctx, ids[n % ids.length], `l${n}`));
    await Promise.all(lat.pending);
    const laKeys = sentKeys(ctx, 'l');
    const latAccepted = laKeys.length;
    const latencyDone = await waitUntil(() => allArrived(receiver.service, 'l', laKeys), 120000);
    const la = arrivalsOf(receiver.service, 'l');
    if (!latencyDone)
      problems.push(`latency: ${la.byChange.size} of ${latAccepted} changes arrived`);
    const latencies = laKeys
      .filter((key) => la.byChange.has(key))
      .map((key) => la.byChange.get(key).at - ctx.sent.get(key));
    const latRate = (lat.total / (lat.ended - lat.started)) * 1000;

    const baseAdded = new Map();
    const baseLat = await steady(RATE, SECONDS, async (n) => {
      baseAdded.set(`bl${n}`, performance.now());
      await queue.add({ id: `bl-${n}`, firstName: `bl${n}` }, jobOptions);
    });
    await Promise.all(baseLat.pending);
    const baseLatDone = await waitUntil(
      () => arrivalsOf(receiver.baseline, 'bl').byEvent.size >= baseLat.total,
      120000,
    );
    const bl = arrivalsOf(receiver.baseline, 'bl');
    if (!baseLatDone) problems.push(`baseline latency: ${bl.byEvent.size} of ${baseLat.total}`);
    const baseLatencies = [...bl.byEvent.values()].map((a) => a.at - baseAdded.get(a.firstName));
    log(
      `latency: service p50 ${percentile(latencies, 50).toFixed(0)} ms, baseline p50 ${percentile(baseLatencies, 50).toFixed(1)} ms`,
    );

    // The outage: 503 to everything while merges go on, then 204 again.
    let outage = null;
    if (!SKIP_OUTAGE) {
      const rejectedBefore = receiver.rejected;
      receiver.outage = true;
      const outageStart = performance.now();
      log(`outage: the receiver answers 503 for ${OUTAGE_SECONDS} s`);
      const out = await steady(OUTAGE_RATE, OUTAGE_SECONDS, (n) =>
        merge(ctx, ids[n % ids.length], `o${n}`),
      );
      const remaining = outageStart + OUTAGE_SECONDS * 1000 - performance.now();
      if (remaining > 0) await sleep(remaining);
      await Promise.all(out.pending);
      const outKeys = sentKeys(ctx, 'o');
      const outAccepted = outKeys.length;
      receiver.outage = false;
      const recoveredAt = performance.now();
      const rejected = receiver.rejected - rejectedBefore;
      log(`outage over: ${outAccepted} merges accepted, ${rejected} requests answered 503`);
      const outageDone = await waitUntil(
        () => allArrived(receiver.service, 'o', outKeys),
        (OUTAGE_SECONDS + 300) * 1000,
      );
      const oa = arrivalsOf(receiver.service, 'o');
      const arrived = outKeys.filter((key) => oa.byChange.has(key));
      if (!outageDone)
        problems.push(`outage: ${arrived.length} of ${outAccepted} changes arrived in time`);
      const delays = arrived.map((key) => oa.byChange.get(key).at - ctx.sent.get(key));
      outage = {
        sent: outAccepted,
        arrived: arrived.length,
        lost: outAccepted - arrived.length,
        duplicates: oa.all.length - oa.byEvent.size,
        rejected,
        maxDelay: Math.max(...delays),
        recoveryToLast: Math.max(...oa.all.map((a) => a.at)) - recoveredAt,
        timedOut: !outageDone,
      };
    }
    clearInterval(sampler);

    // The whole run: duplicates, order per profile, anything unexpected, dead letters.
    const allEvents = new Map();
    for (const a of receiver.service) allEvents.set(a.eventId, (allEvents.get(a.eventId) ?? 0) + 1);
    const duplicates = [...allEvents.values()].reduce((sum, n) => sum + n - 1, 0);
    const lastSeq = new Map();
    let outOfOrder = 0;
    const seen = new Set();
    for (const a of receiver.service) {
      if (seen.has(a.eventId)) continue;
      seen.add(a.eventId);
      if ((lastSeq.get(a.profileId) ?? -1) > a.sequence) outOfOrder++;
      lastSeq.set(a.profileId, Math.max(lastSeq.get(a.profileId) ?? -1, a.sequence));
    }
    const unknown = new Set(
      receiver.service
        .filter((a) => !ctx.sent.has(changeKey(a.profileId, a.firstName)))
        .map((a) => a.eventId),
    ).size;
    // One change (one merge's FirstName) arriving as more than one event: the merge was
    // applied twice, with another write of the profile between the two.
    const eventsByChange = new Map();
    for (const a of receiver.service) {
      const key = changeKey(a.profileId, a.firstName);
      if (!eventsByChange.has(key)) eventsByChange.set(key, new Set());
      eventsByChange.get(key).add(a.eventId);
    }
    const repeated = [...eventsByChange].filter(([, events]) => events.size > 1);
    for (const [key, events] of repeated) {
      const sequence = receiver.service
        .filter((a) => a.profileId === Number(key.split('|')[0]))
        .filter((a, i, list) => list.findIndex((b) => b.eventId === a.eventId) === i)
        .map((a) => `${a.eventId}=${a.firstName}`)
        .join(' ');
      log(`change ${key} arrived as ${[...events].join(', ')}; the profile's events: ${sequence}`);
    }
    const deadLetters = await call(
      origin,
      'GET',
      `${subs}/${subscriptionId}/DeadLetters`,
      ctx.bearer,
    );
    const subscription = await call(origin, 'GET', `${subs}/${subscriptionId}`, ctx.bearer);
    const deadCount = Array.isArray(deadLetters.body?.DeadLetters)
      ? deadLetters.body.DeadLetters.length
      : JSON.stringify(deadLetters.body);

    const ms = (value) => `${value.toFixed(0)} ms`;
    const range = (values) => {
      const kept = values.filter(Number.isFinite);
      return `${Math.min(...kept).toFixed(0)}-${Math.max(...kept).toFixed(0)} MiB`;
    };
    const table = [
      ['retry delays (EVENTS_DELIVERY_RETRY_DELAYS_MS)', RETRY_DELAYS_MS],
      ['delivery body (first seen)', `${receiver.sampleBytes} bytes`],
      ['subscription Validated after', ms(validatedMs)],
      [`throughput: merges accepted/s (${clients} clients)`, acceptRate.toFixed(0)],
      ['  first event arrived after the first merge', ms(tpFirst - throughputStart)],
      ['  last event arrived after the last merge accepted', ms(tpLast - lastAccepted)],
      [
        '  service: events delivered/s',
        `${serviceRate.toFixed(0)} (${tp.byChange.size} changes in ${ms(tpLast - throughputStart)})`,
      ],
      [
        `  baseline Bull + POST (concurrency ${BASELINE_CONCURRENCY}), /s`,
        `${baselineRate.toFixed(0)} (${bt.byEvent.size} POSTs)`,
      ],
      ['  ratio service / baseline', `${((serviceRate / baselineRate) * 100).toFixed(1)} %`],
      [
        `latency at ${latRate.toFixed(1)} merges/s for ${SECONDS} s`,
        `${latencies.length} of ${latAccepted} changes`,
      ],
      [
        '  service change-to-delivery p50 / p99 / max',
        `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))} / ${ms(Math.max(...latencies))}`,
      ],
      [
        '  baseline enqueue-to-arrival p50 / p99',
        `${percentile(baseLatencies, 50).toFixed(1)} ms / ${percentile(baseLatencies, 99).toFixed(1)} ms`,
      ],
      [
        '  ratio p50 / p99 (service / baseline)',
        `${(percentile(latencies, 50) / percentile(baseLatencies, 50)).toFixed(1)}x / ${(percentile(latencies, 99) / percentile(baseLatencies, 99)).toFixed(1)}x`,
      ],
    ];
    if (outage) {
      table.push(
        [
          `outage: ${OUTAGE_SECONDS} s of 503 at ${OUTAGE_RATE} merges/s`,
          `${outage.sent} events sent, ${outage.rejected} attempts answered 503`,
        ],
        ['  arrived (distinct) / lost', `${outage.arrived} / ${outage.lost}`],
        ['  duplicates received', String(outage.duplicates)],
        ['  largest delay send to arrival', ms(outage.maxDelay)],
        ['  recovery to the last arrival', ms(outage.recoveryToLast)],
      );
    } else {
      table.push(['outage', 'skipped']);
    }
    table.push(
      ['whole run: deliveries received (2xx)', String(receiver.service.length)],
      ['  duplicates (same EventId again)', String(duplicates)],
      ['  out of order within a profile', String(outOfOrder)],
      ['  events not from an accepted merge', String(unknown)],
      ['  changes arriving as more than one event', String(repeated.length)],
      ['  bad signatures (service and baseline)', String(receiver.badSignatures)],
      ['  handshakes answered', String(receiver.handshakes)],
      ['  merges answered 503 and sent again', String(ctx.retried503)],
      ['  merges refused', String(ctx.refused)],
      ['  profile creates answered 503 and sent again', String(ctx.created503)],
      ['  dead letters', String(deadCount)],
      ['  subscription State at the end', String(subscription.body?.State)],
      ['api RSS during the run', range(rss.api)],
      ['worker RSS during the run', range(rss.worker)],
    );
    const width = Math.max(...table.map(([name]) => name.length));
    console.log(
      `\nevent deliveries: ${PROFILES} profiles, ${COUNT} events (engine: FerretDB on SQLite)`,
    );
    for (const [name, value] of table) console.log(`  ${name.padEnd(width)}  ${value}`);
    if (workerCommands) {
      console.log(`\nthe worker's engine commands in the throughput phase, per change delivered:`);
      console.log(`    count   time (summed over concurrent commands)`);
      for (const line of workerCommands) console.log(`  ${line}`);
    }
    for (const problem of problems) log(`incomplete: ${problem}`);
    failed = problems.length > 0 || (outage !== null && outage.lost !== 0);
  } finally {
    if (queue) await queue.close().catch(() => undefined);
    if (receiver) await receiver.close();
    await close(!failed);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
