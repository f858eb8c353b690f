import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { parseBooleanValue, queryOf, singleQueryValue } from '@app/shared';
import { parseProfileId } from '../wire/profile-id.param';
import { parseAsOf } from './as-of.params';

/** What GET .../Profile/{profileId} takes of its path and query. */
export interface ProfileReadParams {
  profileId: number;
  /** The `implied` flag (IMPLIED_FLAG); false when absent. */
  implied: boolean;
  /** The `asOf` instant; undefined when absent. */
  asOf: Date | undefined;
}

/**
 * GET profile's `{profileId}`, `implied` and `asOf` in one parameter, with the checks and
 * 400s of `@ProfileIdParam()`, `@BooleanQuery('implied')` and `@AsOfQuery()`, in that order.
 * Nest runs each parameter of a route through the global pipe, a chain of promises per
 * parameter, and this is the service's most frequent request.
 */
export const ProfileRead = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ProfileReadParams => {
    const request = ctx.switchToHttp().getRequest<{ params: { profileId?: string } }>();
    const profileId = parseProfileId(request.params.profileId);
    const query = queryOf(ctx);
    const implied = parseBooleanValue('implied', singleQueryValue(query, 'implied'), false);
    const asOf = singleQueryValue(query, 'asOf');
    return { profileId, implied, asOf: asOf === undefined ? undefined : parseAsOf(asOf) };
  },
);
