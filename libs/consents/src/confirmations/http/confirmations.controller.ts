import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuth, ApiClientIdParam, type Caller, CurrentCaller } from '@app/auth';
import { ApiProfileIdParam, ProfileIdParam } from '@app/profiles';
import { ConfirmationListDto } from '../dto/confirmation.dto';
import { ListConfirmationsQuery } from '../queries/list-confirmations/list-confirmations.query';

/** A profile's double opt-in confirmations (docs/double-opt-in.md). */
@ApiTags('Double opt-in')
@ApiClientIdParam()
@ApiNotFoundResponse({ description: 'Unknown client, unknown or deleted profile' })
@Controller(':clientId/Profile')
export class ConfirmationsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':profileId/Confirmations')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "The profile's double opt-in confirmations",
    description:
      'Each grant of a consent type requiring confirmation, on an email address, with its state (Pending, Confirmed, Expired, Cancelled) and its message (Queued, Sent, Failed). Newest first, the last 20. Never the link: only the person confirms, from the message.',
  })
  @ApiProfileIdParam()
  @ApiOkResponse({ type: ConfirmationListDto })
  list(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
  ): Promise<ConfirmationListDto> {
    return this.queries.execute(new ListConfirmationsQuery(caller, profileId));
  }
}
