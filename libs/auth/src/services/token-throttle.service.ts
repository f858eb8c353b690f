import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import { RedisService } from '@app/shared';
import { tokenThrottledError } from '../auth-errors';
import { tokenFailuresPrefix } from '../keys';
import { AuthCache } from './auth-cache.service';
import { AuthSettings } from '../auth-settings';

/**
 * Throttles repeated failed authentications per OAuth client id at the token endpoint:
 * after TOKEN_FAILURE_LIMIT failures within TOKEN_FAILURE_WINDOW_SECONDS, every request for
 * that client id (a right secret too, or the throttle would not slow guessing) answers 429
 * with Retry-After until the window ends. Counted in Redis, so all api processes share the
 * count; while Redis is unreachable an in-process limiter stands in. Each counted failure is
 * announced (AuthCache.failureCounted): a process that heard of none for a client id skips
 * reading its count. Failures are also counted per address (TOKEN_FAILURE_LIMIT_PER_ADDRESS in
 * the same window), so guessing across many client ids from one address is throttled too: a
 * process reads an address's count only once it has seen a failure from it (a request from
 * an address that never failed here costs no Redis command), and a failure over the limit
 * answers 429.
 */
@Injectable()
export class TokenThrottle {
  private readonly limiter: RateLimiterRedis;
  private readonly addresses: RateLimiterRedis;
  /** Addresses this process saw fail within the window: their count is worth reading. */
  private readonly failingAddresses: LRUCache<string, true>;

  constructor(
    redis: RedisService,
    private readonly settings: AuthSettings,
    private readonly cache: AuthCache,
  ) {
    const options = {
      points: settings.tokenFailureLimit,
      duration: settings.tokenFailureWindowSeconds,
    };
    this.limiter = new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: tokenFailuresPrefix(redis),
      ...options,
      insuranceLimiter: new RateLimiterMemory(options),
    });
    const perAddress = {
      points: settings.tokenFailureLimitPerAddress,
      duration: settings.tokenFailureWindowSeconds,
    };
    this.failingAddresses = new LRUCache({
      max: 10000,
      ttl: settings.tokenFailureWindowSeconds * 1000,
    });
    this.addresses = new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: redis.key('token-failures-by-address'),
      ...perAddress,
      insuranceLimiter: new RateLimiterMemory(perAddress),
    });
  }

  /** Throws the 429 when an address that failed here has used up its failures. */
  async checkAddress(address: string): Promise<void> {
    if (!this.failingAddresses.has(address)) return;
    const state = await this.addresses.get(address);
    if (state && state.consumedPoints >= this.settings.tokenFailureLimitPerAddress) {
      throw tokenThrottledError(retryAfter(state), 'address');
    }
  }

  /** The Redis key holding the client id's failure count (read by callers with other keys). */
  keyOf(oauthClientId: string): string {
    return this.limiter.getKey(oauthClientId);
  }

  /**
   * Throws the 429 when the client id has used up its failures. `counted`: the value of
   * `keyOf(oauthClientId)` as the caller read it (null: no failures), so the common case
   * costs no Redis command; undefined: read it here (also from the in-process stand-in).
   */
  async check(oauthClientId: string, counted?: string | null): Promise<void> {
    if (counted === null) return;
    if (counted !== undefined && Number(counted) < this.settings.tokenFailureLimit) return;
    const state = await this.limiter.get(oauthClientId);
    if (state && state.consumedPoints >= this.settings.tokenFailureLimit) {
      throw tokenThrottledError(retryAfter(state));
    }
  }

  /** Counts one failed authentication of the client id, from the address. */
  async failed(oauthClientId: string, address: string): Promise<void> {
    this.failingAddresses.set(address, true);
    const byAddress = await this.addresses.penalty(address, 1);
    await this.limiter.penalty(oauthClientId, 1);
    // A process that does not hear of it reads the count once its reused stamps age out.
    await this.cache
      .failureCounted(oauthClientId, this.settings.tokenFailureWindowSeconds * 1000)
      .catch(() => undefined);
    if (byAddress.consumedPoints > this.settings.tokenFailureLimitPerAddress) {
      throw tokenThrottledError(retryAfter(byAddress), 'address');
    }
  }
}

function retryAfter(state: RateLimiterRes): number {
  return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
}
