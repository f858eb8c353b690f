'use strict';
// `npm run chaos`: the fault run of issue 29. Starts its own stack (FerretDB, Redis, api
// processes and a worker from dist/, on loopback, in a scratch dir), creates profiles, has
// concurrent clients send ordered merges of them over HTTP while processes are stalled and
// killed, then stops the faults, waits until every profile is Complete and checks what was
// applied against what the clients were answered. Prints the violations; exit 1 if any.
//
//   --seconds=60          how long clients write under faults
//   --profiles=20         profiles written
//   --clients=8           concurrent clients (each one value of one profile at a time)
//   --apis=2              api processes (clients spread over them)
//   --faults=engine,redis,worker,api,redis-restart   (the default: all; `--faults=`: none)
//   --redis=cluster       a Redis Cluster of six nodes instead of one redis-server; its Redis
//                         fault is redis-failover (the default faults: engine, worker, api,
//                         redis-failover)
//   --behaviour=mixed|resend|key|giveup              (mixed: in turn over the clients)
//   --timeout-ms=5000     how long a client waits for an answer before it drops the request
//   --settle-seconds=300  how long to wait for every profile to be Complete
//   --keep                leave the stack running after the report, until Ctrl-C
//
// The scratch dir (logs of every process, values.json: every value and its attempts,
// report.json) is kept when the run found a violation or failed, and removed otherwise.
const fs = require('node:fs');
const path = require('node:path');
const { startStack, killAll } = require('./stack');
const { FAULTS, startFaults } = require('./faults');
const { startClients } = require('./clients');
const { call, createClient, tenantSession, configureTenant } = require('./http');
const { waitComplete, readBack, locateWrites } = require('./read-back');
const { CHECKS, runChecks, answerCounts, outcomeCounts } = require('./checks');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function parseArgs(argv) {
  const args = Object.fromEntries(
    argv.map((arg) => {
      const [key, ...rest] = arg.replace(/^--/, '').split('=');
      return [key, rest.length ? rest.join('=') : true];
    }),
  );
  const redis = String(args.redis ?? 'single');
  if (!['single', 'cluster'].includes(redis)) {
    throw new Error(`--redis must be single or cluster (not ${redis})`);
  }
  const allFaults = Object.keys(FAULTS).filter(
    (name) => FAULTS[name].cluster === undefined || FAULTS[name].cluster === (redis === 'cluster'),
  );
  const faults =
    args.faults === undefined || args.faults === true
      ? allFaults
      : String(args.faults)
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean);
  const unknown = faults.filter((f) => !allFaults.includes(f));
  if (unknown.length) {
    throw new Error(`unknown faults with --redis=${redis}: ${unknown} (known: ${allFaults})`);
  }
  const behaviour = String(args.behaviour ?? 'mixed');
  if (!['mixed', 'resend', 'key', 'giveup'].includes(behaviour)) {
    throw new Error(`--behaviour must be mixed, resend, key or giveup (not ${behaviour})`);
  }
  const int = (name, fallback) => {
    const value = args[name] === undefined ? fallback : Number(args[name]);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be an integer`);
    return value;
  };
  return {
    seconds: int('seconds', 60),
    profiles: int('profiles', 20),
    clients: int('clients', 8),
    apis: Math.max(1, int('apis', 2)),
    timeoutMs: int('timeout-ms', 5000),
    settleSeconds: int('settle-seconds', 300),
    faults,
    redisCluster: redis === 'cluster',
    behaviour,
    keep: Boolean(args.keep),
  };
}

/** Progress on stderr (and in run.log once the scratch dir exists), with seconds since start. */
const t0 = Date.now();
let runLog = null;
function log(message) {
  const line = `[chaos +${((Date.now() - t0) / 1000).toFixed(1)}s] ${message}\n`;
  process.stderr.write(line);
  if (runLog) fs.appendFileSync(runLog, line);
}

/** The profiles written by the run, created with LastName "v0" and applied before it starts. */
async function createProfiles(origin, session, count) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const res = await call(origin, 'POST', `/Profiles/v4/${session.clientId}/Profile`, {
      auth: session.auth(),
      body: { CustomerType: 'Customer', CustomerName: { FirstName: 'Chaos', LastName: 'v0' } },
    });
    if (res.status !== 202)
      throw new Error(`create profile: ${res.status} ${JSON.stringify(res.body)}`);
    ids.push(res.body.ProfileId);
  }
  return ids;
}

function printTable(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  for (const row of rows)
    console.log(row.map((cell, c) => String(cell).padEnd(widths[c])).join('  '));
}

const LOST_LEGEND =
  '  (records: stored writes carrying the value, beside the appliedSeq; eventSeqs: writes whose ' +
  'events show the value, i.e. applied with their history entry missing)';

/** The report on stdout: setup, answers, outcomes, each check with a few examples, notes. */
function printReport({ options, faultCounts, values, checks, stack }) {
  const { found, notes } = checks;
  console.log('\n== Fault run ==');
  console.log(
    `${options.seconds} s, ${options.profiles} profiles, ${options.clients} clients (${options.behaviour}), ` +
      `${options.apis} api process(es), client timeout ${options.timeoutMs} ms` +
      (options.redisCluster ? ', a Redis Cluster of six nodes' : ''),
  );
  console.log(
    `faults: ${options.faults.length ? options.faults.map((f) => `${f} x${faultCounts[f]}`).join(', ') : 'none'}`,
  );
  if (stack.unexpectedExits.length) {
    console.log(
      `processes that exited by themselves: ${stack.unexpectedExits.map((e) => `${e.name} (${e.signal ?? e.code})`).join(', ')}`,
    );
  }
  console.log(`\nvalues sent: ${values.length}; answers by status (every attempt):`);
  printTable(
    Object.entries(answerCounts(values))
      .sort()
      .map(([k, v]) => [`  ${k}`, v]),
  );
  console.log(
    '\nvalues by behaviour and outcome (accepted: a 2xx; refused: only errors; unknown: no answer, no 2xx):',
  );
  printTable([
    ['  behaviour', 'accepted', 'refused', 'unknown'],
    ...Object.entries(outcomeCounts(values)).map(([b, c]) => [
      `  ${b}`,
      c.accepted,
      c.refused,
      c.unknown,
    ]),
  ]);
  console.log('\n== Checks ==');
  printTable([
    ['check', 'violations'],
    ...CHECKS.map((c) => [`${c.title}${c.extra ? ' (extra)' : ''}`, found[c.id].length]),
  ]);
  for (const c of CHECKS) {
    if (!found[c.id].length) continue;
    console.log(`\n${c.title}: first examples`);
    if (c.id === 'lost') console.log(LOST_LEGEND);
    for (const v of found[c.id].slice(0, 5)) console.log(`  ${JSON.stringify(v)}`);
  }
  console.log('\n== Notes (not counted as violations) ==');
  console.log(
    `values without an answer (unknown) applied: ${notes.unknownApplied}, not applied: ${notes.unknownNotApplied}`,
  );
  console.log(
    `History route's answer differs from the stored entries in order of application: ${notes.routeDiffers.length} profiles`,
  );
  for (const d of notes.routeDiffers.slice(0, 3)) console.log(`  ${JSON.stringify(d)}`);
  if (notes.duplicateEntries.length) {
    console.log(`history entries stored twice for one write: ${notes.duplicateEntries.length}`);
  }
}

