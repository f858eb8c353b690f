import { getConnectionToken } from '@nestjs/mongoose';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { Connection } from 'mongoose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { exportSpansTo, TenantFairQueue, type TraceCarrier, tracingEnabled } from '@app/shared';
import { configureTestTenant } from './harness/configuration';
import { createTestTenant, type TestTenant } from './harness/session';
import { eventually, startTestApp, type TestApp } from './harness/test-app';

type Json = Record<string, any>;

/** A webhook endpoint on 127.0.0.1: answers handshakes, records deliveries (204). */
async function startReceiver() {
  const deliveries: Json[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as Json;
      if (body.Type === 'SubscriptionValidation') {
        return res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ Challenge: body.Challenge }));
      }
      deliveries.push(body);
      return res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    deliveries,
    url: `http://127.0.0.1:${port}/hook`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The spans recorded so far, with their parent links followed. */
function spanTree(spans: InMemorySpanExporter) {
  const all = () => spans.getFinishedSpans();
  const byId = () => new Map(all().map((span) => [span.spanContext().spanId, span]));
  return {
    all,
    parent: (span: ReadableSpan) => byId().get(span.parentSpanContext?.spanId ?? ''),
    /** The span and its ancestors' names, the span first. */
    chain(span: ReadableSpan): string[] {
      const spansById = byId();
      const names: string[] = [];
      for (let at: ReadableSpan | undefined = span; at;) {
        names.push(at.name);
        at = spansById.get(at.parentSpanContext?.spanId ?? '');
      }
      return names;
    },
    children: (span: ReadableSpan) =>
      all().filter((child) => child.parentSpanContext?.spanId === span.spanContext().spanId),
    requestSpan: (reqId: string) =>
      all().find(
        (span) => span.kind === SpanKind.SERVER && span.attributes['pcp.request_id'] === reqId,
      ),
    applySpanOf: (profileId: number) =>
      all().find(
        (span) => span.name === 'profile.apply' && span.attributes['pcp.profile_id'] === profileId,
      ),
  };
}

/** The spanId a traceparent names. */
const spanIdOf = (carrier: TraceCarrier | undefined) => carrier?.traceparent.split('-')[2];

/**
 * Tracing (docs/operations.md, "Tracing"): with an OTLP endpoint set, a write is one trace
 * from the api's request span through its queued job, the worker's apply span and its
 * stages, to each webhook delivery attempt. Spans go to an in-memory exporter
 * (exportSpansTo) instead of the endpoint, which is never contacted. Without an endpoint
 * nothing is recorded and nothing is added to jobs or writes.
 */
