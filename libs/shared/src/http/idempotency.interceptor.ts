import {
  type CallHandler,
  type ExecutionContext,
  HttpStatus,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, type Observable, of, throwError } from 'rxjs';
import { ApiError } from '../errors/api-error';
import { RedisService } from '../redis/redis.service';
import { Settings } from '../settings/settings';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers of a first answer that a replay repeats. */
const REPLAYED_HEADERS = ['location', 'link'] as const;

/** What is kept of a first answer under its key. */
interface StoredAnswer {
  /** Hash of the method, route, path and body the key was first used with. */
  request: string;
  state: 'running' | 'done';
  body?: unknown;
  headers?: Partial<Record<(typeof REPLAYED_HEADERS)[number], string>>;
}

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
 * request with a key runs and its successful answer (body, `Location`, `Link`) is kept for
 * IDEMPOTENCY_TTL_SECONDS under the client and the key; a replay with the same key, route
 * and body gets that answer again without a second effect; the same key with another
 * request is 422; a replay while the first still runs is 409. An answer that is an error
 * is not kept (the request may be retried with its key). Keys live in Redis (like the
 * leases): if Redis loses them within the TTL, a replay runs again.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly redis: RedisService,
    private readonly settings: Settings,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const header = request.headers['idempotency-key'];
    const clientId = (request.params as { clientId?: string } | undefined)?.clientId;
    if (header === undefined || !WRITE_METHODS.has(request.method) || clientId === undefined) {
      return next.handle();
    }
    const key = Array.isArray(header) ? header.join(',') : header;
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError(
        HttpStatus.BAD_REQUEST,
        `Invalid Idempotency-Key (value ${JSON.stringify(key)}): 1 to 255 visible ASCII characters`,
      );
    }
    const redisKey = this.redis.key('idem', clientId, key);
    const fingerprint = createHash('sha256')
      .update(`${request.method} ${request.routeOptions.url} ${request.url}\n`)
      .update(canonical(request.body ?? null))
      .digest('base64url');
    const ttl = this.settings.idempotencyTtlSeconds;

    return from(this.claim(redisKey, fingerprint, ttl)).pipe(
      mergeMap((earlier) => {
        if (earlier) return of(this.replay(earlier, fingerprint, key, reply));
        return next.handle().pipe(
          mergeMap((body: unknown) => from(this.keep(redisKey, fingerprint, ttl, body, reply))),
          catchError((error: unknown) =>
            from(this.redis.client.del(redisKey).catch(() => 0)).pipe(
              mergeMap(() => throwError(() => error)),
            ),
          ),
        );
      }),
    );
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

  private replay(
    earlier: StoredAnswer,
    fingerprint: string,
    key: string,
    reply: FastifyReply,
  ): unknown {
    if (earlier.request !== fingerprint) {
      throw new ApiError(
        HttpStatus.UNPROCESSABLE_ENTITY,
        `Idempotency-Key ${JSON.stringify(key)} was used with another request (method, path or body); use a new key for a new request`,
      );
    }
    if (earlier.state === 'running') {
      throw new ApiError(
        HttpStatus.CONFLICT,
        `A request with Idempotency-Key ${JSON.stringify(key)} is still running; retry in a moment`,
        { 'Retry-After': '1' },
      );
    }
    for (const [name, value] of Object.entries(earlier.headers ?? {})) {
      if (value !== undefined) void reply.header(name, value);
    }
    void reply.header('Idempotent-Replayed', 'true');
    return earlier.body;
  }

  private async keep(
    redisKey: string,
    fingerprint: string,
    ttl: number,
    body: unknown,
    reply: FastifyReply,
  ): Promise<unknown> {
    const headers: StoredAnswer['headers'] = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    const done: StoredAnswer = { request: fingerprint, state: 'done', body, headers };
    // The write is accepted whether or not its answer could be kept.
    await this.redis.client.set(redisKey, JSON.stringify(done), 'EX', ttl).catch(() => undefined);
    return body;
  }
}
