import { applyDecorators, HttpCode } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiOperation,
  type ApiOperationOptions,
} from '@nestjs/swagger';
import { ApiAuth } from '@app/auth';
import { DurableIdempotencyKeys, LocationHeader, linkTo } from '@app/shared';
import type { LinkObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ProfileSubmissionResultDto } from '../wire/profile.dto';

/** The written profile, by the ProfileId of the submission result. */
const PROFILE_ID = { profileId: '$response.body#/ProfileId' };

/**
 * What a submission result leads to (OpenAPI links): the profile it wrote, by its ProfileId,
 * read, changed, deleted, its write records and its history.
 */
export const SUBMITTED_PROFILE_LINKS: Record<string, LinkObject> = {
  GetProfile: linkTo('ProfileController_get', PROFILE_ID, 'The profile written'),
  MergeProfile: linkTo('ProfileController_merge', PROFILE_ID),
  OverwriteProfile: linkTo('ProfileController_overwrite', PROFILE_ID),
  PatchProfile: linkTo('ProfileController_patch', PROFILE_ID),
  DeleteProfile: linkTo('ProfileController_delete', PROFILE_ID),
  ProfileUpdates: linkTo(
    'ProfileController_updates',
    PROFILE_ID,
    "The profile's write records, where this write's outcome shows",
  ),
  StandardFieldsHistory: linkTo('ProfileHistoryController_standardFields', PROFILE_ID),
  CustomFieldsHistory: linkTo('ProfileHistoryController_customFields', PROFILE_ID),
  ContactElementsHistory: linkTo('ProfileHistoryController_contactElements', PROFILE_ID),
  PreferencesHistory: linkTo('ProfileHistoryController_preferences', PROFILE_ID),
  ConsentsHistory: linkTo('ProfileHistoryController_consents', PROFILE_ID),
};

/**
 * A route that queues a profile write (create, merge, overwrite, by id or alternate id):
 * profiles write permission, 202 with the submission result (`Location`: the profile;
 * `Link` rel="monitor": its write records, where the write's outcome shows), 409 when an
 * alternate id of the body belongs to another profile.
 */
export function QueuedProfileWrite(
  operation: ApiOperationOptions,
  conflict = 'An alternate id of the body belongs to another profile',
): MethodDecorator {
  return applyDecorators(
    HttpCode(202),
    LocationHeader((result) => {
      const profileId = (result as Partial<ProfileSubmissionResultDto> | undefined)?.ProfileId;
      if (typeof profileId !== 'number') return undefined;
      return {
        location: `Profile/${profileId}`,
        links: [{ path: `Profile/${profileId}/Updates`, rel: 'monitor' }],
      };
    }),
    ApiAuth('profiles', 'write'),
    DurableIdempotencyKeys(),
    ApiOperation(operation),
    ApiAcceptedResponse({
      type: ProfileSubmissionResultDto,
      description:
        'Accepted and queued (UpdateStatus "Pending Update"); Location: the profile; Link rel="monitor": its write records',
      links: SUBMITTED_PROFILE_LINKS,
    }),
    ApiConflictResponse({ description: conflict }),
  );
}
