import { HttpStatus } from '@nestjs/common';
import { ApiError, NotFoundError, PermissionDeniedError } from '@app/shared';
import { BEARER_MESSAGES } from './domain/access-token';
import {
  CUSTOM_AUTH_MESSAGES,
  DEFAULT_CUSTOM_AUTH_SCHEME,
  type CustomAuthFailure,
} from './domain/custom-auth';
import type { PermissionAccess, PermissionArea } from './domain/permissions';
import { tokenErrorMessage, type TokenError } from './domain/token-request';

/**
 * Every error the auth module answers with, in one place. None of them carries a
 * token, secret or signature.
 */

/** 401 of the signed scheme; the challenge names the scheme as sent (or the default). */
export function customAuthError(
  failure: CustomAuthFailure,
  realm: string,
  schemeAsSent?: string,
): ApiError {
  const challenge =
    failure === 'missing-header'
      ? `Bearer realm="${realm}", ${DEFAULT_CUSTOM_AUTH_SCHEME} realm="${realm}"`
      : `${schemeAsSent && failure !== 'invalid-scheme' ? schemeAsSent : DEFAULT_CUSTOM_AUTH_SCHEME} realm="${realm}"`;
  return new ApiError(HttpStatus.UNAUTHORIZED, CUSTOM_AUTH_MESSAGES[failure], {
    'WWW-Authenticate': challenge,
  });
}

/** 401 of the Bearer scheme (RFC 6750 challenge). */
export function bearerError(reason: keyof typeof BEARER_MESSAGES, realm: string): ApiError {
  return new ApiError(HttpStatus.UNAUTHORIZED, BEARER_MESSAGES[reason], {
    'WWW-Authenticate': `Bearer realm="${realm}", error="invalid_token"`,
  });
}

/** 404 for a `{clientId}` the caller may not see: unknown, or another tenant's. */
export function clientNotFound(clientId: string): NotFoundError {
  return new NotFoundError(`Client ${clientId} was not found`);
}

/** 404 with no body: an unknown client under the signed scheme (spec, Errors). */
export function clientNotFoundEmpty(): ApiError {
  return new ApiError(HttpStatus.NOT_FOUND, 'Not Found', {}, true);
}

export function permissionDenied(
  group: string,
  area: PermissionArea,
  access: PermissionAccess,
): PermissionDeniedError {
  return new PermissionDeniedError(
    `The user group "${group}" has no ${access} permission on ${area}`,
  );
}

/** 400 of the token endpoint: `{error, error_description, Message}`. */
export function tokenRequestError(error: TokenError): ApiError {
  return new ApiError(HttpStatus.BAD_REQUEST, tokenErrorMessage(error), {}, false, {
    error: error.error,
    error_description: error.description,
  });
}

/**
 * 429 of the token endpoint while an OAuth client id is throttled after repeated failed
 * authentications: the token endpoint's body shape, and `Retry-After` in seconds.
 */
export function tokenThrottledError(
  retryAfterSeconds: number,
  by: 'client_id' | 'address' = 'client_id',
): ApiError {
  const error: TokenError = {
    error: 'invalid_client',
    description: `too many failed authentications for this ${by === 'address' ? 'address' : 'client_id'}; retry after ${retryAfterSeconds} seconds`,
  };
  return new ApiError(
    HttpStatus.TOO_MANY_REQUESTS,
    tokenErrorMessage(error),
    { 'Retry-After': String(retryAfterSeconds) },
    false,
    { error: error.error, error_description: error.description },
  );
}
