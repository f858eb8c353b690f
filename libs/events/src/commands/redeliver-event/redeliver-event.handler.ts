import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@app/shared';
import { signedHeaders } from '../../domain/delivery-body';
import { EventsSettings } from '../../events-settings';
import { safePost } from '../../http-target/safe-post';
import { DeadLetters } from '../../services/dead-letters.service';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { RedeliverEventCommand } from './redeliver-event.command';

/**
 * Sends a dead letter's body again, signed anew with the subscription's current secrets,
 * once: a 2xx answer takes it out of the dead letters; any other outcome leaves it there
 * with this attempt's error (the caller may ask again). A redelivered event arrives after
 * the profile's later events (docs/events.md, "Dead letters").
 */
@CommandHandler(RedeliverEventCommand)
export class RedeliverEventHandler implements ICommandHandler<RedeliverEventCommand> {
  private readonly logger = new Logger('EventRedelivery');

  constructor(
    private readonly store: SubscriptionStore,
    private readonly deadLetters: DeadLetters,
    private readonly settings: EventsSettings,
    private readonly clock: Clock,
  ) {}

  async execute({ clientId, subscriptionId, eventId }: RedeliverEventCommand): Promise<void> {
    const subscription = await this.store.find(clientId, subscriptionId);
    if (!subscription) return;
    const letter = (await this.deadLetters.list(clientId, subscriptionId)).find(
      (kept) => kept.eventId === eventId,
    );
    if (!letter) return;
    let problem: string | null = null;
    try {
      const answer = await safePost(
        subscription.url,
        letter.body,
        signedHeaders(subscription, letter.eventId, letter.body, this.clock.now()),
        {
          timeoutMs: this.settings.deliveryTimeoutMs,
          maxResponseBytes: 4096,
          allowPrivateTargets: this.settings.allowPrivateTargets,
        },
      );
      if (answer.status < 200 || answer.status > 299) {
        problem = `the endpoint answered HTTP ${answer.status}`;
      }
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (problem === null) {
      await this.deadLetters.remove(clientId, subscriptionId, eventId);
      await this.deadLetters.delivered(clientId, subscriptionId);
      return;
    }
    this.logger.warn(`redelivery of event ${eventId} to ${subscriptionId} failed: ${problem}`);
    await this.deadLetters.update(clientId, subscriptionId, eventId, {
      attempts: letter.attempts + 1,
      lastError: problem,
    });
  }
}
