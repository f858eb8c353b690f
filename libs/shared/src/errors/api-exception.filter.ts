import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { requestWindowOf, sendCommittedAnswer } from '../deadline/request-window';
import { recordDependencyError } from '../observability/process-metrics';
import { ApiError, RecordedAnswer } from './api-error';
import { DOMAIN_ERROR_STATUS, DomainError, QuotaExceededError } from './domain-errors';

/**
 * Renders every error as the original service does: `{"Message": "..."}`. Anything that
 * is not an HttpException is an unexpected server condition, which the spec answers
 * with 503 (not 500).
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    // A write that committed is answered as accepted, whatever failed after its commit (a
    // 5xx would tell the client it was not applied: docs/architecture.md, "Exactly once").
    const window = requestWindowOf(reply.request);
    if (window?.state === 'committed' && window.committedAnswer && isServerError(exception)) {
      this.logger.warn(`after its write committed: ${String(exception)}`);
      // The deadline may have answered it already (with the same 202).
      if (!reply.sent) sendCommittedAnswer(reply, window.committedAnswer);
      return;
    }

    if (exception instanceof DomainError) {
      const status = DOMAIN_ERROR_STATUS.find(([type]) => exception instanceof type)?.[1] ?? 400;
      if (exception instanceof QuotaExceededError)
        void reply.header('Retry-After', String(exception.retryAfterSeconds));
      reply.status(status).send({ Message: exception.message, ...exception.details });
      return;
    }

    if (exception instanceof ApiError) {
      reply.status(exception.getStatus()).headers(exception.headers);
      if (exception.emptyBody) {
        reply.send();
      } else {
        reply.send({ Message: exception.message, ...exception.extra });
      }
      return;
    }

    if (exception instanceof RecordedAnswer) {
      reply.status(exception.getStatus()).headers(exception.headers);
      if (exception.json === '') {
        reply.send();
      } else {
        reply.type('application/json; charset=utf-8').send(exception.json);
      }
      return;
    }

    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      reply.status(status >= 500 ? 503 : status).send({ Message: messageOf(exception) });
      return;
    }

    // Counted in pcp_dependency_errors_total when the engine or Redis is the cause.
    recordDependencyError(exception);
    // Log the error itself and the request's id only: request headers (tokens,
    // signatures) never reach the log.
    const reqId = reply.getHeader('x-request-id');
    this.logger.error(
      { reqId },
      exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
    );
    reply.status(503).send({ Message: 'The service met an unexpected condition; retry later.' });
  }
}

/** Whether `exception` is answered with a 5xx (anything that is not a refusal). */
function isServerError(exception: unknown): boolean {
  if (exception instanceof DomainError || exception instanceof RecordedAnswer) return false;
  if (exception instanceof HttpException) return exception.getStatus() >= 500;
  return true;
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  if (typeof message === 'string') return message;
  return exception.message;
}
