import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * A 429 of a route's own limit (failed authentications, resends), with the Retry-After its
 * answer carries. `description` says what was refused; `schema` the body where it is not the
 * usual ErrorDto.
 */
export function ApiRetryAfterResponse(docs: {
  description: string;
  schema?: SchemaObject;
}): MethodDecorator & ClassDecorator {
  return ApiTooManyRequestsResponse({
    ...docs,
    headers: {
      'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } },
    },
  });
}
