import { Injectable } from '@nestjs/common';
import { Clock } from '@app/shared';
import { verifyConfirmationToken } from '../domain/confirmation-link';
import type { StoredConfirmation } from '../domain/confirmation.schema';
import { ConfirmationRepository } from '../repositories/confirmation.repository';
import type { ConfirmationRefusal } from '../views/confirmation-page.view';
import { ConfirmationLinkKeys } from './confirmation-link-keys.service';

/**
 * A link's confirmation when it may still be confirmed: the signature holds (constant
 * time), the link has not expired, the confirmation exists and is Pending; else why not.
 */
@Injectable()
export class ConfirmationLinks {
  constructor(
    private readonly keys: ConfirmationLinkKeys,
    private readonly confirmations: ConfirmationRepository,
    private readonly clock: Clock,
  ) {}

  async open(
    token: string,
  ): Promise<{ confirmation: StoredConfirmation } | { refused: ConfirmationRefusal }> {
    const now = this.clock.now().getTime();
    const verified = verifyConfirmationToken(token, await this.keys.get(), now);
    if ('refused' in verified) return verified;
    const { clientId, profileId, confirmationId } = verified.claims;
    const confirmation = await this.confirmations.find(clientId, profileId, confirmationId);
    if (!confirmation) return { refused: 'gone' };
    if (confirmation.State === 'Confirmed') return { refused: 'used' };
    if (confirmation.State === 'Cancelled') return { refused: 'cancelled' };
    if (confirmation.State === 'Expired' || Date.parse(confirmation.ExpiresDate) <= now)
      return { refused: 'expired' };
    return { confirmation };
  }
}
