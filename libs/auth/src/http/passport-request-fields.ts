import type { FastifyInstance } from 'fastify';
import { CALLER_PROPERTY } from './caller-request';

/**
 * The fields passport's `authenticate` and `@nestjs/passport`'s guard write on every request
 * they authenticate (passport 0.7 sets the first seven per request; the guard sets
 * `authInfo`; ours keeps the caller), declared on Fastify's request from its start. Added to
 * a request after its creation, each changed the object's shape, and every later read of
 * the request in hooks, pipes and handlers paid for it: a GET cost 6-9 % more CPU through
 * passport than with the checks called directly (docs/benchmarks.md, 2026-12-03).
 */
const PASSPORT_REQUEST_FIELDS = [
  'login',
  'logIn',
  'logout',
  'logOut',
  'isAuthenticated',
  'isUnauthenticated',
  '_sessionManager',
  'authInfo',
  CALLER_PROPERTY,
] as const;

export function declarePassportRequestFields(fastify: FastifyInstance): void {
  for (const field of PASSPORT_REQUEST_FIELDS) {
    if (!fastify.hasRequestDecorator(field)) fastify.decorateRequest(field, null);
  }
}