describe('Tracing on: a write traced from its request to its webhook delivery', () => {
  const spans = new InMemorySpanExporter();
  const tree = spanTree(spans);
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const v4 = () => `/Profiles/v4/${tenant.clientId}`;
  const complete = (profileId: number) =>
    eventually(async () => {
      const res = await request(app.http)
        .get(`${v4()}/Profile/${profileId}`)
        .set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });

  beforeAll(async () => {
    exportSpansTo(spans);
    app = await startTestApp({
      env: {
        // Never contacted: the spans go to the in-memory exporter.
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
        EVENTS_ALLOW_PRIVATE_TARGETS: 'true',
        // The sweeper forces no job of its own while a test holds writes back.
        STALE_WRITE_MS: '120000',
      },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
    exportSpansTo(undefined);
  });

  it('links the request span, the job, the apply and its stages, and the delivery attempt in one trace', async () => {
    expect(tracingEnabled()).toBe(true);
    const subscribed = await request(app.http)
      .post(`${v4()}/Events/Subscriptions`)
      .set('Authorization', auth)
      .send({
        Name: 'traced',
        State: 'Active',
        Url: receiver.url,
        Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
      });
    expect([subscribed.status, subscribed.body.Message]).toEqual([201, undefined]);
    await eventually(async () => {
      const got = await request(app.http)
        .get(`${v4()}/Events/Subscriptions/${subscribed.body.SubscriptionId}`)
        .set('Authorization', auth);
      return got.body.ValidationStatus === 'Validated' ? true : undefined;
    });

    const created = await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .set('X-Request-Id', 'traced-create-1')
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Traced' } })
      .expect(202);
    const profileId = created.body.ProfileId as number;
    const attempt = await eventually(async () =>
      tree
        .all()
        .find(
          (span) =>
            span.name === 'POST webhook' &&
            tree.parent(span)?.name === 'process event-delivery' &&
            receiver.deliveries.some((body) => body.ProfileId === profileId),
        ),
    );

    // The request's server span: its id (the logs' reqId), method, route template, status.
    const requestSpan = tree.requestSpan('traced-create-1')!;
    expect(requestSpan).toBeDefined();
    expect(requestSpan.name).toBe('POST /Profiles/v4/:clientId/Profile');
    expect(requestSpan.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/Profiles/v4/:clientId/Profile',
      'http.response.status_code': 202,
      'pcp.client_id': tenant.clientId,
    });

    // request -> job -> apply -> stages.
    const apply = tree.applySpanOf(profileId)!;
    expect(tree.chain(apply)).toEqual([
      'profile.apply',
      'process apply-profile-writes',
      'POST /Profiles/v4/:clientId/Profile',
    ]);
    const job = tree.parent(apply)!;
    expect(job.kind).toBe(SpanKind.CONSUMER);
    expect(job.attributes).toMatchObject({
      'messaging.destination.name': 'jobs',
      'pcp.job.name': 'apply-profile-writes',
    });
    expect(apply.attributes).toMatchObject({
      'pcp.client_id': tenant.clientId,
      'pcp.writes_applied': 1,
    });
    expect(new Set(tree.children(apply).map((span) => span.name))).toEqual(
      new Set([
        'profile.apply.load',
        'profile.apply.fold',
        'profile.apply.record',
        'profile.apply.save',
        'profile.apply.after-apply',
      ]),
    );

    // The save queued the delivery job: its attempt is a client span of the same trace.
    expect(tree.chain(attempt)).toEqual([
      'POST webhook',
      'process event-delivery',
      'profile.apply.save',
      'profile.apply',
      'process apply-profile-writes',
      'POST /Profiles/v4/:clientId/Profile',
    ]);
    expect(attempt.kind).toBe(SpanKind.CLIENT);
    expect(attempt.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 204,
      'server.address': '127.0.0.1',
      'pcp.subscription_id': subscribed.body.SubscriptionId,
      'pcp.event_id': `${profileId}-1-0`,
    });
    expect(attempt.attributes['url.full']).toBeUndefined();
    const traceId = requestSpan.spanContext().traceId;
    for (const span of [job, apply, attempt, ...tree.children(apply)]) {
      expect(span.spanContext().traceId).toBe(traceId);
    }

    // The write's record keeps the context of the request that accepted it.
    const record = await app.api
      .get<Connection>(getConnectionToken())
      .collection('profile_writes')
      .findOne({ clientId: tenant.clientId, profileId, seq: 1 });
    expect(spanIdOf(record?.trace as TraceCarrier)).toBe(requestSpan.spanContext().spanId);
  });

  it("gives the apply of several requests' writes its parent from the first and links to the others", async () => {
    const created = await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Linked' } })
      .expect(202);
    const profileId = created.body.ProfileId as number;
    await complete(profileId);

    // No worker: the first merge queues the profile's job, the next two find it queued.
    await app.stopWorker(app.workers[0]);
    for (const n of [1, 2, 3]) {
      await request(app.http)
        .post(`${v4()}/Profile/${profileId}`)
        .set('Authorization', auth)
        .set('X-Request-Id', `traced-merge-${n}`)
        .send({ CustomerName: { FirstName: `Linked${n}` } })
        .expect(202);
    }
    // A request's span ends once its answer is sent (Fastify's onResponse).
    const [first, ...others] = await Promise.all(
      [1, 2, 3].map((n) => eventually(async () => tree.requestSpan(`traced-merge-${n}`))),
    );
    // One job waits, carrying the first merge's request span in its payload.
    // The profile's one queued job waits in its tenant's queue (TenantFairQueue).
    const waiting = (await app.api.get(TenantFairQueue).waiting())
      .map((item) => ({ data: item.payload as { profileId: number; trace?: TraceCarrier } }))
      .filter((queued) => queued.data.profileId === profileId);
    expect(waiting).toHaveLength(1);
    expect(spanIdOf(waiting[0].data.trace)).toBe(first.spanContext().spanId);

    await app.startWorker();
    await complete(profileId);
    const apply = await eventually(async () => {
      const found = tree
        .all()
        .filter(
          (span) =>
            span.name === 'profile.apply' && span.attributes['pcp.profile_id'] === profileId,
        );
      return found.find((span) => span.attributes['pcp.writes_applied'] === 3);
    });
    expect(tree.parent(tree.parent(apply)!)?.spanContext().spanId).toBe(first.spanContext().spanId);
    expect(apply.spanContext().traceId).toBe(first.spanContext().traceId);
    expect(apply.links.map((link) => link.context.spanId).sort()).toEqual(
      others.map((span) => span.spanContext().spanId).sort(),
    );
    for (const [k, link] of apply.links.entries()) {
      expect(link.context.traceId).not.toBe(first.spanContext().traceId);
      expect(link.attributes).toEqual({ 'pcp.link': 'write' });
      expect(k).toBeLessThan(2);
    }
  });

  it('leaves probes and scrapes untraced', async () => {
    spans.reset();
    await request(app.http).get('/health/live').expect(200);
    await request(app.http).get('/Profiles/v4/no-such-route-here').expect(404);
    const unmatched = await eventually(async () =>
      tree.all().find((span) => span.kind === SpanKind.SERVER),
    );
    expect(unmatched.name).toBe('GET');
    expect(unmatched.attributes['http.route']).toBeUndefined();
    expect(tree.all().filter((span) => span.kind === SpanKind.SERVER)).toHaveLength(1);
  });
});

