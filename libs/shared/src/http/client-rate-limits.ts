import { HttpStatus, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import type { QuotaName } from '../quotas/client-quotas';
import { QuotaMeters } from '../quotas/quota-meters';
import { RedisService } from '../redis/redis.service';
import { Settings } from '../settings/settings';
import { redisSharedCount, SharedWindowCounter } from './shared-window-counter';

/** The route classes limited apart: reads (GET, HEAD) and writes (everything else). */
export type RouteClass = 'read' | 'write';

const WINDOW_SECONDS = 1;
/** Client keys and limits' headers kept at most (started over when full). */
const MAX_KEPT = 10_000;

/** The quota of each route class. */
export const ROUTE_CLASS_QUOTA: { readonly [routeClass in RouteClass]: QuotaName } = {
  read: 'readsPerSecond',
  write: 'writesPerSecond',
};

/**
 * Per-client request limits, one per route class, in windows of a second counted in Redis
 * so every api process shares them (`SharedWindowCounter`: batched every few
 * milliseconds, not a round trip per request). The limit of each request is the caller's:
 * its client's own quota, else RATE_LIMIT_READS_PER_SECOND / RATE_LIMIT_WRITES_PER_SECOND
 * (0: unlimited, not counted). One per process (a global provider); it also meters both
 * quotas for the operator's view.
 */
@Injectable()
export class ClientRateLimits implements OnModuleInit, OnModuleDestroy {
  private readonly counters: { readonly [routeClass in RouteClass]: SharedWindowCounter };
  /** Each client's counter key, by route class (see countedKey). */
  private readonly keys: { readonly [routeClass in RouteClass]: Map<string, string> } = {
    read: new Map(),
    write: new Map(),
  };
  /** The fixed header values of each limit in use (see fixedHeaders). */
  private readonly byLimit = new Map<number, { limit: string; policy: string }>();
  /** The process-wide defaults, by route class. */
  readonly defaults: { readonly [routeClass in RouteClass]: number };

  constructor(
    private readonly redis: RedisService,
    settings: Settings,
    private readonly meters: QuotaMeters,
  ) {
    this.defaults = {
      read: settings.rateLimitReadsPerSecond,
      write: settings.rateLimitWritesPerSecond,
    };
    // Both always: any client may be given a limit of its own where the default is 0.
    const counter = () =>
      new SharedWindowCounter(WINDOW_SECONDS * 1000, redisSharedCount(redis.client));
    this.counters = { read: counter(), write: counter() };
  }

  onModuleInit(): void {
    for (const routeClass of ['read', 'write'] as const) {
      this.meters.register({
        name: ROUTE_CLASS_QUOTA[routeClass],
        defaultLimit: this.defaults[routeClass],
        used: (clientId) => this.used(clientId, routeClass),
      });
    }
  }

  /**
   * Counts a request of the client under `limit` (its quota of the route class; 0: not
   * limited, not counted); its `RateLimit-*` headers, and the 429 to answer when it is
   * over the limit.
   */
  check(
    clientId: string,
    routeClass: RouteClass,
    limit: number,
  ): Record<string, string> | ApiError {
    if (limit <= 0) return {};
    const { count, msLeft } = this.counters[routeClass].count(
      this.countedKey(clientId, routeClass),
    );
    const resetSeconds = Math.max(1, Math.ceil(msLeft / 1000));
    const fixed = this.fixedHeaders(limit);
    const headers = {
      'RateLimit-Limit': fixed.limit,
      'RateLimit-Remaining': String(Math.max(0, limit - count)),
      'RateLimit-Reset': String(resetSeconds),
      'RateLimit-Policy': fixed.policy,
    };
    if (count <= limit) return headers;
    return new ApiError(
      HttpStatus.TOO_MANY_REQUESTS,
      `Too many ${routeClass === 'read' ? 'reads' : 'writes'} for client ${clientId}: at most ${limit} per second; retry after ${resetSeconds} s`,
      { ...headers, 'Retry-After': String(resetSeconds) },
    );
  }

  /**
   * The client's requests of the route class in the current window, as every api process
   * has shared them in Redis (each adds its counts every few milliseconds); 0 once the
   * window ended, or while the class is unlimited for it (nothing is counted then).
   */
  async used(clientId: string, routeClass: RouteClass): Promise<number> {
    return Number((await this.redis.client.get(this.key(clientId, routeClass))) ?? 0);
  }

  /** Sends what is counted but not yet shared. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(Object.values(this.counters).map((counter) => counter.flush()));
  }

  private key(clientId: string, routeClass: RouteClass): string {
    return this.redis.key('rate', routeClass, clientId);
  }

  /** `key`, made once per client and class: `check` runs on every request. */
  private countedKey(clientId: string, routeClass: RouteClass): string {
    const keys = this.keys[routeClass];
    let key = keys.get(clientId);
    if (key === undefined) {
      // Only authenticated callers' own client ids reach `check`: few, and each one once.
      if (keys.size >= MAX_KEPT) keys.clear();
      keys.set(clientId, (key = this.key(clientId, routeClass)));
    }
    return key;
  }

  /** The header values that depend on the limit alone, made once per limit. */
  private fixedHeaders(limit: number): { limit: string; policy: string } {
    let fixed = this.byLimit.get(limit);
    if (fixed === undefined) {
      if (this.byLimit.size >= MAX_KEPT) this.byLimit.clear();
      fixed = { limit: String(limit), policy: `${limit};w=${WINDOW_SECONDS}` };
      this.byLimit.set(limit, fixed);
    }
    return fixed;
  }
}
