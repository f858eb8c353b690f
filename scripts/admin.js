'use strict';
// `npm run admin -- <command> ...`: the admin CLI (see docs/api.md, "Admin commands"). It reaches the same data
// as a running `npm start` with no flags; with none running it starts the embedded
// engine on .data/ for the duration of the command; with MONGODB_URI set it uses that.
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
  const result = spawnSync(process.execPath, [CLI, ...process.argv.slice(2)], {
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
