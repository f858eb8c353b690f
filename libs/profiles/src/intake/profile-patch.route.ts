import { applyDecorators } from '@nestjs/common';
import type { CommandBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiBody,
  type ApiBodyOptions,
  ApiOkResponse,
  ApiOperation,
  type ApiOperationOptions,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiAuth, type Caller } from '@app/auth';
import type { RequestWindow } from '@app/shared';
import type { ProfilePatchOperation } from '../domain/profile-patch';
import { scopeOf } from '../domain/profile-view';
import { ProfileDto, ProfileSubmissionResultDto } from '../wire/profile.dto';
import { PatchProfileCommand } from './patch-profile/patch-profile.command';

/*
 * The JSON Patch of a profile, by id and by alternate id: what it documents and how its
 * outcome answers, the same for both routes.
 */

/** Profiles write permission, the operations `body`, 200 with the profile or 202 queued. */
export function ProfilePatchRoute(
  operation: ApiOperationOptions,
  body: ApiBodyOptions,
): MethodDecorator {
  return applyDecorators(
    ApiAuth('profiles', 'write'),
    ApiOperation(operation),
    ApiBody(body),
    ApiOkResponse({ type: ProfileDto }),
    ApiAcceptedResponse({ type: ProfileSubmissionResultDto }),
  );
}

/**
 * Queues the patch of `target` and answers its outcome: 200 with the profile when the worker
 * applied it within the wait bound, else 202 with the submission result.
 */
export async function patchProfile(
  commands: CommandBus,
  caller: Caller,
  target: PatchProfileCommand['target'],
  operations: ProfilePatchOperation[],
  reply: FastifyReply,
  window: RequestWindow | null,
): Promise<ProfileDto | ProfileSubmissionResultDto> {
  const outcome = await commands.execute(
    new PatchProfileCommand(
      caller.clientId,
      caller.userId,
      target,
      operations,
      window,
      scopeOf(caller),
    ),
  );
  reply.status(outcome.status === 'applied' ? 200 : 202);
  return outcome.status === 'applied' ? outcome.profile : outcome.result;
}
