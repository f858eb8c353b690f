import { applyDecorators, HttpCode } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiOperation,
  type ApiOperationOptions,
} from '@nestjs/swagger';
import { ApiAuth } from '@app/auth';
import { LocationHeader } from '@app/shared';
import { ProfileSubmissionResultDto } from '../dto/profile.dto';

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
    ApiOperation(operation),
    ApiAcceptedResponse({ type: ProfileSubmissionResultDto }),
    ApiConflictResponse({ description: conflict }),
  );
}
