'use strict';
// `npm run bench:compare -- --base <ref>`: this checkout's build against the build of <ref>,
// the chosen scenarios run alternately on both (ABBA order over the rounds) in one run, on
// one machine, so that a change in CPU per request shows however noisy the machine is.
// Separate runs of `npm run bench` move by a third from run to run: a 45 % CPU rise hid in
// that noise once (issue 40). Run it before landing any change to auth, GET, searches,
// write acceptance, the worker's apply or the import, and put its table in the note.
//
// The base is checked out in a work tree of its own (.bench/<sha>, ignored by git), with this
// checkout's node_modules when both lock files are equal (else `npm ci` there), and built
// there once. Each build runs on a stack of its own (engine, Redis, api, worker; the same
// engine binary), seeded alike. Per scenario and build, each round measures the CPU per
// request of the process that serves it (the api; the worker for `apply`) over an
// autocannon run, and req/s; a round runs every chosen scenario on both builds back to back,
// so the two runs of a pair see the same neighbours on the machine. Printed per scenario:
// each build's median CPU per request, the head/base ratio (the median of the rounds'
// ratios) and its spread (half the range of the rounds' ratios, the lowest and the highest
// left out from five rounds on), req/s, and a verdict: `SLOWER` or `faster` when the ratio
// lies past 1 by more than its spread (and at least 3 %), else `same`. Exit code 3 when a
// scenario is SLOWER. Prints figures; asserts nothing else.
//
//   --base <ref>          the commit to compare with (required; a branch, tag or sha)
//   --head <ref>          compare with that commit's build instead of this checkout's (both
//                         in work trees: e.g. to find which commit of a range cost what)
//   --scenarios=a,b       of: get, get-signed, alt, email, name, partial, decision, token,
//                         accept, apply (default: all)
//   --base-env=K=V,K2=V2  more environment for the base's api and worker (likewise
//   --head-env=K=V        --head-env): compares a setting, e.g. `--base HEAD --head-env
//                         LOG_LEVEL=info` (one build, two settings; the api's V8 flags come from
//                         scripts/lib/api-node-flags.js, whose command line beats NODE_OPTIONS)
//   --rounds=5 (at least 3) --seconds=3 --connections=16 --profiles=1000
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createHmac } = require('node:crypto');
const autocannon = require('autocannon');
const Redis = require('ioredis');
const { MongoClient } = require('mongodb');
const { ROOT } = require('../lib/engines');
const { cpuMs } = require('../lib/proc-cpu');
const { startServiceStack } = require('../lib/service-stack');
const seed = require('./seed');

const SCENARIOS = [
  'get',
  'get-signed',
  'alt',
  'email',
  'name',
  'partial',
  'decision',
  'token',
  'accept',
  'apply',
];

function parseArgs(argv) {
  const parsed = {};
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
    if (!match) throw new Error(`unexpected argument ${argv[i]}`);
    const [, key, inline] = match;
    if (inline !== undefined) parsed[key] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) parsed[key] = argv[++i];
    else parsed[key] = true;
  }
  return parsed;
}

const args = parseArgs(process.argv.slice(2));
const ROUNDS = Math.max(3, Number(args.rounds || 5));
const SECONDS = Number(args.seconds || 3);
const CONNECTIONS = Number(args.connections || 16);
const PROFILES = Math.max(300, Number(args.profiles || 1000));
const CHOSEN = args.scenarios ? String(args.scenarios).split(',') : SCENARIOS;
/** A change smaller than this is never flagged, whatever the spread. */
const MIN_CHANGE = 0.03;

const log = (message) => process.stderr.write(`[bench:compare] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const git = (...gitArgs) =>
  execFileSync('git', ['-C', ROOT, ...gitArgs], { encoding: 'utf8' }).trim();

function run(command, commandArgs, cwd) {
  const result = spawnSync(command, commandArgs, { cwd, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed in ${cwd}`);
}

