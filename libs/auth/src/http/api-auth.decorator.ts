import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiSecurity,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { PermissionAccess, PermissionArea } from '../domain/permissions';
import { ApiAuthGuard, REQUIRED_PERMISSION, type RequiredPermission } from './api-auth.guard';

/**
 * Protects an operation (or every operation of a controller): the caller authenticates
 * with a Bearer token or a CUSTOMAUTH3 signature, must belong to the `{clientId}` of
 * the path, and its user group must grant `access` on `area` ('write' implies 'read').
 */
export function ApiAuth(
  area: PermissionArea,
  access: PermissionAccess,
): MethodDecorator & ClassDecorator {
  const required: RequiredPermission = { area, access };
  return applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, required),
    UseGuards(ApiAuthGuard),
    ApiBearerAuth(),
    ApiSecurity('CUSTOMAUTH3'),
    ApiUnauthorizedResponse({
      description:
        'Authorization missing or invalid: {"Message": "..."} with a WWW-Authenticate header naming the scheme and realm',
    }),
    ApiForbiddenResponse({ description: `The user group lacks ${access} permission on ${area}` }),
  );
}
