import type { FastifyInstance, FastifyReply } from 'fastify';
import { routeOptionsOf, withRouteConfig } from '../http/route-config';
import type { Settings } from '../settings/settings';
import {
  deadlineError,
  installRequestWindows,
  requestWindowOf,
  sendCommittedAnswer,
} from './request-window';

/** How often in-flight requests are checked against their deadline. */
const SWEEP_MS = 100;

/**
 * Marks a route that waits for the worker to apply its write (up to SYNC_WRITE_TIMEOUT_MS):
 * its deadline is that wait plus REQUEST_DEADLINE_MS.
 */
export const WaitsForWorker = (): MethodDecorator => withRouteConfig({ waitsForWorker: true });

/** Reads a route's own deadline, in ms, from the process environment (its settings). */
export type DeadlineOf = (env: NodeJS.ProcessEnv) => number;

const DEADLINE_OF = 'deadlineOf';
const DEADLINE_MS = 'deadlineMs';

type DeadlineConfig = {
  waitsForWorker?: boolean;
  [DEADLINE_OF]?: DeadlineOf;
  [DEADLINE_MS]?: number;
};

/**
 * A route whose own work may take longer than REQUEST_DEADLINE_MS (a bulk import's stage of
 * a thousand records): its deadline is a setting, read when the route is registered.
 */
export const RequestDeadline = (deadlineOf: DeadlineOf): MethodDecorator =>
  withRouteConfig({ [DEADLINE_OF]: deadlineOf });

/**
 * Every request answers within REQUEST_DEADLINE_MS (2 s; routes marked WaitsForWorker: their
 * wait plus that): past it, 503 with Retry-After. The engine's driver offers no per-operation
 * timeout (MongoDB driver 7 ignores `timeoutMS`), so a stalled engine would otherwise hold
 * every request that reaches it, authentication included, for every tenant, without an
 * answer; Redis commands time out on their own (REDIS_COMMAND_TIMEOUT_MS, 2 s). Not 2 s: on a
 * saturated 2-core machine a healthy write acceptance took over 2 s at its p99 (`npm run
 * bench`), and refusing those would only make clients retry into the same load.
 *
 * One timer sweeps the requests in flight (a per-request timer and an rxjs timeout cost a
 * third of a GET's CPU, measured). A write request is answered 503 only while nothing of it
 * committed, and then never commits (its RequestWindow closes); one whose commit is in flight
 * waits for the engine's outcome; one that committed but has not answered gets the answer of
 * its committed write (202). So a write answered 503 is never applied.
 */
export function enforceRequestDeadlines(fastify: FastifyInstance, settings: Settings): void {
  const inFlight = new Map<FastifyReply, number>();
  const short = settings.requestDeadlineMs;
  const long = settings.requestDeadlineMs + settings.syncWriteTimeoutMs;
  // A route's own deadline (RequestDeadline), read once from the settings.
  fastify.addHook('onRoute', (route) => {
    const config = route.config as DeadlineConfig | undefined;
    const deadlineOf = config?.[DEADLINE_OF];
    if (deadlineOf) route.config = { ...config, [DEADLINE_MS]: deadlineOf(settings.env) };
  });
  const deadlineOfRoute = (config: DeadlineConfig | undefined): number =>
    config?.[DEADLINE_MS] ?? (config?.waitsForWorker ? long : short);
  installRequestWindows(fastify, (request) =>
    deadlineOfRoute(routeOptionsOf(request).config as DeadlineConfig | undefined),
  );
  fastify.addHook('onRequest', (request, reply, done) => {
    const config = routeOptionsOf(request).config as DeadlineConfig | undefined;
    inFlight.set(reply, Date.now() + deadlineOfRoute(config));
    done();
  });
  // Once the route's answer is being sent, the deadline is over: a later onSend hook (the
  // idempotency hook keeping the answer in Redis) may outlast it, and a 503 sent meanwhile
  // went out in place of that answer, whose own writeHead then threw ERR_HTTP_HEADERS_SENT
  // and ended the process (a fault run with Redis stalled). Registered before those hooks.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    inFlight.delete(reply);
    done(null, payload);
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    for (const reply of inFlight.keys()) if (reply.request === request) inFlight.delete(reply);
    done();
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [reply, due] of inFlight) {
      if (due > now) continue;
      // An answer already begun (a stream's headers sent) is not cut off.
      if (reply.sent || reply.raw.headersSent) {
        inFlight.delete(reply);
        continue;
      }
      const window = requestWindowOf(reply.request);
      if (window && !window.expire()) {
        // A commit in flight: its outcome answers (looked at again next sweep).
        if (window.state === 'committing') continue;
        if (window.committedAnswer) {
          inFlight.delete(reply);
          sendCommittedAnswer(reply, window.committedAnswer);
          continue;
        }
      }
      inFlight.delete(reply);
      const deadline = deadlineOfRoute(routeOptionsOf(reply.request).config as DeadlineConfig);
      const error = deadlineError(deadline);
      void reply.status(503).headers(error.headers).send({ Message: error.message });
    }
  }, SWEEP_MS);
  sweep.unref();
  fastify.addHook('onClose', (_, done) => {
    clearInterval(sweep);
    done();
  });
}
