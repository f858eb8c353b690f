import {
  type CanActivate,
  type ExecutionContext,
  HttpStatus,
  Inject,
  Injectable,
  Optional,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, RecordedAnswer } from '../errors/api-error';
import { RedisService } from '../redis/redis.service';
import { Settings } from '../settings/settings';
import { StreamedBody } from './streamed-body';
import { routeOptionsOf } from './route-config';
import { type CommittedAnswer, requestWindowOf } from '../deadline/request-window';
import {
  DURABLE_IDEMPOTENCY,
  type DurableIdempotency,
  type StoredKeyAnswer,
} from './durable-idempotency';

/** Added to a request's deadline for how long its key is marked running in Redis. */
const RUNNING_MARGIN_MS = 1000;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers of a first answer that a replay repeats. */
const REPLAYED_HEADERS = ['location', 'link'] as const;

/** What is kept of a first answer under its key. */
interface StoredAnswer {
  /** Hash of the method, route, path and body the key was first used with. */
  request: string;
  state: 'running' | 'done';
  status?: number;
  /** The answer's JSON text, as it was sent ('' when it had no body). */
  json?: string;
  headers?: Partial<Record<(typeof REPLAYED_HEADERS)[number], string>>;
}

/** Set on a request whose key this process claimed: keeps or releases it once answered. */
const SETTLE = Symbol('idempotency-settle');
type SettleAnswer = (reply: FastifyReply, payload: unknown) => Promise<void>;
type ClaimingRequest = FastifyRequest & { [SETTLE]?: SettleAnswer };

/** JSON with object keys sorted: the same body sent with its keys reordered is the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `Idempotency-Key` on writes (POST, PUT, PATCH, DELETE of a client's routes): the first
 * request with a key runs and its successful answer (status, body, `Location`, `Link`) is
 * kept for IDEMPOTENCY_TTL_SECONDS under the client and the key; a replay with the same
 * key, route and body gets that answer again without a second effect; the same key with
 * another request is 422; a replay while the first still runs is 409. An answer that is
 * an error is not kept (the request may be retried with its key). Keys live in Redis (like
 * the leases): if Redis loses them within the TTL, a replay runs again.
 *
 * A guard placed by `@ApiAuth` after authentication and the rate limit (a refused request
 * uses no key) claims the key; the answer is kept by the api's onSend hook
 * (`installIdempotencyHook`) from the bytes sent. Not an interceptor: reads pay nothing.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(
    private readonly redis: RedisService,
    private readonly settings: Settings,
    @Optional() @Inject(DURABLE_IDEMPOTENCY) private readonly durable?: DurableIdempotency,
  ) {}

  // Synchronous for a request without a key (every GET): Nest's guards take a boolean
  // without the two awaits a promise costs them.
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const request = context.switchToHttp().getRequest<ClaimingRequest>();
    const header = request.headers['idempotency-key'];
    const clientId = (request.params as { clientId?: string } | undefined)?.clientId;
    if (header === undefined || !WRITE_METHODS.has(request.method) || clientId === undefined) {
      return true;
    }
    return this.useKey(request, header, clientId);
  }

  /** Claims the key for this request, or throws what a request with a taken key gets. */
  private async useKey(
    request: ClaimingRequest,
    header: string | string[],
    clientId: string,
  ): Promise<boolean> {
    const key = Array.isArray(header) ? header.join(',') : header;
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError(
        HttpStatus.BAD_REQUEST,
        `Invalid Idempotency-Key (value ${JSON.stringify(key)}): 1 to 255 visible ASCII characters`,
      );
    }
    const redisKey = this.redis.key('idem', clientId, key);
    const fingerprint = createHash('sha256')
      .update(`${request.method} ${routeOptionsOf(request).url} ${request.url}\n`)
      // A streamed body is not read twice: its length stands for it (documented).
      .update(
        request.body instanceof StreamedBody
          ? `stream ${String(request.headers['content-length'] ?? '')}`
          : canonical(request.body ?? null),
      )
      .digest('base64url');
    const ttl = this.settings.idempotencyTtlSeconds;
    const window = requestWindowOf(request);
    const config = routeOptionsOf(request).config as { durableIdempotency?: boolean } | undefined;
    if (this.durable && window && config?.durableIdempotency) {
      const start = await this.durable.begin(clientId, key, fingerprint, window.deadlineMs);
      if (start.kind === 'mismatch')
        throw this.replay({ request: '', state: 'done' }, fingerprint, key);
      if (start.kind === 'running')
        throw this.replay({ request: fingerprint, state: 'running' }, fingerprint, key);
      if (start.kind === 'replay') throw replayOf(start.answer);
      window.keyed = start.attempt;
      const durable = this.durable;
      // The answer is kept before it is sent, so a resend that follows it replays it (should
      // this process die first, a resend gets the committed write's 202 from the fate).
      request[SETTLE] = async (reply, payload) => {
        if (window.state === 'committed') {
          const answer = answerOf(fingerprint, reply, payload);
          await durable.keep(clientId, start.attempt, answer).catch(() => undefined);
        } else {
          // Answered an error before committing: it never commits. Voided before the answer
          // leaves, so a resend that follows the answer runs at once (not 409).
          await durable.abandon(clientId, start.attempt).catch(() => undefined);
        }
      };
      return true;
    }

    // Marked running only while the request can run (its deadline): a process that died
    // holding the key does not lock it for the TTL.
    const runningSeconds = Math.ceil(
      ((window?.deadlineMs ?? this.settings.requestDeadlineMs) + RUNNING_MARGIN_MS) / 1000,
    );
    const earlier = await this.claim(redisKey, fingerprint, runningSeconds);
    if (earlier) throw this.replay(earlier, fingerprint, key);
    request[SETTLE] = (reply, payload) => this.settle(redisKey, fingerprint, ttl, reply, payload);
    return true;
  }

  /** Reserves the key for this request; the earlier answer when the key is taken. */
  private async claim(
    redisKey: string,
    fingerprint: string,
    ttl: number,
  ): Promise<StoredAnswer | null> {
    const running: StoredAnswer = { request: fingerprint, state: 'running' };
    const set = await this.redis.client.set(redisKey, JSON.stringify(running), 'EX', ttl, 'NX');
    if (set === 'OK') return null;
    const stored = await this.redis.client.get(redisKey);
    // Expired between the two commands: this request runs.
    if (stored === null) return this.claim(redisKey, fingerprint, ttl);
    return JSON.parse(stored) as StoredAnswer;
  }

  /** The error (or the recorded answer) a request with a taken key gets. */
  private replay(earlier: StoredAnswer, fingerprint: string, key: string): Error {
    if (earlier.request !== fingerprint) {
      return new ApiError(
        HttpStatus.UNPROCESSABLE_ENTITY,
        `Idempotency-Key ${JSON.stringify(key)} was used with another request (method, path or body); use a new key for a new request`,
      );
    }
    if (earlier.state === 'running') {
      return new ApiError(
        HttpStatus.CONFLICT,
        `A request with Idempotency-Key ${JSON.stringify(key)} is still running; retry in a moment`,
        { 'Retry-After': '1' },
      );
    }
    const headers: Record<string, string> = { 'Idempotent-Replayed': 'true' };
    for (const [name, value] of Object.entries(earlier.headers ?? {})) {
      if (value !== undefined) headers[name] = value;
    }
    return new RecordedAnswer(earlier.status ?? HttpStatus.OK, earlier.json ?? '', headers);
  }

  /** Once answered: a success is kept under the key, an error releases it. */
  private async settle(
    redisKey: string,
    fingerprint: string,
    ttl: number,
    reply: FastifyReply,
    payload: unknown,
  ): Promise<void> {
    if (reply.statusCode >= 300) {
      await this.redis.client.del(redisKey).catch(() => 0);
      return;
    }
    const done: StoredAnswer = { state: 'done', ...answerOf(fingerprint, reply, payload) };
    // The write is accepted whether or not its answer could be kept.
    await this.redis.client.set(redisKey, JSON.stringify(done), 'EX', ttl).catch(() => undefined);
  }
}

