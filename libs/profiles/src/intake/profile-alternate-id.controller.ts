import { PatchRequestPipe, type RequestWindow, WaitsForWorker, WriteWindow } from '@app/shared';
import { DurableIdempotencyKeys } from '@app/shared';
import { QueuedProfileWrite } from './queued-profile-write.decorator';
import { Body, Get, Patch, Post, Put, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import {
  PROFILE_ALTERNATE_ID_PATCH_EXAMPLES,
  PROFILE_OVERWRITE_EXAMPLES,
  PROFILE_UPSERT_EXAMPLES,
} from '../wire/profile.examples';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { IMPLIED_FLAG, scopeOf, viewOf } from '../domain/profile-view';
import { patchProfile, ProfilePatchRoute } from './profile-patch.route';
import { WriteProfileByAlternateIdCommand } from './write-profile-by-alternate-id/write-profile-by-alternate-id.command';
import type { ProfilePatchOperation } from '../domain/profile-patch';
import { ProfilePatchRequestDto } from './patch-operation.dto';
import { ProfileDto, ProfileSubmissionResultDto } from '../wire/profile.dto';
import { GetProfileByAlternateIdQuery } from '../read/get-profile-by-alternate-id/get-profile-by-alternate-id.query';
import type { AlternateIdPair } from '../persistence/alternate-id-claims.service';
import { AlternateIdParams, ApiAlternateIdQuery, BooleanQuery } from '../wire/alternate-id.params';
import { ApiAsOfQuery, AsOfQuery, checkAsOfPermission } from './as-of.params';

@TenantController(':clientId/Profile/AlternateId', {
  tag: 'Profiles',
  badRequest: 'Malformed request or a missing alternateIdType/alternateId; the Message names it',
})
export class ProfileAlternateIdController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Retrieve the profile holding an alternate id (type and value case-insensitive)',
    description:
      'matchInactive=true also finds a profile storing the pair inactive (the newest such profile when several do). With asOf, the profile the pair finds now, as it stood at that instant (see the parameter).',
  })
  @ApiAlternateIdQuery()
  @ApiQuery({ name: 'implied', required: false, type: Boolean, description: IMPLIED_FLAG })
  @ApiQuery({ name: 'matchInactive', required: false, type: Boolean })
  @ApiAsOfQuery()
  @ApiOkResponse({ type: ProfileDto })
  @ApiNotFoundResponse({ description: 'Unknown client, or no profile holds the pair' })
  get(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
    @BooleanQuery('matchInactive') matchInactive: boolean,
    @BooleanQuery('implied') implied: boolean,
    @AsOfQuery() asOf: Date | undefined,
  ): Promise<ProfileDto> {
    if (asOf) checkAsOfPermission(caller);
    return this.queries.execute(
      new GetProfileByAlternateIdQuery(
        caller.clientId,
        pair,
        matchInactive,
        viewOf(caller, { implied }),
        asOf,
      ),
    );
  }

  @WaitsForWorker()
  @Post()
  @QueuedProfileWrite(
    {
      summary: 'Upsert by alternate id (queued)',
      description:
        'Merges into the profile holding the pair; otherwise creates a profile from the body with the pair added to its AlternateIds (CustomerType then required). Simultaneous upserts of a new pair create one profile: the first to claim the pair creates it, the others merge into it.',
    },
    'Another alternate id of the body belongs to another profile',
  )
  @ApiAlternateIdQuery()
  @ApiBody({ type: ProfileDto, examples: PROFILE_UPSERT_EXAMPLES })
  upsert(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
    @Body() body: ProfileDto,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<ProfileSubmissionResultDto> {
    return this.write(caller, pair, body, 'upsert', window);
  }

  @WaitsForWorker()
  @Put()
  @QueuedProfileWrite({
    summary: 'Overwrite the profile holding an alternate id (queued)',
    description:
      'As PUT by id: what the body omits is removed. Answers 202 with the submission result, like PUT by id (the spec also lists 200 Profile; this service queues every overwrite).',
  })
  @ApiAlternateIdQuery()
  @ApiNotFoundResponse({ description: 'Unknown client, or no profile holds the pair' })
  @ApiBody({ type: ProfileDto, examples: PROFILE_OVERWRITE_EXAMPLES })
  overwrite(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
    @Body() body: ProfileDto,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<ProfileSubmissionResultDto> {
    return this.write(caller, pair, body, 'overwrite', window);
  }

  @WaitsForWorker()
  @Patch()
  @DurableIdempotencyKeys()
  @ProfilePatchRoute(
    {
      summary: 'JSON Patch the profile holding an alternate id',
      description:
        'As PATCH by id, with the operations in {"Operations": [...]}: 200 with the profile when applied within SYNC_WRITE_TIMEOUT_MS (10 s), 202 with the submission result after that.',
    },
    { type: ProfilePatchRequestDto, examples: PROFILE_ALTERNATE_ID_PATCH_EXAMPLES },
  )
  @ApiAlternateIdQuery()
  @ApiNotFoundResponse({ description: 'Unknown client, or no profile holds the pair' })
  patch(
    @CurrentCaller() caller: Caller,
    @AlternateIdParams() pair: AlternateIdPair,
    @Body(PatchRequestPipe) operations: ProfilePatchOperation[],
    @Res({ passthrough: true }) reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<ProfileDto | ProfileSubmissionResultDto> {
    return patchProfile(this.commands, caller, { pair }, operations, reply, window);
  }

  private write(
    caller: Caller,
    pair: AlternateIdPair,
    body: ProfileDto,
    mode: 'upsert' | 'overwrite',
    window: RequestWindow | null,
  ): Promise<ProfileSubmissionResultDto> {
    return this.commands.execute(
      new WriteProfileByAlternateIdCommand(
        caller.clientId,
        caller.userId,
        pair,
        body,
        mode,
        window,
        scopeOf(caller),
      ),
    );
  }
}
