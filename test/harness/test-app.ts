import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { EVENTS_QUEUE } from '@app/events';
import { Clock, JobQueues, JobRunner, Settings } from '@app/shared';
import { closeApiApp, createApiApp } from '../../apps/api/src/bootstrap';
import { closeWorkerApp, createWorkerApp } from '../../apps/worker/src/bootstrap';
import { closeDecisionsApp, createDecisionsApp } from '../../apps/decisions/src/bootstrap';
import {
  closeEventsWorkerApp,
  createEventsWorkerApp,
} from '../../apps/events-worker/src/bootstrap';

export interface TestApp {
  api: NestFastifyApplication;
  http: Server;
  settings: Settings;
  /** Worker processes of this app (several may run; each is a real Bull consumer). */
  workers: INestApplicationContext[];
  /**
   * The e2e-lifted project (TEST_LIFTED_EVENTS): the lifted events worker
   * (apps/events-worker), which alone serves the events queue; the workers run with
   * EVENTS_DELIVERY=lifted. Undefined otherwise, or while stopped.
   */
  eventsWorker?: INestApplicationContext;
  startEventsWorker(): Promise<INestApplicationContext>;
  stopEventsWorker(): Promise<void>;
  startWorker(): Promise<INestApplicationContext>;
  stopWorker(worker: INestApplicationContext): Promise<void>;
  /**
   * Stops a worker as a crash would: its queue stops taking jobs without waiting for the
   * active ones (a job frozen at a crash point never ends), then its connections close.
   */
  killWorker(worker: INestApplicationContext): Promise<void>;
  /** Sets the Clock (what scheduled jobs take as now) of the api and every worker. */
  setNow(at: Date): void;
  /** Moves that Clock forward by `ms` (tests move time instead of sleeping). */
  advance(ms: number): void;
  close(): Promise<void>;
}

/**
 * Boots the real api (and, unless `workers: 0`, one worker) against the engine and Redis
 * that the global setup started, with a database and queue prefix of this app's own.
 * One api per Jest file: passport keeps its strategies in a process-wide registry, so a
 * second api started in the same file takes over authentication of the first (its database
 * and JWT secret), and the first app's tenants then get 401.
 */
/** Apis of this test file started and not yet closed (Jest loads this module per file). */
let liveApis = 0;