/** Failed writes as `.../Updates` shows them, by reason (a refused keyed write, a dead job). */
function printFailures(profiles) {
  const reasons = {};
  for (const p of profiles)
    for (const f of p.failed) reasons[f.FailureReason] = (reasons[f.FailureReason] ?? 0) + 1;
  if (Object.keys(reasons).length) {
    console.log('writes shown Failed by .../Updates (the last kept per profile), by reason:');
    for (const [reason, count] of Object.entries(reasons)) console.log(`  ${count}  ${reason}`);
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let stack = null;
  const shutdown = (code) => {
    if (stack) stack.close();
    else killAll();
    if (stack) process.stderr.write(`[chaos] logs kept in ${stack.dir}\n`);
    process.exit(code);
  };
  process.on('SIGINT', () => shutdown(130));
  process.on('SIGTERM', () => shutdown(143));
  process.on('exit', killAll);

  stack = await startStack({ apiCount: options.apis, log, redisCluster: options.redisCluster });
  runLog = path.join(stack.dir, 'run.log');
  try {
    // A tenant with the customer type profiles need, and the profiles, before any fault.
    const origin = stack.apis[0].origin;
    const session = tenantSession(createClient(stack.env));
    if (!(await session.refresh(origin))) throw new Error('no token');
    await configureTenant(origin, session);
    const ids = await createProfiles(origin, session, options.profiles);
    const notReady = await waitComplete({ origin, session, ids, timeoutMs: 120000, log });
    if (notReady.length) throw new Error(`profiles ${notReady} not created in time`);
    log(`profiles ${ids[0]}..${ids[ids.length - 1]} created; writing for ${options.seconds} s`);

    // The fault period: clients write while the faults act.
    const clients = startClients({
      stack,
      session,
      profileIds: ids,
      clients: options.clients,
      mode: options.behaviour,
      timeoutMs: options.timeoutMs,
      finishMs: 60000,
      log,
    });
    const faults = startFaults(stack, options.faults, { log });
    await sleep(options.seconds * 1000);

    // Faults stop first, then clients send no new value and finish the ones under way.
    await faults.stop();
    clients.stopSending();
    log(`faults stopped (${JSON.stringify(faults.counts)}); clients finishing their values`);
    for (const api of stack.apis) await api.listening();
    await clients.done;
    log(`clients done: ${clients.values.length} values sent`);

    const pendingIds = await waitComplete({
      origin,
      session,
      ids,
      timeoutMs: options.settleSeconds * 1000,
      log,
    });
    const profiles = await readBack({
      origin,
      session,
      engineUri: stack.engineUri,
      dbName: stack.dbName,
      ids,
    });
    const checks = runChecks({ profiles, values: clients.values, pendingIds });
    await locateWrites({
      engineUri: stack.engineUri,
      dbName: stack.dbName,
      clientId: session.clientId,
      items: checks.found.lost.slice(0, 20),
    });
    printReport({ options, faultCounts: faults.counts, values: clients.values, checks, stack });
    printFailures(profiles);

    const violations = CHECKS.reduce((sum, c) => sum + checks.found[c.id].length, 0);
    fs.writeFileSync(path.join(stack.dir, 'values.json'), JSON.stringify(clients.values));
    fs.writeFileSync(
      path.join(stack.dir, 'report.json'),
      JSON.stringify({ options, faults: faults.counts, profiles, ...checks }, null, 1),
    );
    console.log(`\n${violations ? `${violations} violations` : 'no violations'}`);
    if (options.keep) {
      console.log(`\nstack kept: ${origin}/Profiles/v4/${session.clientId} with ${session.auth()}`);
      console.log(`engine ${stack.engineUri}${stack.dbName}; Ctrl-C stops it`);
      await new Promise(() => undefined);
    }
    stack.close();
    if (violations) console.log(`logs and data kept in ${stack.dir}`);
    else fs.rmSync(stack.dir, { recursive: true, force: true });
    process.exit(violations ? 1 : 0);
  } catch (error) {
    log(`failed: ${error.stack ?? error}`);
    shutdown(2);
  }
}

main().catch((error) => {
  process.stderr.write(`[chaos] ${error.stack ?? error}\n`);
  killAll();
  process.exit(2);
});
