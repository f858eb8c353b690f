import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, ConflictError, JobQueue, NotFoundError } from '@app/shared';
import { activeSinceOnResume } from '../../domain/event-matching';
import { REPLAY_PAUSED_EVENTS } from '../../worker/event.job-definitions';
import {
  type EventSubscription,
  findOverlap,
  overlapMessage,
  pendingHandshake,
  subscriptionNotFound,
} from '../../domain/event-subscription';
import type { EventSubscriptionDto } from '../../dto/event-subscription.dto';
import { toEventSubscriptionDto } from '../../mapping/event-subscription.mapper';
import { Handshakes } from '../../services/handshakes.service';
import { SubscriptionBodyChecks } from '../../services/subscription-body-checks.service';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { UpdateEventSubscriptionCommand } from './update-event-subscription.command';

/**
 * PUT replaces every field the body sets; absent optional fields take their defaults, as
 * on create (State Paused among them). IsActive false deletes the subscription instead
 * (the body's other fields are then not checked against the configuration: a deletion
 * must not fail because, say, a consent type it names was removed since). A new Url
 * starts a new handshake; the secret, the handshake of an unchanged Url and Created stay.
 */
@CommandHandler(UpdateEventSubscriptionCommand)
export class UpdateEventSubscriptionHandler implements ICommandHandler<UpdateEventSubscriptionCommand> {
  constructor(
    private readonly checks: SubscriptionBodyChecks,
    private readonly store: SubscriptionStore,
    private readonly handshakes: Handshakes,
    private readonly clock: Clock,
    private readonly queue: JobQueue,
  ) {}

  async execute({
    clientId,
    userId,
    subscriptionId,
    body,
  }: UpdateEventSubscriptionCommand): Promise<EventSubscriptionDto> {
    if (body.IsActive === false) {
      const removed = await this.store.change(clientId, (list) => {
        const current = list.find(subscriptionId);
        if (!current) throw new NotFoundError(subscriptionNotFound(subscriptionId));
        list.remove(subscriptionId);
        return current;
      });
      return toEventSubscriptionDto(removed, { deleted: true });
    }
    const fields = await this.checks.check(clientId, body);
    const now = this.clock.now();
    const { updated, urlChanged, resumed } = await this.store.change(clientId, (list) => {
      const current = list.find(subscriptionId);
      if (!current) throw new NotFoundError(subscriptionNotFound(subscriptionId));
      const overlap = findOverlap(list.all, fields.url, fields.selections, subscriptionId);
      if (overlap) throw new ConflictError(overlapMessage(overlap));
      const urlChanged = current.url !== fields.url;
      const stillPaused = fields.state === 'Paused' && current.state === 'Paused';
      const updated: EventSubscription = {
        ...current,
        ...fields,
        ...(urlChanged ? pendingHandshake() : {}),
        // A paused period starts when it is paused, not at each update while it is.
        pausedSince: fields.state === 'Active' ? null : stillPaused ? current.pausedSince : now,
        // Active from now on when it was paused (or from the pause, with DeliverPausedEvents).
        activeSince:
          fields.state !== 'Active'
            ? null
            : current.state === 'Active'
              ? (current.activeSince ?? current.createdAt)
              : activeSinceOnResume({ ...current, ...fields }, now),
        pausedReason: stillPaused ? current.pausedReason : null,
        modifiedAt: now,
        modifiedBy: userId,
      };
      list.replace(updated);
      return {
        updated,
        urlChanged,
        resumed: current.state === 'Paused' && fields.state === 'Active',
      };
    });
    if (urlChanged) await this.handshakes.start(clientId, updated);
    if (resumed && updated.deliverPausedEvents) {
      await this.queue.enqueue(REPLAY_PAUSED_EVENTS, { clientId, subscriptionId });
    }
    return toEventSubscriptionDto(updated);
  }
}
