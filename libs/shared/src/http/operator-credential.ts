import { type CanActivate, type ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { Settings } from '../settings/settings';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an Authorization header carries the operator credential (OPERATOR_TOKEN): as
 * `Bearer <token>` (monitors, scripts) or as Basic with any user name and the token as
 * password (a browser's prompt, for the queue dashboard). Compared in constant time.
 */
export function hasOperatorCredential(
  settings: Settings,
  authorization: string | undefined,
): boolean {
  const token = settings.operatorToken;
  if (!token || !authorization) return false;
  const [scheme, value = ''] = authorization.split(' ', 2);
  let given: string | undefined;
  if (/^bearer$/i.test(scheme)) given = value;
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    given = decoded.slice(decoded.indexOf(':') + 1);
  }
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** The challenge of an operator route's 401: both schemes it accepts. */
export const OPERATOR_CHALLENGE = 'Bearer realm="operator", Basic realm="operator"';
/**
 * The challenge of the pages a browser opens (the queue dashboard): Basic alone, which every
 * browser answers with its credential prompt (a list of challenges is not prompted by all).
 */
export const OPERATOR_BROWSER_CHALLENGE = 'Basic realm="operator"';

/**
 * Why a request is refused the operator routes, or null: the same answer everywhere (the
 * guard below, the queue dashboard's hook). `challenge`: the 401's WWW-Authenticate.
 */
export function operatorRefusal(
  settings: Settings,
  authorization: string | undefined,
  challenge = OPERATOR_CHALLENGE,
): ApiError | null {
  if (!settings.operatorToken) {
    return new ApiError(HttpStatus.FORBIDDEN, 'The operator routes are off: set OPERATOR_TOKEN');
  }
  if (hasOperatorCredential(settings, authorization)) return null;
  return new ApiError(HttpStatus.UNAUTHORIZED, 'The operator credential is missing or wrong', {
    'WWW-Authenticate': challenge,
  });
}

/** Guards an operator route (job status, metrics): OPERATOR_TOKEN, never a tenant's. */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(private readonly settings: Settings) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const refusal = operatorRefusal(this.settings, request.headers.authorization);
    if (refusal) throw refusal;
    return true;
  }
}
