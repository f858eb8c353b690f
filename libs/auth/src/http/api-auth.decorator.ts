import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { IdempotencyGuard } from '@app/shared';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiParam,
  ApiSecurity,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CLIENT_ID_PATTERN } from '../domain/identifiers';
import type { PermissionAccess, PermissionArea } from '../domain/permissions';
import { ApiAuthGuard, REQUIRED_PERMISSION, type RequiredPermission } from './api-auth.guard';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * Protects an operation (or every operation of a controller): the caller authenticates
 * with a Bearer token or a CUSTOMAUTH3 signature, must belong to the `{clientId}` of
 * the path, and its user group must grant `access` on `area` ('write' implies 'read').
 * Then, as guards in this order, the client's rate limit (its own quota, else the default)
 * and the Idempotency-Key of a write (a refused request uses no key).
 */
export function ApiAuth(
  area: PermissionArea,
  access: PermissionAccess,
): MethodDecorator & ClassDecorator {
  const required: RequiredPermission = { area, access };
  return applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, required),
    UseGuards(ApiAuthGuard, RateLimitGuard, IdempotencyGuard),
    ApiBearerAuth(),
    ApiSecurity('CUSTOMAUTH3'),
    ApiUnauthorizedResponse({
      description:
        'Authorization missing or invalid: {"Message": "..."} with a WWW-Authenticate header naming the scheme and realm',
    }),
    ApiForbiddenResponse({ description: `The user group lacks ${access} permission on ${area}` }),
  );
}

/**
 * The `{clientId}` path segment of a tenant route (on a controller: every route of it). The
 * guard of `@ApiAuth` answers 404, as for an unknown client, for any client but the caller's.
 */
export function ApiClientIdParam(): MethodDecorator & ClassDecorator {
  return ApiParam({
    name: 'clientId',
    description:
      "The caller's client (tenant) id; any other client id answers 404 as an unknown client",
    // The README's first client (a schema's example: a parameter-level one beside a schema is dropped).
    schema: {
      type: 'string',
      pattern: CLIENT_ID_PATTERN,
      minLength: 1,
      maxLength: 64,
      example: 'demo',
    },
  });
}