export async function startTestApp(
  options: { workers?: number; env?: Record<string, string> } = {},
): Promise<TestApp> {
  if (liveApis > 0) {
    throw new Error(
      'startTestApp: an api of this test file is still running; close it first (one live api per file: passport strategies are process-wide)',
    );
  }
  liveApis++;
  const id = randomBytes(6).toString('hex');
  const liftedEvents = process.env.TEST_LIFTED_EVENTS === '1';
  const settings = new Settings({
    MONGODB_URI: `${process.env.TEST_MONGODB_BASE}test_${id}`,
    REDIS_URL: process.env.TEST_REDIS_URL,
    // The e2e-cluster project: a Redis Cluster (cluster-env.ts).
    REDIS_CLUSTER_NODES: process.env.TEST_REDIS_CLUSTER_NODES,
    JWT_SECRET: `test-secret-${id}`,
    QUEUE_PREFIX: `test-${id}`,
    SWEEP_INTERVAL_MS: '1000',
    STALE_WRITE_MS: '2000',
    // Suites run side by side on a loaded machine: a request's deadline (2 s by default) is
    // tested where it matters (test/engine/stalled-engine.e2e-spec.ts sets its own).
    REQUEST_DEADLINE_MS: '10000',
    // For the same reason: with 2 s, a Redis command of the test process timed out in CI (a
    // tenant's creation, 503) while the machine was saturated.
    REDIS_COMMAND_TIMEOUT_MS: '10000',
    // Scheduled jobs run only when a test triggers them (or sets an interval itself).
    CONSENT_EXPIRY_INTERVAL_MS: '0',
    CONSENT_VERSION_INTERVAL_MS: '0',
    DNC_PROPAGATION_INTERVAL_MS: '0',
    CONFIRMATION_SWEEP_INTERVAL_MS: '0',
    CONFIRMATION_EXPIRY_INTERVAL_MS: '0',
    // Double opt-in messages: the mail catcher the global setup started.
    ...(process.env.TEST_SMTP_URL ? { SMTP_URL: process.env.TEST_SMTP_URL } : {}),
    // Bull starts an `every` schedule on the interval's wall-clock boundary: on at 10 minutes,
    // they ran in whichever test spanned a boundary (a scan in the hot-path test).
    BULK_IMPORT_CLEANUP_INTERVAL_MS: '0',
    BULK_EXPORT_EXPIRY_INTERVAL_MS: '0',
    LOG_LEVEL: process.env.LOG_LEVEL || 'error',
    OPERATOR_TOKEN: `test-operator-${id}`,
    // Closing waits for running jobs and requests at most this long.
    SHUTDOWN_GRACE_MS: '5000',
    // The e2e-lifted project: the events queue is the lifted events worker's.
    ...(liftedEvents ? { EVENTS_DELIVERY: 'lifted' } : {}),
    ...options.env,
  });
  let api: NestFastifyApplication;
  try {
    api = await createApiApp(settings);
    await api.init();
    await api.getHttpAdapter().getInstance().ready();
  } catch (error) {
    liveApis--;
    throw error;
  }

  // The e2e-lifted project: the contact decisions are answered by the lifted decisions app
  // (apps/decisions), every other route by the api, through one server.
  let decisions: NestFastifyApplication | undefined;
  if (process.env.TEST_LIFTED_DECISIONS === '1') {
    try {
      decisions = await createDecisionsApp(settings);
      await decisions.init();
      await decisions.getHttpAdapter().getInstance().ready();
    } catch (error) {
      await closeApiApp(api, settings);
      liveApis--;
      throw error;
    }
  }
  const workers: INestApplicationContext[] = [];
  const clocks = () =>
    [
      api,
      ...(decisions ? [decisions] : []),
      ...workers,
      ...(app.eventsWorker ? [app.eventsWorker] : []),
    ].map((nest) => nest.get(Clock, { strict: false }));
  const app: TestApp = {
    api,
    http: decisions
      ? routeDecisions(api.getHttpServer() as Server, decisions.getHttpServer() as Server)
      : (api.getHttpServer() as Server),
    settings,
    workers,
    async startEventsWorker() {
      if (app.eventsWorker) throw new Error('startEventsWorker: one is running');
      const eventsWorker = await createEventsWorkerApp(settings);
      eventsWorker.get(Clock, { strict: false }).advance(api.get(Clock, { strict: false }).offset);
      await eventsWorker.init();
      app.eventsWorker = eventsWorker;
      return eventsWorker;
    },
    async stopEventsWorker() {
      const eventsWorker = app.eventsWorker;
      app.eventsWorker = undefined;
      if (eventsWorker) await closeEventsWorkerApp(eventsWorker, settings);
    },
    async startWorker() {
      const worker = await createWorkerApp(settings);
      // A worker started later keeps the time the test set.
      worker.get(Clock, { strict: false }).advance(api.get(Clock, { strict: false }).offset);
      await worker.init();
      workers.push(worker);
      // Lifted: a worker that took the events queue's work would deliver in the events
      // worker's place, and the suites would prove nothing of the lifted app.
      const served = worker.get(JobRunner, { strict: false }).servedQueues;
      if (liftedEvents && served.includes(EVENTS_QUEUE)) {
        throw new Error(`the worker serves ${served.join(', ')} with the deliveries lifted`);
      }
      return worker;
    },
    async stopWorker(worker) {
      workers.splice(workers.indexOf(worker), 1);
      // As on SIGTERM: the running jobs finish first.
      await closeWorkerApp(worker, settings);
    },
    async killWorker(worker) {
      workers.splice(workers.indexOf(worker), 1);
      for (const { queue } of worker.get(JobQueues, { strict: false }).lines) {
        await queue.close(true);
      }
      await worker.close();
    },
    setNow(at) {
      for (const clock of clocks()) clock.set(at);
    },
    advance(ms) {
      for (const clock of clocks()) clock.advance(ms);
    },
    async close() {
      for (const worker of [...workers]) await app.stopWorker(worker);
      await app.stopEventsWorker();
      if (decisions) await closeDecisionsApp(decisions, settings);
      await closeApiApp(api, settings);
      liveApis--;
    },
  };
  for (let i = 0; i < (options.workers ?? 1); i++) await app.startWorker();
  if (liftedEvents) await app.startEventsWorker();
  return app;
}

/** The contact decision routes (either prefix, as the apps' URL rewrite takes them). */
const DECISION_ROUTE = /^\/profiles\/v[24]\/[^/?]+\/ContactDecisions?(?=\?|$)/i;

/**
 * One server for a test (its `http`): requests for the contact decisions are handed to the
 * lifted decisions app's server, every other request to the api's (each server's own
 * request handler runs them, as if they had been sent to it).
 */
function routeDecisions(api: Server, decisions: Server): Server {
  return createServer((request, response) => {
    (DECISION_ROUTE.test(request.url ?? '') ? decisions : api).emit('request', request, response);
  });
}

/** Polls until `check` returns a value other than undefined (never a fixed sleep). */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `condition not met within ${timeoutMs} ms${lastError ? `: ${String(lastError)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
