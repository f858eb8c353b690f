import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * An error answer that only the transport knows (authentication challenges, throttling,
 * an announcement Redis could not carry): the filter renders it as `{"Message": "..."}`
 * with the given status and headers; `emptyBody` answers with no body at all (the spec's
 * 404 for an unknown client under the custom authorization scheme). What a use case
 * refuses is a DomainError instead.
 */
export class ApiError extends HttpException {
  constructor(
    status: HttpStatus,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly emptyBody = false,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message, status);
  }
}

/**
 * An answer given before, repeated as it was sent (an Idempotency-Key replay): the filter
 * sends its status, headers and JSON text unchanged ('' for an answer without a body).
 */
export class RecordedAnswer extends HttpException {
  constructor(
    status: number,
    readonly json: string,
    readonly headers: Record<string, string>,
  ) {
    super('Recorded answer', status);
  }
}
