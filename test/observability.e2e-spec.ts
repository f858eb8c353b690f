import { randomBytes } from 'node:crypto';
import net from 'node:net';
import request from 'supertest';
import { configureTestTenant } from './harness/configuration';
import { startFreezableProxy, type FreezableProxy } from './harness/freezable-proxy';
import { createTestTenant, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

/** A loopback port nothing listens on (for the worker's health listener). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The value of one series in a Prometheus exposition, or undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The operator's view (issue 12, item 6): liveness and readiness of the api and the worker,
 * Prometheus metrics, and the request id of every request. Runs on the engine behind a
 * freezable proxy, so readiness can be shown failing when the engine stalls.
 */
describe("The operator's view: health, metrics and request ids", () => {
  const metricsToken = `metrics-${randomBytes(6).toString('hex')}`;
  let proxy: FreezableProxy;
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let workerPort: number;
  const worker = () => `http://127.0.0.1:${workerPort}`;
  const scrape = (target: string | TestApp['http'] = app.http) =>
    request(target).get('/metrics').set('Authorization', `Bearer ${metricsToken}`).expect(200);

  beforeAll(async () => {
    const engine = new URL(process.env.TEST_MONGODB_BASE!);
    proxy = await startFreezableProxy({ host: engine.hostname, port: Number(engine.port) });
    workerPort = await freePort();
    app = await startTestApp({
      env: {
        MONGODB_URI: `mongodb://127.0.0.1:${proxy.port}/observability_${Date.now().toString(36)}`,
        WORKER_HEALTH_PORT: String(workerPort),
        METRICS_TOKEN: metricsToken,
      },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });

  afterAll(async () => {
    proxy?.thaw();
    await app?.close();
    await proxy?.close();
  });

  it('answers liveness at /health/live, outside the API prefix and without authorization', async () => {
    const live = await request(app.http).get('/health/live').expect(200);
    expect(live.headers['content-type']).toMatch(/^application\/json/);
    expect(live.body).toMatchObject({ status: 'ok' });
    await request(app.http).get('/Profiles/v4/health/live').expect(404);
  });

  it('answers readiness 200 while the engine and Redis answer', async () => {
    const ready = await request(app.http).get('/health/ready').expect(200);
    expect(ready.body).toEqual({
      status: 'ok',
      info: { engine: { status: 'up' }, redis: { status: 'up' } },
      error: {},
      details: { engine: { status: 'up' }, redis: { status: 'up' } },
    });
  });

  it("serves the worker's liveness, readiness and metrics on WORKER_HEALTH_PORT", async () => {
    const live = await request(worker()).get('/health/live').expect(200);
    expect(live.body).toMatchObject({ status: 'ok' });
    const ready = await request(worker()).get('/health/ready').expect(200);
    expect(ready.body.details).toEqual({ engine: { status: 'up' }, redis: { status: 'up' } });
    await request(worker()).get('/metrics').expect(401);
    const metrics = await scrape(worker());
    expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
    expect(metrics.text).toContain('# TYPE pcp_profile_writes_applied_total counter');
    expect(metrics.text).toContain('# TYPE process_cpu_user_seconds_total counter');
    await request(worker()).get('/nothing').expect(404);
    await request(worker()).post('/health/live').expect(405);
  });

  it('serves /metrics only with the METRICS_TOKEN', async () => {
    const none = await request(app.http).get('/metrics').expect(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(none.body).toEqual({ Message: expect.stringMatching(/METRICS_TOKEN/) });
    await request(app.http).get('/metrics').set('Authorization', 'Bearer wrong').expect(401);
    // A tenant's token is not the metrics token.
    await request(app.http).get('/metrics').set('Authorization', auth).expect(401);
    const metrics = await scrape();
    expect(metrics.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(metrics.text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('times requests by method, route template and status, never by the concrete path', async () => {
    const created = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Timed' } })
      .expect(202);
    const id = created.body.ProfileId as number;
    await eventually(async () => {
      const res = await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${id}`)
        .set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });
    // The legacy prefix is the same route.
    await request(app.http)
      .get(`/Profiles/v2/${tenant.clientId}/Profile/${id}`)
      .set('Authorization', auth)
      .expect(200);
    await request(app.http).get('/no/such/path').expect(404);

    const { text } = await scrape();
    const route = '/Profiles/v4/:clientId/Profile/:profileId';
    const byId = sample(text, 'http_request_duration_seconds_count', {
      method: 'GET',
      route,
      status: '200',
    });
    expect(byId).toBeGreaterThanOrEqual(2);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/Profiles/v4/:clientId/Profile',
        status: '202',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket', {
        method: 'GET',
        route,
        status: '200',
        le: '+Inf',
      }),
    ).toBe(byId);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    // No series names a tenant or an id.
    const routes = [...text.matchAll(/route="([^"]*)"/g)].map((match) => match[1]);
    expect(routes.join(' ')).not.toContain(tenant.clientId);
    expect(routes.filter((path) => /\/\d+(\/|$)/.test(path))).toEqual([]);
  });

  it('reads the queue depth and the oldest waiting job at scrape time, and counts applied writes', async () => {
    const { text: before } = await scrape();
    for (const queue of ['jobs']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(sample(before, 'pcp_queue_jobs', { queue, state })).toEqual(expect.any(Number));
      }
      expect(
        sample(before, 'pcp_queue_oldest_waiting_job_age_seconds', { queue }),
      ).toBeGreaterThanOrEqual(0);
    }

    // No worker: an accepted write waits in the queue.
    await app.stopWorker(app.workers[0]);
    let id: number;
    try {
      const created = await request(app.http)
        .post(`/Profiles/v4/${tenant.clientId}/Profile`)
        .set('Authorization', auth)
        .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Queued' } })
        .expect(202);
      id = created.body.ProfileId as number;
      const waiting = await eventually(async () => {
        const { text } = await scrape();
        const count = sample(text, 'pcp_queue_jobs', { queue: 'jobs', state: 'waiting' }) ?? 0;
        const age = sample(text, 'pcp_queue_oldest_waiting_job_age_seconds', { queue: 'jobs' });
        const items = sample(text, 'pcp_tenant_queue_items', {
          lane: 'interactive',
          what: 'items',
        });
        const tenants = sample(text, 'pcp_tenant_queue_items', {
          lane: 'interactive',
          what: 'tenants',
        });
        return count >= 1 && age! > 0 ? { count, age: age!, items, tenants } : undefined;
      });
      expect(waiting.count).toBeGreaterThanOrEqual(1);
      // The write waits in its tenant's queue (the fair queue), its turn in Bull's.
      expect(waiting.items).toBeGreaterThanOrEqual(1);
      expect(waiting.tenants).toBeGreaterThanOrEqual(1);
      expect(waiting.age).toBeLessThan(60);
    } finally {
      await app.startWorker();
    }

    // The new worker applies it, and counts it.
    await eventually(async () => {
      const res = await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${id!}`)
        .set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });
    const applied = await eventually(async () => {
      const { text } = await scrape(worker());
      const count = sample(text, 'pcp_profile_writes_applied_total', { kind: 'create' });
      return count && count >= 1 ? count : undefined;
    });
    expect(applied).toBeGreaterThanOrEqual(1);
    const { text: after } = await scrape();
    expect(sample(after, 'pcp_queue_jobs', { queue: 'jobs', state: 'waiting' })).toBe(0);
  });

  it('echoes the client X-Request-Id when sane, and gives every answer one', async () => {
    const given = await request(app.http)
      .get('/health/live')
      .set('X-Request-Id', 'trace-42.a_B-c')
      .expect(200);
    expect(given.headers['x-request-id']).toBe('trace-42.a_B-c');
    for (const bad of ['x'.repeat(129), 'has space', 'semi;colon']) {
      const replaced = await request(app.http).get('/health/live').set('X-Request-Id', bad);
      expect(replaced.headers['x-request-id']).toMatch(UUID);
    }
    const generated = await request(app.http).get('/health/live');
    expect(generated.headers['x-request-id']).toMatch(UUID);
    // Errors too: a 401, a 404 and a refusal before any route.
    const unauthorized = await request(app.http)
      .get(`/Profiles/v4/${tenant.clientId}/Profile/1`)
      .set('X-Request-Id', 'r-401')
      .expect(401);
    expect(unauthorized.headers['x-request-id']).toBe('r-401');
    const missing = await request(app.http).get('/nowhere').expect(404);
    expect(missing.headers['x-request-id']).toMatch(UUID);
    const wrongType = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile`)
      .set('Authorization', auth)
      .set('Content-Type', 'text/plain')
      .set('X-Request-Id', 'r-415')
      .send('hello')
      .expect(415);
    expect(wrongType.headers['x-request-id']).toBe('r-415');
  });

  it('answers readiness 503 naming the engine while it stalls, and 200 once it answers', async () => {
    proxy.freeze();
    try {
      const started = Date.now();
      const stalled = await request(app.http).get('/health/ready').expect(503);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(stalled.headers['content-type']).toMatch(/^application\/json/);
      expect(stalled.body).toEqual({
        Message: 'Not ready: engine (no answer within 1000 ms) down',
        status: 'error',
        info: { redis: { status: 'up' } },
        error: { engine: { status: 'down', message: 'no answer within 1000 ms' } },
        details: {
          engine: { status: 'down', message: 'no answer within 1000 ms' },
          redis: { status: 'up' },
        },
      });
      // Alive all the same: a restart would not bring the engine back.
      await request(app.http).get('/health/live').expect(200);
      const workerReady = await request(worker()).get('/health/ready').expect(503);
      expect(workerReady.body.error).toEqual({
        engine: { status: 'down', message: 'no answer within 1000 ms' },
      });
    } finally {
      proxy.thaw();
    }
    await eventually(async () => {
      const res = await request(app.http).get('/health/ready');
      return res.status === 200 ? true : undefined;
    });
    await request(worker()).get('/health/ready').expect(200);
  });
});
