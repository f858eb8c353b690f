import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Caller } from '../domain/tenant';
import type { CallerRequest } from './caller-request';

/** The authenticated caller of an `@ApiAuth` operation: client, user and user group. */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller => {
    const caller = context.switchToHttp().getRequest<CallerRequest>().caller;
    if (!caller) throw new Error('@CurrentCaller() used on an operation without @ApiAuth()');
    return caller;
  },
);
