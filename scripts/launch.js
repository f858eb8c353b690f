'use strict';
// `npm start`: runs the api and the worker on the embedded default (FerretDB + Redis,
// started here on loopback) or, with MONGODB_URI and REDIS_URL set, on those servers
// and nothing embedded. Data lives in .data/ and survives a restart. Ctrl-C stops all.
const { spawn } = require('node:child_process');
const { API_NODE_FLAGS } = require('./lib/api-node-flags');
const path = require('node:path');
const {
  ROOT,
  startFerretdb,
  startMailCatcher,
  startRedis,
  stop,
  waitForPort,
} = require('./lib/engines');
const { DATA_DIR, jwtSecret, readRuntime, writeRuntime, clearRuntime } = require('./lib/runtime');

const PORT = Number(process.env.PORT || 3000);
const HOST = process.env.HOST || '127.0.0.1';
const children = [];
let stopping = false;

function log(message) {
  console.log(`[launcher] ${message}`);
}

function runApp(name, entry, env, nodeFlags = []) {
  let current;
  const start = () => {
    const child = spawn(process.execPath, [...nodeFlags, path.join(ROOT, entry)], {
      env,
      stdio: 'inherit',
    });
    current = child;
    children.push(child);
    child.on('exit', (code, signal) => {
      children.splice(children.indexOf(child), 1);
      if (stopping) return;
      // A crashed process loses no accepted write (they are in the database); restart it.
      log(`${name} exited (${signal || code}); restarting in 1 s`);
      setTimeout(() => !stopping && start(), 1000);
    });
  };
  start();
  return () => current;
}

async function main() {
  const running = readRuntime();
  if (running) {
    log(`already running (pid ${running.pid}) at ${running.baseUrl}`);
    process.exit(1);
  }
  const engines = [];
  const shutdown = async (code) => {
    if (stopping) return;
    stopping = true;
    log('stopping');
    await Promise.all(children.map(stop));
    for (const engine of engines.reverse()) await stop(engine);
    clearRuntime();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  let mongodbUri = process.env.MONGODB_URI;
  if (!mongodbUri) {
    const engine = await startFerretdb({
      dataDir: path.join(DATA_DIR, 'engine'),
      port: Number(process.env.ENGINE_PORT) || undefined,
      logFile: path.join(DATA_DIR, 'engine.log'),
    });
    engines.push(engine.child);
    mongodbUri = `${engine.uri}pcp`;
    log(`embedded engine (FerretDB, SQLite in .data/engine): ${engine.uri}`);
  }
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl && process.env.REDIS_CLUSTER_NODES) {
    // The embedded redis-server is one node, not a cluster: the cluster's URL is needed.
    throw new Error(
      'REDIS_CLUSTER_NODES is set without REDIS_URL: set REDIS_URL to one of the nodes',
    );
  }
  if (!redisUrl) {
    const redis = await startRedis({
      dir: path.join(DATA_DIR, 'redis'),
      logFile: path.join(DATA_DIR, 'redis.log'),
    });
    engines.push(redis.child);
    redisUrl = redis.url;
    log(`redis-server: ${redisUrl}`);
  }

  // Double opt-in messages: to SMTP_URL when set, else to the embedded mail catcher.
  let smtpUrl = process.env.SMTP_URL;
  let inboxUrl;
  if (!smtpUrl) {
    const catcher = await startMailCatcher({
      smtpPort: Number(process.env.MAIL_CATCHER_SMTP_PORT) || undefined,
      httpPort: Number(process.env.MAIL_CATCHER_PORT) || undefined,
      logFile: path.join(DATA_DIR, 'mail-catcher.log'),
    });
    engines.push(catcher.child);
    smtpUrl = catcher.smtpUrl;
    inboxUrl = catcher.inboxUrl;
    log(`mail catcher: ${smtpUrl}, inbox ${inboxUrl}`);
  }

  const env = {
    ...process.env,
    SMTP_URL: smtpUrl,
    PORT: String(PORT),
    HOST,
    MONGODB_URI: mongodbUri,
    REDIS_URL: redisUrl,
    JWT_SECRET: jwtSecret(),
    // Startup chatter would bury the banner below; LOG_LEVEL=log shows it.
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  };
  const scheme = process.env.TLS_CERT_FILE ? 'https' : 'http';
  const origin = `${scheme}://${HOST}:${PORT}`;
  writeRuntime({
    pid: process.pid,
    baseUrl: `${origin}/Profiles/v4`,
    env: {
      MONGODB_URI: mongodbUri,
      REDIS_URL: redisUrl,
      JWT_SECRET: env.JWT_SECRET,
      // The admin's auth-change announcements are Redis keys under the stack's prefix.
      ...(process.env.QUEUE_PREFIX ? { QUEUE_PREFIX: process.env.QUEUE_PREFIX } : {}),
    },
  });

  const api = runApp('api', 'dist/apps/api/apps/api/src/main.js', env, API_NODE_FLAGS);
  runApp('worker', 'dist/apps/worker/apps/worker/src/main.js', env);
  await waitForPort(PORT, api(), 'api', 60000);

  console.log(`
  Base URL:   ${origin}/Profiles/v4
  Token URL:  ${origin}/oauth2/v1/token
  API docs:   ${origin}/Profiles/v4/docs  (OpenAPI: ${origin}/Profiles/v4/docs-json)
  Mail inbox: ${inboxUrl ?? `none (messages go to SMTP_URL)`}  (double opt-in messages: docs/double-opt-in.md)

  Create credentials and make the first requests (in another shell): README.md, "First requests"
    npm run -s admin -- create-client --client-id demo --user-id alice

  Ctrl-C stops the api, the worker${engines.length ? ' and the embedded engines' : ''}.
`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
