import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * An error answer of the API. The filter renders it as `{"Message": "..."}` with the
 * given status and headers; `emptyBody` answers with no body at all (the spec's 404
 * for an unknown client under the custom authorization scheme).
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

  static badRequest(message: string): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, message);
  }

  static notFound(message: string): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, message);
  }

  static forbidden(message: string): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, message);
  }

  static conflict(message: string): ApiError {
    return new ApiError(HttpStatus.CONFLICT, message);
  }
}
