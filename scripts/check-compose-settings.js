'use strict';
// Checks deploy/compose.yaml, resolved by tools/compose-check (JSON, the file named on the
// command line), against the service (run by scripts/lint-deploy.sh):
//   - every variable the api and the worker get is a setting of README's configuration table
//     (a misspelt name would be ignored silently by the process);
//   - the settings a process cannot start without are given, with one value for every
//     process (a token one api signs, every api checks: JWT_SECRET; one database, one Redis,
//     one key prefix);
//   - two api, worker and events-worker replicas, each built from its Dockerfile target with
//     its healthcheck's port set (a worker's listener is off unless WORKER_HEALTH_PORT is
//     set), and the worker leaving the events queue to the events-worker (EVENTS_DELIVERY);
//   - the proxy, MongoDB as a replica set and Redis with AOF are there.
// Prints one line per problem and exits 1, or a summary and 0.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const REQUIRED = ['MONGODB_URI', 'REDIS_URL', 'JWT_SECRET'];
const SHARED = [...REQUIRED, 'QUEUE_PREFIX'];

/** The variable names in the first column of README's "## Configuration" table. */
function readmeSettings() {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration');
  const end = readme.indexOf('\n## ', start + 1);
  const names = new Set();
  for (const line of readme.slice(start, end).split('\n')) {
    if (!line.startsWith('| `')) continue;
    const first = line.split('|')[1];
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(match[1]);
  }
  return names;
}

function check(project) {
  const problems = [];
  const known = readmeSettings();
  if (known.size < 20) problems.push(`README's configuration table has ${known.size} settings`);
  const services = project.services ?? {};
  const values = {};
  for (const [name, target, port] of [
    ['api', 'api', 'PORT'],
    ['worker', 'worker', 'WORKER_HEALTH_PORT'],
    ['events-worker', 'events-worker', 'WORKER_HEALTH_PORT'],
  ]) {
    const service = services[name];
    if (!service) {
      problems.push(`no service "${name}"`);
      continue;
    }
    const env = service.environment ?? {};
    for (const variable of Object.keys(env)) {
      if (!known.has(variable))
        problems.push(`${name}: ${variable} is not a setting of README's configuration table`);
    }
    for (const variable of REQUIRED) {
      if (!env[variable]) problems.push(`${name}: the required ${variable} is not set`);
    }
    for (const variable of SHARED) (values[variable] ??= new Set()).add(env[variable]);
    if (!(Number(env[port]) > 0)) problems.push(`${name}: ${port} must be a port (healthcheck)`);
    if (env.HOST !== '0.0.0.0') problems.push(`${name}: HOST must be 0.0.0.0 in a container`);
    if ((service.deploy?.replicas ?? 1) < 2) problems.push(`${name}: fewer than 2 replicas`);
    if (service.build?.target !== target || !/Dockerfile$/.test(service.build?.dockerfile ?? ''))
      problems.push(`${name}: not built from deploy/Dockerfile's target ${target}`);
  }
  for (const [variable, set] of Object.entries(values)) {
    if (set.size > 1) problems.push(`${variable} differs between the api and the workers`);
  }
  if (services['events-worker'] && services.worker?.environment?.EVENTS_DELIVERY !== 'lifted')
    problems.push('worker: EVENTS_DELIVERY must be lifted beside the events-worker');
  const uri = services.api?.environment?.MONGODB_URI ?? '';
  if (!/[?&]replicaSet=/.test(uri)) problems.push('MONGODB_URI names no replicaSet');
  const redis = (services.redis?.command ?? []).join(' ');
  if (!/--appendonly yes/.test(redis)) problems.push('redis: AOF (--appendonly yes) is off');
  if (!/--maxmemory-policy noeviction/.test(redis))
    problems.push('redis: --maxmemory-policy must be noeviction (queues, leases)');
  if (!services['mongo-init']) problems.push('no mongo-init service');
  if (!services.proxy) problems.push('no proxy service');
  if (services.api?.environment?.TRUST_PROXY !== 'true')
    problems.push('api: TRUST_PROXY must be true behind the proxy');
  return problems;
}

function main() {
  const file = process.argv[2];
  const project = JSON.parse(fs.readFileSync(file, 'utf8'));
  const problems = check(project);
  for (const problem of problems) console.error(`compose: ${problem}`);
  if (problems.length > 0) process.exit(1);
  const count = Object.keys(project.services.api.environment).length;
  console.error(
    `[lint:deploy] compose settings: ${count} api variables, all known; required ones shared`,
  );
}

if (require.main === module) main();
module.exports = { check, readmeSettings };
