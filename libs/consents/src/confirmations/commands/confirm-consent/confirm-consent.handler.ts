import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ProfileWriteQueue } from '@app/profiles';
import { Clock } from '@app/shared';
import { DOUBLE_OPT_IN_METHOD } from '../../domain/confirmation-hold';
import { confirmWriteOf } from '../../domain/confirmation-subject';
import { ConfirmationLinks } from '../../services/confirmation-links.service';
import {
  type ConfirmationPage,
  renderConfirmationRefused,
  renderConfirmed,
} from '../../views/confirmation-page.view';
import { ConfirmConsentCommand } from './confirm-consent.command';

/** Who a confirmed grant names as its author (Edited.ModifiedBy): the person, by the link. */
export const CONFIRMATION_USER = 'person:double-opt-in';

/**
 * Queues the `consent-confirm` write (`preference-confirm` for a program's opt-in) with the
 * request's evidence. The worker applies it only while the consent (preference) still waits
 * for this confirmation, so a link grants at most once
 * (a repeated POST after that is answered "already used"; one racing the first is a write
 * that changes nothing).
 */
@CommandHandler(ConfirmConsentCommand)
export class ConfirmConsentHandler implements ICommandHandler<ConfirmConsentCommand> {
  constructor(
    private readonly links: ConfirmationLinks,
    private readonly profiles: ProfileWriteQueue,
    private readonly clock: Clock,
  ) {}

  async execute({ token, request, window }: ConfirmConsentCommand): Promise<ConfirmationPage> {
    const opened = await this.links.open(token);
    if ('refused' in opened) return renderConfirmationRefused(opened.refused);
    const { confirmation } = opened;
    const { kind, body } = confirmWriteOf(confirmation, {
      Method: DOUBLE_OPT_IN_METHOD,
      ConfirmedDate: this.clock.now().toISOString(),
      LinkId: confirmation.confirmationId,
      IpAddress: request.ipAddress,
      ...(request.userAgent ? { UserAgent: request.userAgent.slice(0, 512) } : {}),
    });
    await this.profiles.queue({
      clientId: confirmation.clientId,
      profileId: confirmation.profileId,
      kind,
      body,
      userId: CONFIRMATION_USER,
      window,
    });
    return renderConfirmed(confirmation.Preference ? 'subscription' : 'consent');
  }
}
