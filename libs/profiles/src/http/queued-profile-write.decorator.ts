import { applyDecorators, HttpCode } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiOperation,
  type ApiOperationOptions,
} from '@nestjs/swagger';
import { ApiAuth } from '@app/auth';
import { ProfileSubmissionResultDto } from '../dto/profile.dto';

/**
 * A route that queues a profile write (create, merge, overwrite, by id or alternate id):
 * profiles write permission, 202 with the submission result, 409 when an alternate id of
 * the body belongs to another profile.
 */
export function QueuedProfileWrite(
  operation: ApiOperationOptions,
  conflict = 'An alternate id of the body belongs to another profile',
): MethodDecorator {
  return applyDecorators(
    HttpCode(202),
    ApiAuth('profiles', 'write'),
    ApiOperation(operation),
    ApiAcceptedResponse({ type: ProfileSubmissionResultDto }),
    ApiConflictResponse({ description: conflict }),
  );
}
