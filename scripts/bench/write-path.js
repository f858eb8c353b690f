'use strict';
// Benchmark of the profile write path on the embedded default: starts a throw-away
// FerretDB and Redis, the built api and one worker, then sends profile creates and
// merges and prints acceptance latency and the time until every write is applied.
// Usage: npm run build && node scripts/bench/write-path.js [profiles=200] [mergesEach=4] [concurrency=16]
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, freePort, startFerretdb, startRedis, stop, waitForPort } = require('../lib/engines');

const [profiles = 200, mergesEach = 4, concurrency = 16] = process.argv.slice(2).map(Number);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function pool(tasks, size) {
  const results = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]();
      }
    }),
  );
  return results;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcp-bench-'));
  const engine = await startFerretdb({ dataDir: path.join(dir, 'engine') });
  const redis = await startRedis({ dir: path.join(dir, 'redis'), persist: false });
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    MONGODB_URI: `${engine.uri}bench`,
    REDIS_URL: redis.url,
    JWT_SECRET: 'bench-secret',
    LOG_LEVEL: 'warn',
  };
  const children = [];
  try {
    const admin = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'dist/apps/api/apps/api/src/admin/cli.js'),
        'create-client',
        '--client-id',
        'bench',
        '--user-id',
        'bench',
      ],
      { env, encoding: 'utf8' },
    );
    if (admin.status !== 0)
      throw new Error(`admin failed (did you run npm run build?): ${admin.stderr}`);
    const creds = JSON.parse(admin.stdout);
    for (const app of ['api', 'worker']) {
      children.push(
        spawn(process.execPath, [path.join(ROOT, `dist/apps/${app}/apps/${app}/src/main.js`)], {
          env,
          stdio: 'inherit',
        }),
      );
    }
    await waitForPort(port, children[0], 'api', 60000);
    const base = `http://127.0.0.1:${port}`;
    const tokenRes = await fetch(`${base}/oauth2/v1/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        scope: 'bench/bench',
        client_id: creds.oauthClientId,
        client_secret: creds.oauthClientSecret,
      }),
    });
    const auth = `Bearer ${(await tokenRes.json()).access_token}`;
    const send = async (method, url, body) => {
      const started = performance.now();
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json = await res.json();
      if (res.status !== 202)
        throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
      return { ms: performance.now() - started, json };
    };

    const t0 = performance.now();
    const creates = await pool(
      Array.from(
        { length: profiles },
        (_, i) => () =>
          send('POST', '/Profiles/v4/bench/Profile', {
            CustomerType: 'Customer',
            CustomerName: { FirstName: `P${i}` },
            Emails: [{ EmailAddress: `p${i}@example.com` }],
          }),
      ),
      concurrency,
    );
    const ids = creates.map((c) => c.json.ProfileId);
    const merges = await pool(
      ids.flatMap((id) =>
        Array.from(
          { length: mergesEach },
          (_, n) => () =>
            send('POST', `/Profiles/v4/bench/Profile/${id}`, {
              CustomFields: [{ Name: `f${n}`, Value: `${n}` }],
            }),
        ),
      ),
      concurrency,
    );
    const acceptedMs = performance.now() - t0;
    const latencies = [...creates, ...merges].map((r) => r.ms).sort((a, b) => a - b);

    for (const id of ids) {
      for (;;) {
        const res = await fetch(`${base}/Profiles/v4/bench/Profile/${id}`, {
          headers: { Authorization: auth },
        });
        if ((await res.json()).UpdateStatus === 'Complete') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    const appliedMs = performance.now() - t0;
    const writes = latencies.length;
    console.log(
      `writes accepted: ${writes} (${profiles} creates, ${merges.length} merges), concurrency ${concurrency}`,
    );
    console.log(
      `acceptance: ${(writes / (acceptedMs / 1000)).toFixed(0)} writes/s; latency ms p50 ${percentile(latencies, 50).toFixed(1)}, p95 ${percentile(latencies, 95).toFixed(1)}, p99 ${percentile(latencies, 99).toFixed(1)}`,
    );
    console.log(
      `all applied after ${(appliedMs / 1000).toFixed(2)} s: ${(writes / (appliedMs / 1000)).toFixed(0)} writes/s end to end (1 worker)`,
    );
  } finally {
    for (const child of children) await stop(child);
    await stop(engine.child);
    await stop(redis.child);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
