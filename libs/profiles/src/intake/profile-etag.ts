import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  HttpStatus,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiNotModifiedResponse, ApiPreconditionFailedResponse } from '@nestjs/swagger';
import type { CallerRequest } from '@app/auth';
import { ApiError, EntityTagged, entityTagOf, listsEntityTag, serializeReply } from '@app/shared';
import { viewOf } from '../domain/profile-view';
import type { ProfileDto } from '../wire/profile.dto';
import { GetProfileQuery } from '../read/get-profile/get-profile.query';

/*
 * Conditional requests on a profile. Its entity tag is a hash of the JSON GET answers
 * (`implied` false: the representation a write compares with), UpdateStatus included: a
 * write accepted but not yet applied changes it too, so a second writer holding the tag of
 * the state before that write gets 412.
 */

/** The entity tag of a GET profile answer (a strong tag: byte-for-byte the same JSON). */
export function profileEtag(answer: ProfileDto): string {
  return entityTagOf(serializeReply(answer));
}

/**
 * A write to a profile with If-Match: runs only when the profile's current tag is listed;
 * else 412 and nothing is queued. (Without If-Match, writes are unconditional.) A guard
 * after `@ApiAuth`'s: the caller is known.
 */
@Injectable()
class ProfileIfMatchGuard implements CanActivate {
  constructor(private readonly queries: QueryBus) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<CallerRequest>();
    const ifMatch = request.headers['if-match'];
    const profileId = Number((request.params as { profileId?: string }).profileId);
    if (ifMatch === undefined || !request.caller || !Number.isInteger(profileId)) return true;
    const caller = request.caller;
    const current = await this.queries.execute(
      new GetProfileQuery(caller.clientId, profileId, viewOf(caller)),
    );
    const etag = profileEtag(current);
    if (!listsEntityTag(ifMatch, etag)) {
      throw new ApiError(
        HttpStatus.PRECONDITION_FAILED,
        `Profile ${profileId} has changed: its ETag is ${etag}, not one of If-Match ${ifMatch}; read it again`,
        { ETag: etag },
      );
    }
    return true;
  }
}

/** GET of one profile: ETag and If-None-Match (the api's entity-tag hook). */
export const ProfileEtag = (): MethodDecorator =>
  applyDecorators(
    EntityTagged(),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'Entity tags (or *): 304 without a body when the profile still has one of them',
      schema: { type: 'string' },
    }),
    ApiNotModifiedResponse({ description: 'The profile still has an ETag If-None-Match lists' }),
  );

/**
 * A write to one profile: If-Match. Place it above the route's `@ApiAuth` (or
 * `@QueuedProfileWrite`): decorators apply bottom-up, so its guard runs after authentication.
 */
export const ProfileIfMatch = (): MethodDecorator =>
  applyDecorators(
    UseGuards(ProfileIfMatchGuard),
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'Entity tags (or *) from GET: the write runs only when the profile still has one of them',
      schema: { type: 'string' },
    }),
    ApiPreconditionFailedResponse({
      description: 'The profile has changed: its ETag (also in the ETag header) is not listed',
    }),
  );
