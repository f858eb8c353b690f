import { Body, Get, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { PROFILE_MERGE_REQUEST_EXAMPLES } from '../wire/profile.examples';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConflictResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiAuth, type Caller, CurrentCaller, grants, TenantController } from '@app/auth';
import { type RequestWindow, WriteWindow } from '@app/shared';
import { MergeProfilesCommand } from './merge-profiles/merge-profiles.command';
import { scopeOf } from '../domain/profile-view';
import { MergeCandidatesDto } from './merge-candidates.dto';
import { MergeProfileDto, MergeSubmissionResultDto } from './merge-profile.dto';
import { GetMergeCandidatesQuery } from './get-merge-candidates/get-merge-candidates.query';
import { ApiProfileIdParam, ProfileIdParam } from '../wire/profile-id.param';

/** Profile merge (issue 33, docs/profile-merge.md): the merge itself and the candidates read. */
@TenantController(':clientId/Profile', { tag: 'Profiles', notFound: 'Unknown client or profile' })
export class ProfileMergeController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post(':profileId/Merge')
  @HttpCode(202)
  @ApiProfileIdParam()
  @ApiAuth('merge', 'write')
  @ApiOperation({
    summary: 'Merge another profile into this one (queued)',
    description:
      "The profile of the path (the survivor) absorbs another, named by AbsorbedProfileId or by one of its alternate ids, with the caller's ReasonCode. Needs write permission on merge and on profiles; a group scoped to some programs, consent types or custom fields merges only profiles holding nothing outside its scope (else 403 naming the first such item). Queued: the absorbed profile takes a `merged-into` write (behind every write accepted for it before; its outcome in GET Profile/{AbsorbedProfileId}/Updates at Sequence), then the survivor an `absorb` write (GET Profile/{ProfileId}/Updates). Contact elements, alternate ids, custom fields, groups, tags, consents and preferences are combined by the rules of docs/profile-merge.md; afterwards the absorbed id answers 404 with a Message naming the survivor and MergedInto, its alternate ids find the survivor, and searches find only the survivor. 400 when the body names neither or both, or the survivor itself; 404 when either profile does not exist; 409 when the absorbed profile is merged or being merged into another profile, or the survivor is merged or being merged (a cycle). The same merge again answers 200 with the earlier one.",
  })
  @ApiAcceptedResponse({ type: MergeSubmissionResultDto, description: 'Accepted and queued' })
  @ApiOkResponse({
    type: MergeSubmissionResultDto,
    description: 'The same merge was accepted before',
  })
  @ApiConflictResponse({ description: 'A profile is merged or being merged into another one' })
  @ApiBody({ type: MergeProfileDto, examples: PROFILE_MERGE_REQUEST_EXAMPLES })
  async merge(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Body() body: MergeProfileDto,
    @Res({ passthrough: true }) reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<MergeSubmissionResultDto> {
    const { result, repeated } = await this.commands.execute(
      new MergeProfilesCommand(
        caller.clientId,
        caller.userId,
        profileId,
        body,
        grants(caller.group, 'profiles', 'write'),
        window,
        scopeOf(caller),
      ),
    );
    if (repeated) void reply.status(200);
    return result;
  }

  @Get(':profileId/MergeCandidates')
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: 'Profiles that may be the same person (merge candidates)',
    description:
      'The other active profiles of the client that share with this one an active email address, an active phone number (by its digits), or a first and last name with an active address in the same city and state/province, normalised as the searches normalise them; each with the keys it shares. Read from the search key index (no scan), each candidate checked exactly. At most 50, in profile id order (Truncated says when there are more); a key held by more profiles than a search may read is not looked up and is listed in SkippedKeys. See docs/profile-merge.md.',
  })
  @ApiOkResponse({ type: MergeCandidatesDto })
  candidates(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
  ): Promise<MergeCandidatesDto> {
    return this.queries.execute(new GetMergeCandidatesQuery(caller.clientId, profileId));
  }
}
