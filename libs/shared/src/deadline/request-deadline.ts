import {
  type CallHandler,
  type ExecutionContext,
  HttpStatus,
  Injectable,
  type NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Observable, throwError, timeout } from 'rxjs';
import { ApiError } from '../errors/api-error';
import { Settings } from '../settings/settings';

const WAITS_FOR_WORKER = 'pcp:waits-for-worker';

/**
 * Marks a route that waits for the worker to apply its write (up to SYNC_WRITE_TIMEOUT_MS):
 * its deadline is that wait plus REQUEST_DEADLINE_MS.
 */
export const WaitsForWorker = () => SetMetadata(WAITS_FOR_WORKER, true);

/**
 * Every request answers within REQUEST_DEADLINE_MS (2 s; routes marked WaitsForWorker: their
 * wait plus that): past it, 503 with Retry-After. The engine's driver offers no per-operation
 * timeout (MongoDB driver 7 ignores `timeoutMS`), so a stalled engine would otherwise hold
 * every request that reaches it, for every tenant, without an answer; Redis commands time out
 * on their own (REDIS_COMMAND_TIMEOUT_MS). The work of a request cut off this way may still
 * complete: a write answered 503 can turn out accepted (its sequence number shows in
 * `.../Updates`), as with any timeout.
 */
@Injectable()
export class RequestDeadlineInterceptor implements NestInterceptor {
  constructor(
    private readonly settings: Settings,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const waits = this.reflector.get<boolean | undefined>(WAITS_FOR_WORKER, context.getHandler());
    const deadline =
      this.settings.requestDeadlineMs + (waits ? this.settings.syncWriteTimeoutMs : 0);
    return next.handle().pipe(
      timeout({
        first: deadline,
        with: () =>
          throwError(
            () =>
              new ApiError(
                HttpStatus.SERVICE_UNAVAILABLE,
                `The service could not answer within ${deadline} ms (a database or queue operation is stalled); try again`,
                { 'Retry-After': '1' },
              ),
          ),
      }),
    );
  }
}
