import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAuth, ApiClientIdParam, type Caller, CurrentCaller } from '@app/auth';
import { MergeCandidatesDto } from '../dto/merge-candidates.dto';
import { GetMergeCandidatesQuery } from '../queries/get-merge-candidates/get-merge-candidates.query';
import { ApiProfileIdParam, ProfileIdParam } from './profile-id.param';

/** Profile merge (issue 33, docs/profile-merge.md): the candidates read. */
@ApiTags('Profiles')
@ApiClientIdParam()
@ApiBadRequestResponse({ description: 'Malformed request; the Message names the field and value' })
@ApiNotFoundResponse({ description: 'Unknown client or profile' })
@Controller(':clientId/Profile')
export class ProfileMergeController {
  constructor(private readonly queries: QueryBus) {}

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
