import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  HttpStatus,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiNotModifiedResponse, ApiPreconditionFailedResponse } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { from, map, mergeMap, type Observable } from 'rxjs';
import type { CallerRequest } from '@app/auth';
import { ApiError, serializeReply } from '@app/shared';
import { viewOf } from '../domain/profile-view';
import type { ProfileDto } from '../dto/profile.dto';
import { GetProfileQuery } from '../queries/get-profile/get-profile.query';

/*
 * Conditional requests on a profile. Its entity tag is a hash of the JSON GET answers
 * (`implied` false: the representation a write compares with), UpdateStatus included: a
 * write accepted but not yet applied changes it too, so a second writer holding the tag of
 * the state before that write gets 412.
 */

/** The entity tag of a GET profile answer (a strong tag: byte-for-byte the same JSON). */
export function profileEtag(answer: ProfileDto): string {
  return `"${createHash('sha256').update(serializeReply(answer)).digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match / If-Match header lists the tag (`*` matches any). */
function lists(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

function requestOf(context: ExecutionContext): CallerRequest {
  return context.switchToHttp().getRequest<CallerRequest>();
}

/** GET profile: `ETag`, and 304 (no body) when If-None-Match lists it. */
@Injectable()
class ProfileEtagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = requestOf(context);
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((answer: ProfileDto) => {
        const etag = profileEtag(answer);
        void reply.header('ETag', etag);
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch !== undefined && lists(ifNoneMatch, etag)) {
          throw new ApiError(HttpStatus.NOT_MODIFIED, 'Not modified', { ETag: etag }, true);
        }
        return answer;
      }),
    );
  }
}

/**
 * A write to a profile with If-Match: runs only when the profile's current tag is listed;
 * else 412 and nothing is queued. (Without If-Match, writes are unconditional.)
 */
@Injectable()
class ProfileIfMatchInterceptor implements NestInterceptor {
  constructor(private readonly queries: QueryBus) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = requestOf(context);
    const ifMatch = request.headers['if-match'];
    const profileId = Number((request.params as { profileId?: string }).profileId);
    if (ifMatch === undefined || !request.caller || !Number.isInteger(profileId)) {
      return next.handle();
    }
    const caller = request.caller;
    return from(
      this.queries.execute(new GetProfileQuery(caller.clientId, profileId, viewOf(caller))),
    ).pipe(
      mergeMap((current) => {
        const etag = profileEtag(current);
        if (!lists(ifMatch, etag)) {
          throw new ApiError(
            HttpStatus.PRECONDITION_FAILED,
            `Profile ${profileId} has changed: its ETag is ${etag}, not one of If-Match ${ifMatch}; read it again`,
            { ETag: etag },
          );
        }
        return next.handle();
      }),
    );
  }
}

/** GET of one profile: ETag and If-None-Match. */
export const ProfileEtag = (): MethodDecorator =>
  applyDecorators(
    UseInterceptors(ProfileEtagInterceptor),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'Entity tags (or *): 304 without a body when the profile still has one of them',
      schema: { type: 'string' },
    }),
    ApiNotModifiedResponse({ description: 'The profile still has an ETag If-None-Match lists' }),
  );

/** A write to one profile: If-Match. */
export const ProfileIfMatch = (): MethodDecorator =>
  applyDecorators(
    UseInterceptors(ProfileIfMatchInterceptor),
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
