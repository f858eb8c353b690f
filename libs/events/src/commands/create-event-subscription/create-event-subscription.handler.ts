import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, ConflictError, effectiveQuota, InvalidInputError } from '@app/shared';
import {
  type EventSubscription,
  findOverlap,
  newSecret,
  newSubscriptionId,
  overlapMessage,
  pendingHandshake,
} from '../../domain/event-subscription';
import type { EventSubscriptionDto } from '../../dto/event-subscription.dto';
import { EventsSettings } from '../../events-settings';
import { toEventSubscriptionDto } from '../../mapping/event-subscription.mapper';
import { Handshakes } from '../../services/handshakes.service';
import { SubscriptionBodyChecks } from '../../services/subscription-body-checks.service';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { CreateEventSubscriptionCommand } from './create-event-subscription.command';

/**
 * Checks the body (configuration first, outside the lease), then under the client's lease
 * the limit and the 409 for a Url already subscribed to the same event, and stores the
 * subscription Pending; its handshake is queued once it is stored.
 */
@CommandHandler(CreateEventSubscriptionCommand)
export class CreateEventSubscriptionHandler implements ICommandHandler<CreateEventSubscriptionCommand> {
  constructor(
    private readonly checks: SubscriptionBodyChecks,
    private readonly store: SubscriptionStore,
    private readonly handshakes: Handshakes,
    private readonly settings: EventsSettings,
    private readonly clock: Clock,
  ) {}

  async execute({
    clientId,
    userId,
    body,
    quotas,
  }: CreateEventSubscriptionCommand): Promise<EventSubscriptionDto> {
    if (body.IsActive === false) {
      throw new InvalidInputError(
        'Invalid IsActive (value false): a subscription is created active (IsActive false on update deletes one)',
      );
    }
    const fields = await this.checks.check(clientId, body);
    const now = this.clock.now();
    const subscription: EventSubscription = {
      ...fields,
      subscriptionId: newSubscriptionId(),
      secret: newSecret(),
      previousSecret: null,
      previousSecretUntil: null,
      ...pendingHandshake(),
      pausedSince: fields.state === 'Paused' ? now : null,
      activeSince: fields.state === 'Active' ? now : null,
      pausedReason: null,
      createdAt: now,
      createdBy: userId,
      modifiedAt: now,
      modifiedBy: userId,
    };
    // The client's own quota, else EVENTS_MAX_SUBSCRIPTIONS.
    const { limit, source } = effectiveQuota(
      quotas,
      'maxEventSubscriptions',
      this.settings.maxSubscriptions,
    );
    await this.store.change(clientId, (list) => {
      if (list.all.length >= limit) {
        const named =
          source === 'Client' ? `its own quota, ${limit}` : `EVENTS_MAX_SUBSCRIPTIONS ${limit}`;
        throw new ConflictError(
          `The client holds ${list.all.length} event subscriptions, the most it may (${named}); delete one first`,
        );
      }
      const overlap = findOverlap(list.all, fields.url, fields.selections, null);
      if (overlap) throw new ConflictError(overlapMessage(overlap));
      list.add(subscription);
    });
    await this.handshakes.start(clientId, subscription);
    return toEventSubscriptionDto(subscription, { withSecret: true });
  }
}
