import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CRASH_POINTS,
  CrashPoints,
  HandlesJob,
  type JobHandler,
  JobQueue,
  LeaseService,
} from '@app/shared';
import { confirmationKey, confirmationMailLease } from '../../keys';
import { ConfirmationMailSettings } from '../confirmation-settings';
import type { ConfirmationOutboxDoc, StoredConfirmation } from '../domain/confirmation.schema';
import { ConfirmationRepository } from '../repositories/confirmation.repository';
import { ConfirmationMessages } from '../services/confirmation-messages.service';
import { MailTransport } from '../services/mail-transport.service';
import { CONFIRMATION_MAIL, type ConfirmationMailPayload } from './confirmation.job-definitions';

/**
 * Sends a confirmation's message from the outbox (docs/double-opt-in.md, "Outbox"): under a
 * lease per message (one sender at a time), skipped when the outbox says it was sent (the
 * send marker), marked sent right after the server accepted it, then the outbox document
 * goes. A refusal or an unreachable server is retried with a doubling wait, and after
 * CONFIRMATION_MAIL_ATTEMPTS the message is Failed (shown on the confirmation).
 */
@Injectable()
@HandlesJob(CONFIRMATION_MAIL)
export class SendConfirmationMailJob implements JobHandler<ConfirmationMailPayload> {
  private readonly logger = new Logger(SendConfirmationMailJob.name);

  constructor(
    private readonly confirmations: ConfirmationRepository,
    private readonly messages: ConfirmationMessages,
    private readonly transport: MailTransport,
    private readonly leases: LeaseService,
    private readonly jobs: JobQueue,
    private readonly crashPoints: CrashPoints,
    @Inject(ConfirmationMailSettings) private readonly settings: ConfirmationMailSettings,
  ) {}

  async handle({ clientId, profileId, confirmationId }: ConfirmationMailPayload): Promise<void> {
    const name = confirmationMailLease(confirmationKey(clientId, profileId, confirmationId));
    const token = await this.leases.acquire(name, this.settings.leaseMs);
    // Another attempt holds it: it sends, or its lease ends and the sweep queues it again.
    if (!token) return;
    try {
      // The confirmation where it is now (a merge's survivor may have taken it over); the
      // message owed where it was queued.
      const confirmation = await this.confirmations.find(clientId, profileId, confirmationId);
      const outbox =
        confirmation &&
        (await this.confirmations.findOutbox({
          _id: confirmationKey(clientId, profileId, confirmationId),
        }));
      if (!confirmation || !outbox) return;
      if (outbox.sentAt) return this.finishSent(confirmation, outbox, outbox.sentAt);
      // Nothing to ask for any more (confirmed, cancelled, expired meanwhile).
      if (confirmation.State !== 'Pending') return this.confirmations.deleteOutbox(outbox);
      await this.crashPoints.at(CRASH_POINTS.confirmationMailBeforeSend);
      try {
        await this.transport.send(await this.messages.build(confirmation));
      } catch (error) {
        return this.failedAttempt(confirmation, outbox, error);
      }
      const sentAt = new Date();
      // The send marker first: an attempt after a death here finds it and does not resend.
      await this.confirmations.updateOutbox(outbox, { sentAt });
      await this.finishSent(confirmation, outbox, sentAt);
    } finally {
      await this.leases.release(name, token);
    }
  }

  private async finishSent(
    confirmation: StoredConfirmation,
    outbox: ConfirmationOutboxDoc,
    sentAt: Date,
  ): Promise<void> {
    await this.confirmations.update(confirmation, {
      Mail: {
        ...confirmation.Mail,
        State: 'Sent',
        Attempts: outbox.attempts + 1,
        SentDate: sentAt.toISOString(),
      },
    });
    await this.confirmations.deleteOutbox(outbox);
  }

  private async failedAttempt(
    confirmation: StoredConfirmation,
    outbox: ConfirmationOutboxDoc,
    error: unknown,
  ): Promise<void> {
    const attempts = outbox.attempts + 1;
    const LastError = error instanceof Error ? error.message : String(error);
    this.logger.warn(
      `confirmation ${confirmation._id}: SMTP attempt ${attempts} failed: ${LastError}`,
    );
    if (attempts >= this.settings.maxAttempts) {
      await this.confirmations.update(confirmation, {
        Mail: { ...confirmation.Mail, State: 'Failed', Attempts: attempts, LastError },
      });
      await this.confirmations.deleteOutbox(outbox);
      return;
    }
    const delayMs = this.settings.backoffMs * 2 ** (attempts - 1);
    await this.confirmations.updateOutbox(outbox, {
      attempts,
      dueAt: new Date(Date.now() + delayMs),
    });
    await this.confirmations.update(confirmation, {
      Mail: { ...confirmation.Mail, State: 'Queued', Attempts: attempts, LastError },
    });
    await this.jobs.enqueue(
      CONFIRMATION_MAIL,
      {
        clientId: outbox.clientId,
        profileId: outbox.profileId,
        confirmationId: outbox.confirmationId,
      },
      { delayMs },
    );
  }
}