/** A commit's work tree, with node_modules and a build (both made once per commit). */
function prepareBuild(ref) {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = path.join(ROOT, '.bench', sha);
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    git('worktree', 'prune');
    log(`checking out ${ref} (${sha.slice(0, 7)}) in ${dir}`);
    git('worktree', 'add', '--detach', '--force', dir, sha);
  }
  const modules = path.join(dir, 'node_modules');
  if (!fs.existsSync(modules)) {
    const sameLock =
      fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8') ===
      fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8');
    if (sameLock) fs.symlinkSync(path.join(ROOT, 'node_modules'), modules, 'dir');
    else {
      log(`${sha.slice(0, 7)} has another lock file: npm ci in its work tree`);
      run('npm', ['ci', '--no-audit', '--no-fund'], dir);
    }
  }
  const builder = path.join(dir, 'scripts', 'build-if-stale.js');
  if (fs.existsSync(builder)) run(process.execPath, [builder], dir);
  else if (!fs.existsSync(path.join(dir, 'dist/apps/api/apps/api/src/main.js'))) {
    run('npx', ['nest', 'build', 'api'], dir);
    run('npx', ['nest', 'build', 'worker'], dir);
  }
  return { root: dir, label: describe(sha) };
}

function describe(sha) {
  return git('log', '-1', '--format=%h %s', sha).slice(0, 70);
}

function headLabel() {
  const dirty = git('status', '--porcelain', '--', 'apps', 'libs', 'package-lock.json');
  return `${describe('HEAD')}${dirty ? ' + uncommitted changes' : ''}`;
}

function signCustomAuth(clientId, userId, key) {
  const ts = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const sig = createHmac('sha256', key).update(`${clientId}:${userId}:${ts}`).digest('base64');
  return `CUSTOMAUTH3-HMAC-SHA256 Credential=${userId}/${ts} Signature=${sig}`;
}

/** `K=V,K2=V2` as an environment object. */
function envOf(list) {
  if (!list || list === true) return {};
  return Object.fromEntries(
    String(list)
      .split(',')
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** One build's stack, seeded: a tenant, PROFILES profiles, the key index, warm read models. */
async function startSide(name, root, label, env) {
  const stack = await startServiceStack(`compare-${name}`, env, { root });
  const side = { name, label, stack, ok: false };
  side.mongo = await MongoClient.connect(stack.engine.uri);
  side.redis = new Redis(stack.redisServer.url);
  const tenant = await seed.createTenant({ origin: stack.origin, env: stack.env, root });
  await seed.seedProfiles({ db: side.mongo.db('bench'), tenant, from: 2, to: PROFILES });
  await side.redis.del('bench:kx:built');
  side.tenant = tenant;
  side.ids = Array.from({ length: PROFILES - 1 }, (_, n) => n + 2);
  side.bearer = `Bearer ${tenant.token}`;
  const base = `/Profiles/v4/${tenant.clientId}`;
  // The read model of every profile exists (a cold one costs two `_id` reads once).
  for (let at = 0; at < side.ids.length; at += 50) {
    await Promise.all(
      side.ids.slice(at, at + 50).map((id) =>
        fetch(`${stack.origin}${base}/Profile/${id}`, {
          headers: { authorization: side.bearer },
        }).then((res) => res.arrayBuffer()),
      ),
    );
  }
  const deadline = Date.now() + 300000;
  while (!(await side.redis.exists('bench:kx:built'))) {
    if (Date.now() > deadline) throw new Error(`${name}: search key index not built in 300 s`);
    await sleep(200);
  }
  log(`${name} (${label}): ${PROFILES} profiles seeded and indexed`);
  return side;
}

/** The autocannon options of a scenario on one side. */
function scenarioOptions(scenario, side) {
  const { tenant, ids, bearer } = side;
  const origin = side.stack.origin;
  const base = `/Profiles/v4/${tenant.clientId}`;
  const pick = () => ids[Math.floor(Math.random() * ids.length)];
  const paths = (pathOf) => [{ setupRequest: (req) => ({ ...req, path: pathOf() }) }];
  const get = (pathOf, authorization = bearer) => ({
    url: origin,
    headers: { authorization },
    requests: paths(pathOf),
  });
  switch (scenario) {
    case 'get':
      return get(() => `${base}/Profile/${pick()}`);
    case 'get-signed':
      return get(
        () => `${base}/Profile/${pick()}`,
        signCustomAuth(tenant.clientId, tenant.userId, tenant.apiHashKey),
      );
    case 'alt':
      return get(
        () => `${base}/Profile/AlternateId?alternateIdType=CRM&alternateId=${seed.crmId(pick())}`,
      );
    case 'email':
      return get(() => `${base}/Profile/Email?emailAddress=${seed.email(pick())}`);
    case 'name':
      // Seeded names (seed.js): a unique first name, one of 997 last names.
      return get(() => {
        const id = pick();
        return `${base}/Profile/Name?firstName=First${id}&lastName=Last${id % 997}`;
      });
    case 'partial':
      // Its runs' keys: "fir", "irs", "rst" are every profile's, the digits' fewer. Ids of
      // three digits or more: a shorter one's runs match more than 50 profiles (a 403).
      return get(() => {
        let id = pick();
        while (id < 100) id = pick();
        return `${base}/Profile/PartialName?firstName=First${id}`;
      });
    case 'decision':
      return get(
        () =>
          `${base}/ContactDecision?profileId=${pick()}&channelId=Email&programId=${tenant.programId}&consentType=Email`,
      );
    case 'token':
      return {
        url: `${origin}/oauth2/v1/token`,
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: seed.tokenForm(tenant),
      };
    case 'accept':
      return {
        url: origin,
        method: 'POST',
        headers: { authorization: bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ CustomFields: [{ Name: 'Tier', Value: 'gold' }] }),
        requests: paths(() => `${base}/Profile/${pick()}`),
      };
    default:
      throw new Error(`unknown scenario ${scenario}; known: ${SCENARIOS.join(', ')}`);
  }
}

/** One measurement: CPU ms per request of the serving process, and req/s. */
async function measure(scenario, side) {
  const { stack, tenant, ids, redis } = side;
  if (scenario === 'apply') {
    // Writes to distinct profiles, each waited for until applied (the worker's CPU per write).
    const result = await seed.workerSaturation({
      origin: stack.origin,
      redis,
      tenant,
      ids: shuffled(ids).slice(0, 300),
      procs: { worker: stack.worker },
    });
    return { cpu: result.cpu.worker, rps: result.perSecond };
  }
  const options = scenarioOptions(scenario, side);
  const before = cpuMs(stack.api.pid);
  const result = await autocannon({
    connections: CONNECTIONS,
    duration: SECONDS,
    pipelining: 1,
    ...options,
  });
  const total = result.requests.total || 1;
  const cpu = (cpuMs(stack.api.pid) - before) / total;
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad) log(`${scenario} on ${side.name}: ${bad} of ${total} requests failed`);
  // What a write scenario queued is applied before the next measurement starts.
  if (scenario === 'accept') await seed.waitApplied({ redis, clientId: tenant.clientId, ids });
  return { cpu, rps: result.requests.average };
}

