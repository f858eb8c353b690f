import type { FastifyRequest } from 'fastify';
import type { Caller } from '../domain/tenant';

/** Request property the guard stores the authenticated caller under. */
export const CALLER_PROPERTY = 'caller';

/** The Fastify request as the auth strategies and decorators see it. */
export type CallerRequest = FastifyRequest<{ Params: { clientId?: string } }> & { caller?: Caller };
