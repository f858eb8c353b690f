import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { QuotaExceededError, RedisService, textKey } from '@app/shared';
import { confirmationResendKey } from '../../keys';
import { ConfirmationMailSettings } from '../confirmation-settings';

const HOUR_SECONDS = 3600;

/**
 * Resends of confirmation messages per address and client (CONFIRMATION_RESEND_LIMIT_PER_HOUR
 * in a window of an hour), counted in Redis so every api process shares them: keys
 * `<prefix>:confirmation-resend:{<client>|<address>}`. While Redis is unreachable an
 * in-process limiter stands in (each process then counts its own), and a count Redis lost
 * starts again: a lost count allows at most one more hour's resends.
 */
@Injectable()
export class ConfirmationResendLimit {
  private readonly limiter: RateLimiterRedis;

  constructor(
    redis: RedisService,
    @Inject(ConfirmationMailSettings) private readonly settings: ConfirmationMailSettings,
  ) {
    const options = { points: settings.resendsPerHour, duration: HOUR_SECONDS };
    this.limiter = new RateLimiterRedis({
      storeClient: redis.client,
      keyPrefix: redis.key('confirmation-resend'),
      ...options,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  }

  /** Counts one resend to the address; the 429 (with Retry-After) once over the limit. */
  async consume(clientId: string, emailAddress: string): Promise<void> {
    try {
      await this.limiter.consume(confirmationResendKey(clientId, textKey(emailAddress)));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new QuotaExceededError(
        `Too many resends to ${emailAddress}: at most ${this.settings.resendsPerHour} per hour (CONFIRMATION_RESEND_LIMIT_PER_HOUR); retry after ${retryAfter} s`,
        retryAfter,
      );
    }
  }
}