function shuffled(list) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** A first request of the scenario on each side: one that fails is reported before measuring. */
async function probe(scenario, side) {
  if (scenario === 'apply') return;
  const options = scenarioOptions(scenario, side);
  const first = options.requests?.[0]?.setupRequest?.({}) ?? {};
  const res = await fetch(first.path ? new URL(first.path, options.url) : options.url, {
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
  });
  const text = await res.text();
  if (res.status >= 300) {
    throw new Error(`${scenario} on ${side.name}: ${res.status} ${text.slice(0, 300)}`);
  }
  if (scenario === 'accept') {
    await seed.waitApplied({ redis: side.redis, clientId: side.tenant.clientId, ids: side.ids });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function verdictOf(ratio, spread) {
  const change = ratio - 1;
  if (Math.abs(change) <= Math.max(spread, MIN_CHANGE)) return 'same';
  return change > 0 ? 'SLOWER' : 'faster';
}

async function main() {
  if (!args.base || args.base === true) {
    throw new Error('usage: npm run bench:compare -- --base <ref> [--scenarios=get,token]');
  }
  for (const scenario of CHOSEN) {
    if (!SCENARIOS.includes(scenario)) {
      throw new Error(`unknown scenario ${scenario}; known: ${SCENARIOS.join(', ')}`);
    }
  }
  const baseBuild = prepareBuild(String(args.base));
  const headBuild =
    args.head && args.head !== true
      ? prepareBuild(String(args.head))
      : { root: ROOT, label: headLabel() };
  const loadBefore = os.loadavg()[0];
  const sides = [];
  let ok = false;
  try {
    const baseEnv = envOf(args['base-env']);
    const headEnv = envOf(args['head-env']);
    const withEnv = (label, env) =>
      Object.keys(env).length
        ? `${label} with ${Object.entries(env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`
        : label;
    sides.push(await startSide('base', baseBuild.root, withEnv(baseBuild.label, baseEnv), baseEnv));
    sides.push(await startSide('head', headBuild.root, withEnv(headBuild.label, headEnv), headEnv));
    const results = Object.fromEntries(
      CHOSEN.map((scenario) => [scenario, { base: [], head: [] }]),
    );
    for (const scenario of CHOSEN) {
      for (const side of sides) await probe(scenario, side);
      // JIT and caches warm on both sides before the first measured round.
      if (scenario !== 'apply') {
        for (const side of sides) {
          await autocannon({
            connections: CONNECTIONS,
            duration: 1,
            ...scenarioOptions(scenario, side),
          });
          if (scenario === 'accept') {
            await seed.waitApplied({
              redis: side.redis,
              clientId: side.tenant.clientId,
              ids: side.ids,
            });
          }
        }
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      // ABBA: the base first in even rounds, the head first in odd ones.
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const scenario of CHOSEN) {
        for (const side of order) {
          results[scenario][side.name].push(await measure(scenario, side));
        }
      }
      log(`round ${round + 1} of ${ROUNDS} done (load average ${os.loadavg()[0].toFixed(2)})`);
    }
    report(results, sides, loadBefore);
    ok = true;
    const slower = CHOSEN.filter((scenario) => summarize(results[scenario]).verdict === 'SLOWER');
    if (slower.length) process.exitCode = 3;
  } finally {
    for (const side of sides) {
      await side.redis?.quit().catch(() => undefined);
      await side.mongo?.close().catch(() => undefined);
      await side.stack.close(ok);
    }
  }
}

function summarize({ base, head }) {
  const ratios = base.map((b, i) => head[i].cpu / b.cpu);
  const ratio = median(ratios);
  // One round disturbed by a neighbour on the machine does not decide the spread.
  const sorted = [...ratios].sort((a, b) => a - b);
  const kept = sorted.length >= 5 ? sorted.slice(1, -1) : sorted;
  const spread = (kept[kept.length - 1] - kept[0]) / 2;
  return {
    baseCpu: median(base.map((m) => m.cpu)),
    headCpu: median(head.map((m) => m.cpu)),
    baseRps: median(base.map((m) => m.rps)),
    headRps: median(head.map((m) => m.rps)),
    ratios,
    ratio,
    spread,
    verdict: verdictOf(ratio, spread),
  };
}

const NAMES = {
  get: 'GET profile (bearer)',
  'get-signed': 'GET profile (CUSTOMAUTH3)',
  alt: 'GET by alternate id',
  email: 'search by email',
  name: 'search by name',
  partial: 'search by partial name',
  decision: 'contact decision by id',
  token: 'token endpoint',
  accept: 'write acceptance (POST merge)',
  apply: 'worker apply (one write)',
};

function report(results, sides, loadBefore) {
  const [base, head] = sides;
  const fmt = (n, w, d) => (Number.isFinite(n) ? n.toFixed(d) : '-').padStart(w);
  const lines = [
    '',
    `npm run bench:compare: ${os.cpus().length} cores (${os.cpus()[0].model}), node ${process.version}, ${new Date().toISOString()}`,
    `base: ${base.label}`,
    `head: ${head.label}`,
    `${ROUNDS} rounds (ABBA), ${SECONDS} s per run, ${CONNECTIONS} connections, ${PROFILES} profiles; load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after`,
    `CPU ms per request of the serving process (api; the worker for apply), median of the rounds`,
    '',
    `${'scenario'.padEnd(31)}${'base ms'.padStart(9)}${'head ms'.padStart(9)}${'head/base'.padStart(11)}${'spread'.padStart(8)}  ${'rounds'.padEnd(22)}${'base req/s'.padStart(11)}${'head req/s'.padStart(11)}  verdict`,
  ];
  for (const [scenario, measured] of Object.entries(results)) {
    const s = summarize(measured);
    lines.push(
      `${NAMES[scenario].padEnd(31)}${fmt(s.baseCpu, 9, 3)}${fmt(s.headCpu, 9, 3)}${fmt(s.ratio, 11, 2)}${`±${s.spread.toFixed(2)}`.padStart(8)}  ${s.ratios
        .map((r) => r.toFixed(2))
        .join(' ')
        .padEnd(22)}${fmt(s.baseRps, 11, 0)}${fmt(s.headRps, 11, 0)}  ${s.verdict}`,
    );
  }
  lines.push(
    '',
    `verdict: SLOWER / faster when head/base lies past 1 by more than its spread (and ${MIN_CHANGE * 100} %)`,
  );
  console.log(lines.join('\n'));
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