describe('Tracing off (no OTLP endpoint): nothing recorded, nothing carried', () => {
  const spans = new InMemorySpanExporter();
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;

  beforeAll(async () => {
    // The test exporter is in place: only the missing endpoint keeps tracing off.
    exportSpansTo(spans);
    app = await startTestApp({ env: { STALE_WRITE_MS: '120000' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(async () => {
    await app?.close();
    exportSpansTo(undefined);
  });

  it('records no span and adds no trace to jobs or writes', async () => {
    expect(tracingEnabled()).toBe(false);
    await app.stopWorker(app.workers[0]);
    const created = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Untraced' } })
      .expect(202);
    const profileId = created.body.ProfileId as number;
    // The profile's one queued job waits in its tenant's queue (TenantFairQueue).
    const waiting = (await app.api.get(TenantFairQueue).waiting())
      .map((item) => ({ data: item.payload as { profileId: number; trace?: TraceCarrier } }))
      .filter((queued) => queued.data.profileId === profileId);
    expect(waiting).toHaveLength(1);
    expect(waiting[0].data).not.toHaveProperty('trace');
    await app.startWorker();
    await eventually(async () => {
      const res = await request(app.http)
        .get(`/Profiles/v4/${tenant.clientId}/Profile/${profileId}`)
        .set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });
    const record = await app.api
      .get<Connection>(getConnectionToken())
      .collection('profile_writes')
      .findOne({ clientId: tenant.clientId, profileId, seq: 1 });
    expect(record).not.toBeNull();
    expect(record).not.toHaveProperty('trace');
    expect(spans.getFinishedSpans()).toEqual([]);
  });
});
