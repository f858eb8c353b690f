import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ProfileSnapshots, viewOf } from '@app/profiles';
import { Clock, ConflictError, JobQueue, NotFoundError } from '@app/shared';
import { canSeeConfirmation } from '../../domain/confirmation-subject';
import type { ConfirmationDto } from '../../dto/confirmation.dto';
import { toConfirmationDto } from '../../mapping/confirmation.mapper';
import { ConfirmationRepository } from '../../repositories/confirmation.repository';
import { ConfirmationResendLimit } from '../../services/confirmation-resend-limit.service';
import { CONFIRMATION_MAIL } from '../../worker/confirmation.job-definitions';
import { ResendConfirmationCommand } from './resend-confirmation.command';

/**
 * Sends a pending confirmation's message again (the same confirmation, the same link),
 * through the outbox like the first: refused for one that is no longer pending, or whose
 * message is still owed, and past the per-address limit. Nothing about the link is
 * answered: only the person confirms, from the message.
 */
@CommandHandler(ResendConfirmationCommand)
export class ResendConfirmationHandler implements ICommandHandler<ResendConfirmationCommand> {
  constructor(
    private readonly profiles: ProfileSnapshots,
    private readonly confirmations: ConfirmationRepository,
    private readonly limit: ConfirmationResendLimit,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  async execute({
    caller,
    profileId,
    confirmationId,
  }: ResendConfirmationCommand): Promise<ConfirmationDto> {
    const { clientId } = caller;
    if (!(await this.profiles.byId(clientId, profileId)))
      throw new NotFoundError(`Profile ${profileId} not found`);
    const confirmation = await this.confirmations.find(clientId, profileId, confirmationId);
    // One of a consent type (program) outside the caller's scope is not known to it (as in the list).
    if (!confirmation || !canSeeConfirmation(viewOf(caller), confirmation))
      throw new NotFoundError(`Confirmation ${confirmationId} of profile ${profileId} not found`);
    const now = this.clock.now();
    const { State } = toConfirmationDto(confirmation, now.getTime());
    if (State !== 'Pending')
      throw new ConflictError(
        `Confirmation ${confirmationId} is ${State}: only a Pending confirmation's message can be sent again`,
      );
    const stillOwed = () =>
      new ConflictError(
        `Confirmation ${confirmationId}'s message is still being sent (MailState Queued): it can be sent again once Sent or Failed`,
      );
    if (await this.confirmations.findOutbox(confirmation)) throw stillOwed();
    await this.limit.consume(clientId, confirmation.EmailAddress);
    const resend = await this.confirmations.requestResend(confirmation, new Date());
    if (resend === 'owed') throw stillOwed();
    if (resend === 'gone')
      throw new NotFoundError(`Confirmation ${confirmationId} of profile ${profileId} not found`);
    await this.jobs.enqueue(CONFIRMATION_MAIL, { clientId, profileId, confirmationId });
    const queued = await this.confirmations.find(clientId, profileId, confirmationId);
    return toConfirmationDto(queued ?? confirmation, now.getTime());
  }
}
