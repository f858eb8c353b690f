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
