import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type RequestWindow, requestWindowOf } from './request-window';

/**
 * The commit window of the write request being handled (`requestWindowOf`), null for a
 * request without one (GET, HEAD). A route that queues profile writes hands it down to
 * `ProfileWriteIntake.accept` in its command: a write answered 503 never commits.
 */
export const WriteWindow = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RequestWindow | null =>
    requestWindowOf(context.switchToHttp().getRequest<FastifyRequest>()) ?? null,
);
