import { ApiRetryAfterResponse } from '@app/shared';
import { Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { ApiProfileIdParam, ProfileIdParam } from '@app/profiles';
import { ResendConfirmationCommand } from '../commands/resend-confirmation/resend-confirmation.command';
import { ConfirmationDto, ConfirmationListDto } from '../dto/confirmation.dto';
import { ListConfirmationsQuery } from '../queries/list-confirmations/list-confirmations.query';

/** A profile's double opt-in confirmations (docs/double-opt-in.md). */
@TenantController(':clientId/Profile', {
  tag: 'Double opt-in',
  badRequest: false,
  notFound: 'Unknown client, unknown or deleted profile',
})
export class ConfirmationsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
  ) {}

  @Get(':profileId/Confirmations')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    summary: "The profile's double opt-in confirmations",
    description:
      'Each grant of a consent type requiring confirmation, on an email address, with its state (Pending, Confirmed, Expired, Cancelled) and its message (Queued, Sent, Failed). Newest first, the last 20; only those of the consent types the user group may see (none without read permission on consents). Never the link: only the person confirms, from the message.',
  })
  @ApiProfileIdParam()
  @ApiOkResponse({ type: ConfirmationListDto })
  list(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
  ): Promise<ConfirmationListDto> {
    return this.queries.execute(new ListConfirmationsQuery(caller, profileId));
  }

  @Post(':profileId/Confirmations/:confirmationId/Resend')
  @HttpCode(202)
  @ApiAuth('profiles', 'write')
  @ApiOperation({
    summary: "Sends a pending confirmation's message again",
    description:
      'The same confirmation and the same link, queued again through the outbox (the answer shows MailState Queued; the list shows when it is Sent). Only for a Pending confirmation whose message is no longer being sent, of a consent type the user group may see (else 404), and at most CONFIRMATION_RESEND_LIMIT_PER_HOUR times an hour per address (default 3). Never the link.',
  })
  @ApiProfileIdParam()
  @ApiParam({ name: 'confirmationId', description: 'The confirmation id (Id in the list)' })
  @ApiAcceptedResponse({ type: ConfirmationDto, description: 'The message is queued again' })
  @ApiConflictResponse({
    description:
      'The confirmation is not Pending (Confirmed, Expired or Cancelled: the message names it), or its message is still being sent',
  })
  @ApiRetryAfterResponse({
    description:
      'Too many resends to this address (CONFIRMATION_RESEND_LIMIT_PER_HOUR); nothing is sent; Retry-After says when to retry',
  })
  resend(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Param('confirmationId') confirmationId: string,
  ): Promise<ConfirmationDto> {
    return this.commands.execute(new ResendConfirmationCommand(caller, profileId, confirmationId));
  }
}
