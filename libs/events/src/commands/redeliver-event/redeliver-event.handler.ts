import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DeadLetters } from '../../services/dead-letters.service';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { WebhookSender } from '../../services/webhook-sender.service';
import { RedeliverEventCommand } from './redeliver-event.command';

/**
 * Sends a dead letter's body again (with the content type it was sent with: a CloudEvent
 * stays one), signed anew with the subscription's current secrets,
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
    private readonly sender: WebhookSender,
  ) {}

  async execute({ clientId, subscriptionId, eventId }: RedeliverEventCommand): Promise<void> {
    const subscription = await this.store.find(clientId, subscriptionId);
    if (!subscription) return;
    const letter = (await this.deadLetters.list(clientId, subscriptionId)).find(
      (kept) => kept.eventId === eventId,
    );
    if (!letter) return;
    const problem = await this.sender.send(
      subscription,
      letter.eventId,
      letter.body,
      letter.contentType,
    );
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
