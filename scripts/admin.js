'use strict';
// `npm run admin -- <command> ...`: the admin CLI (see docs/api.md, "Admin commands"). With
// MONGODB_URI unset it reaches the data of the `npm start` running in this checkout (the
// database, Redis and JWT secret named in .data/runtime.json, while its launcher lives); with
// none running it starts the embedded engine on .data/engine for the duration of the command;
// with MONGODB_URI set it uses that, with REDIS_URL and JWT_SECRET from the environment.
// Its stdout is the command's JSON only (`npm run -s admin` keeps npm's banner off it too).
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { ROOT, startFerretdb, stop } = require('./lib/engines');
const { DATA_DIR, jwtSecret, readRuntime } = require('./lib/runtime');

const CLI = path.join(ROOT, 'dist/apps/api/apps/api/src/admin/cli.js');

async function main() {
  // Built (again) only when the sources changed since the last build.
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.js')], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  });
  if (built.status !== 0) process.exit(built.status || 1);
  const args = process.argv.slice(2);
  // The usage needs no database.
  if (args.length === 0 || ['help', '--help', '-h'].includes(args[0])) {
    const help = spawnSync(process.execPath, [CLI, ...args], { stdio: 'inherit' });
    process.exit(help.status === null ? 1 : help.status);
  }
  const env = { ...process.env };
  let engine;
  const running = readRuntime();
  if (!env.MONGODB_URI && running) {
    Object.assign(env, running.env);
  } else if (!env.MONGODB_URI) {
    engine = await startFerretdb({
      dataDir: path.join(DATA_DIR, 'engine'),
      logFile: path.join(DATA_DIR, 'engine.log'),
    });
    env.MONGODB_URI = `${engine.uri}pcp`;
  }
  // Auth changes are announced in the Redis of the running stack (its auth stamps); with no
  // stack running and no REDIS_URL, no process caches anything, so there is none to tell.
  if (!env.REDIS_URL) env.NOTIFY_AUTH_CHANGES = 'false';
  env.REDIS_URL = env.REDIS_URL || 'redis://127.0.0.1:6379';
  env.JWT_SECRET = env.JWT_SECRET || jwtSecret();
  const result = spawnSync(process.execPath, [CLI, ...args], {
    env,
    stdio: 'inherit',
  });
  if (engine) await stop(engine.child);
  process.exit(result.status === null ? 1 : result.status);
}

main().catch((error) => {
  console.error(error.message || error);
  process.exit(1);
});
