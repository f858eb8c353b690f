import {
  PatchOperationsPipe,
  patchBodySchema,
  type RequestWindow,
  WaitsForWorker,
  WriteWindow,
} from '@app/shared';
import { DurableIdempotencyKeys } from '@app/shared';
import { Body, Delete, Get, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { IMPLIED_FLAG, scopeOf, viewOf } from '../domain/profile-view';
import {
  PROFILE_CREATE_EXAMPLES,
  PROFILE_MERGE_EXAMPLES,
  PROFILE_OVERWRITE_EXAMPLES,
  PROFILE_PATCH_EXAMPLES,
} from '../wire/profile.examples';
import { CreateProfileCommand } from './create-profile/create-profile.command';
import { DeleteProfileCommand } from './delete-profile/delete-profile.command';
import { patchProfile, ProfilePatchRoute } from './profile-patch.route';
import { UpdateProfileCommand } from './update-profile/update-profile.command';
import type { ProfilePatchOperation } from '../domain/profile-patch';
import { ProfilePatchOperationDto } from './patch-operation.dto';
import { ProfileUpdateListDto } from '../read/get-profile-updates/profile-update.dto';
import { ProfileDto, ProfileSubmissionResultDto } from '../wire/profile.dto';
import { GetProfileUpdatesQuery } from '../read/get-profile-updates/get-profile-updates.query';
import { GetProfileQuery } from '../read/get-profile/get-profile.query';
import { GetProfileAsOfQuery } from '../read/get-profile-as-of/get-profile-as-of.query';
import { ApiAsOfQuery, checkAsOfPermission } from './as-of.params';
import { ProfileRead, type ProfileReadParams } from './profile-read.params';
import { ApiProfileIdParam, ProfileIdParam } from '../wire/profile-id.param';
import { ProfileEtag, ProfileIfMatch } from './profile-etag';
import { QueuedProfileWrite } from './queued-profile-write.decorator';

@TenantController(':clientId/Profile', { tag: 'Profiles', notFound: 'Unknown client or profile' })
export class ProfileController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @QueuedProfileWrite({
    summary: 'Create a profile (queued)',
    description:
      'The body names only configured types (CustomerType, address, email, phone, alternate id and group types, custom fields, programs, consent types); every field is checked before anything is queued (400 naming it). Answers 202 with the submission result: the new ProfileId, UpdateStatus "Pending Update", SubmittedUtcTime and the first alternate id of the body. The write is applied by the worker; its outcome shows in .../Updates and GET answers the profile once applied.',
  })
  @ApiBody({ type: ProfileDto, examples: PROFILE_CREATE_EXAMPLES })
  create(
    @CurrentCaller() caller: Caller,
    @Body() body: ProfileDto,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<ProfileSubmissionResultDto> {
    return this.commands.execute(
      new CreateProfileCommand(caller.clientId, caller.userId, body, window, scopeOf(caller)),
    );
  }

  @Get(':profileId')
  @ProfileEtag()
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Retrieve a profile (active elements only)',
    description:
      'UpdateStatus is "Pending Update" while an accepted write of the profile is not applied yet. Answers an ETag; If-None-Match listing it answers 304 without a body. With asOf, the profile as it stood at that instant, rebuilt from its history (see the parameter).',
  })
  @ApiOkResponse({ type: ProfileDto })
  @ApiQuery({ name: 'implied', required: false, type: Boolean, description: IMPLIED_FLAG })
  @ApiAsOfQuery()
  get(
    @CurrentCaller() caller: Caller,
    @ProfileRead() { profileId, implied, asOf }: ProfileReadParams,
  ): Promise<ProfileDto> {
    const view = viewOf(caller, { implied });
    if (asOf) checkAsOfPermission(caller);
    return this.queries.execute(
      asOf
        ? new GetProfileAsOfQuery(caller.clientId, profileId, asOf, view)
        : new GetProfileQuery(caller.clientId, profileId, view),
    );
  }

  @Post(':profileId')
  @ProfileIfMatch()
  @ApiProfileIdParam()
  @QueuedProfileWrite({
    summary: 'Merge into a profile: only what the body names changes (queued)',
    description:
      'What the body names is added or changed; what it omits stays. Checked like a create; with If-Match, runs only when the ETag matches (412 otherwise, nothing queued). Answers 202 with the submission result.',
  })
  @ApiBody({ type: ProfileDto, examples: PROFILE_MERGE_EXAMPLES })
  merge(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Body() body: ProfileDto,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<ProfileSubmissionResultDto> {
    return this.update(caller, profileId, body, 'merge', window);
  }

  @Put(':profileId')
  @ProfileIfMatch()
  @ApiProfileIdParam()
  @QueuedProfileWrite({
    summary: 'Overwrite a profile: what the body omits is removed (queued)',
    description:
      'The body becomes the profile: what it omits is removed. Checked like a create; with If-Match, runs only when the ETag matches (412 otherwise, nothing queued). Answers 202 with the submission result.',
  })
  @ApiBody({ type: ProfileDto, examples: PROFILE_OVERWRITE_EXAMPLES })
  overwrite(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Body() body: ProfileDto,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<ProfileSubmissionResultDto> {
    return this.update(caller, profileId, body, 'overwrite', window);
  }

  private update(
    caller: Caller,
    profileId: number,
    body: ProfileDto,
    mode: 'merge' | 'overwrite',
    window: RequestWindow | null,
  ): Promise<ProfileSubmissionResultDto> {
    return this.commands.execute(
      new UpdateProfileCommand(
        caller.clientId,
        caller.userId,
        profileId,
        body,
        mode,
        window,
        scopeOf(caller),
      ),
    );
  }

  @WaitsForWorker()
  @Patch(':profileId')
  @DurableIdempotencyKeys()
  @ProfileIfMatch()
  @ApiProfileIdParam()
  @ApiExtraModels(ProfilePatchOperationDto)
  @ProfilePatchRoute(
    {
      summary: 'JSON Patch a profile (add, remove, replace, test on its GET shape)',
      description:
        'The operations apply to the profile as GET shows it, in order with its queued writes; replace operations precede remove operations (the rest keep the request order); move and copy are refused. All or nothing: a failed test changes nothing (400 naming the operation). The result is validated and checked against the configuration like a PUT body and stored as an overwrite, except that inactive elements (not shown by GET) are kept. The request waits for the queued patch up to SYNC_WRITE_TIMEOUT_MS (10 s): 200 with the profile when applied, 400 when the worker refused it, else 202 with the submission result (the outcome is then in .../Updates).',
    },
    { schema: patchBodySchema(ProfilePatchOperationDto), examples: PROFILE_PATCH_EXAMPLES },
  )
  patch(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Body(PatchOperationsPipe) operations: ProfilePatchOperation[],
    @Res({ passthrough: true }) reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<ProfileDto | ProfileSubmissionResultDto> {
    return patchProfile(this.commands, caller, { profileId }, operations, reply, window);
  }

  @WaitsForWorker()
  @Delete(':profileId')
  @DurableIdempotencyKeys()
  @ProfileIfMatch()
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'write')
  @ApiOperation({
    summary: 'Delete a profile, permanently',
    description:
      'Waits for the queued delete up to SYNC_WRITE_TIMEOUT_MS (10 s): 204 when done, else 202.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiAcceptedResponse({ description: 'Accepted; the delete is still queued' })
  @ApiQuery({
    name: 'reasonCode',
    required: false,
    description: 'Recorded with the delete',
    schema: { type: 'string' },
  })
  async delete(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Res({ passthrough: true }) reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
    @Query('reasonCode') reasonCode?: string,
  ): Promise<void> {
    const outcome = await this.commands.execute(
      new DeleteProfileCommand(caller.clientId, caller.userId, profileId, window, reasonCode),
    );
    reply.status(outcome === 'deleted' ? 204 : 202);
  }

  @Get(':profileId/Updates')
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Accepted writes of a profile and their outcome (extension)',
    description: 'Shows pending, applied and failed writes with the failure reason; newest first.',
  })
  @ApiOkResponse({ type: ProfileUpdateListDto })
  updates(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
  ): Promise<ProfileUpdateListDto> {
    return this.queries.execute(new GetProfileUpdatesQuery(caller.clientId, profileId));
  }
}