/** What is kept of an answer: status, JSON text ('' without a body), replayed headers. */
function answerOf(fingerprint: string, reply: FastifyReply, payload: unknown): StoredKeyAnswer {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') headers[name] = value;
  }
  return {
    request: fingerprint,
    status: reply.statusCode,
    json: typeof payload === 'string' ? payload : '',
    headers,
  };
}

/** The recorded answer of a committed attempt (kept, or its write's 202 if none was kept). */
function replayOf(answer: StoredKeyAnswer | CommittedAnswer): RecordedAnswer {
  const kept = 'json' in answer;
  const json = kept ? answer.json : JSON.stringify(answer.body);
  return new RecordedAnswer(answer.status, json, {
    ...answer.headers,
    'Idempotent-Replayed': 'true',
  });
}

/** The api's hook that keeps (or releases) the key a request claimed, with what is sent. */
export function installIdempotencyHook(fastify: FastifyInstance): void {
  // With `done`, not async: a request that claimed no key (every read) costs no promise.
  fastify.addHook('onSend', (request: ClaimingRequest, reply, payload, done) => {
    const settle = request[SETTLE];
    if (!settle) return done(null, payload);
    request[SETTLE] = undefined;
    // While settle waited on Redis another send may have answered (the deadline's 503 began
    // this one, then the route answered): writing again would throw ERR_HTTP_HEADERS_SENT
    // outside any request and end the process, so this send stops here.
    settle(reply, payload).then(
      () => (reply.raw.headersSent ? undefined : done(null, payload)),
      (error: Error) => (reply.raw.headersSent ? undefined : done(error)),
    );
  });
}
