import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, JobQueue } from '@app/shared';
import type { EventSubscription } from '../../domain/event-subscription';
import {
  challengeProblem,
  HANDSHAKE_MAX_RESPONSE_BYTES,
  handshakeRequest,
  newChallenge,
  retryDelayMs,
} from '../../domain/handshake';
import { EventsSettings } from '../../events-settings';
import { safePost } from '../../http-target/safe-post';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { VALIDATE_EVENT_SUBSCRIPTION } from '../../worker/event.job-definitions';
import { RunSubscriptionHandshakeCommand } from './run-subscription-handshake.command';

/**
 * POSTs `{"Type": "SubscriptionValidation", "SubscriptionId", "Challenge"}` to the Url (a
 * fresh challenge per attempt) through safePost: EVENTS_HANDSHAKE_TIMEOUT_MS, redirects not
 * followed, at most 4 KiB of the answer read. A 2xx answer carrying the challenge makes the
 * subscription Validated. Any other outcome is retried after the next delay of
 * EVENTS_HANDSHAKE_RETRY_DELAYS_MS (a job queued with a delay); after the last, Failed
 * with the reason. The request is sent without the lease; the outcome is written under it,
 * and only while the subscription still waits for this handshake (same nonce, still
 * Pending): an answer from the old Url after a change, or after a new Validate, or for a
 * deleted subscription, changes nothing.
 */
@CommandHandler(RunSubscriptionHandshakeCommand)
export class RunSubscriptionHandshakeHandler implements ICommandHandler<RunSubscriptionHandshakeCommand> {
  private readonly logger = new Logger('EventSubscriptionHandshake');

  constructor(
    private readonly store: SubscriptionStore,
    private readonly queue: JobQueue,
    private readonly settings: EventsSettings,
    private readonly clock: Clock,
  ) {}

  async execute({
    clientId,
    subscriptionId,
    attempt,
    nonce,
  }: RunSubscriptionHandshakeCommand): Promise<void> {
    const subscription = await this.store.find(clientId, subscriptionId);
    if (!subscription || !awaits(subscription, nonce)) return;
    const problem = await this.attempt(subscription);
    if (problem === null) {
      await this.record(clientId, subscriptionId, nonce, {
        validationStatus: 'Validated',
        validationFailure: null,
        validatedAt: this.clock.now(),
      });
      return;
    }
    const delayMs = retryDelayMs(this.settings.handshakeRetryDelaysMs, attempt);
    if (delayMs !== null) {
      this.logger.warn(
        `handshake of subscription ${subscriptionId} of ${clientId} (attempt ${attempt}) failed: ${problem}; trying again in ${delayMs} ms`,
      );
      await this.queue.enqueue(
        VALIDATE_EVENT_SUBSCRIPTION,
        { clientId, subscriptionId, attempt: attempt + 1, nonce },
        { delayMs },
      );
      return;
    }
    this.logger.warn(
      `handshake of subscription ${subscriptionId} of ${clientId} failed ${attempt} times (${problem}); Failed`,
    );
    await this.record(clientId, subscriptionId, nonce, {
      validationStatus: 'Failed',
      validationFailure: `${problem} (${attempt} attempt${attempt === 1 ? '' : 's'})`,
      validatedAt: null,
    });
  }

  /** One POST of a fresh challenge: null when it was answered, else why not. */
  private async attempt(subscription: EventSubscription): Promise<string | null> {
    const challenge = newChallenge();
    try {
      const answer = await safePost(
        subscription.url,
        JSON.stringify(handshakeRequest(subscription.subscriptionId, challenge)),
        { 'Content-Type': 'application/json' },
        {
          timeoutMs: this.settings.handshakeTimeoutMs,
          maxResponseBytes: HANDSHAKE_MAX_RESPONSE_BYTES,
          allowPrivateTargets: this.settings.allowPrivateTargets,
        },
      );
      return challengeProblem(answer, challenge);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Writes the outcome under the lease, if the subscription still awaits this handshake. */
  private async record(
    clientId: string,
    subscriptionId: string,
    nonce: string,
    outcome: Pick<EventSubscription, 'validationStatus' | 'validationFailure' | 'validatedAt'>,
  ): Promise<void> {
    await this.store.change(clientId, (list) => {
      const current = list.find(subscriptionId);
      if (current && awaits(current, nonce)) list.replace({ ...current, ...outcome });
    });
  }
}

/** Whether the subscription waits for the outcome of the handshake `nonce`. */
function awaits(subscription: EventSubscription, nonce: string): boolean {
  return subscription.validationNonce === nonce && subscription.validationStatus === 'Pending';
}
