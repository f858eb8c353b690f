import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { type ProfileEvent, ProfileEventFeed } from '@app/profiles';
import { Clock, JobQueue, LeaseService } from '@app/shared';
import { type DeliveryMessage, deliveryMessage } from '../../domain/delivery-message';
import { retryDelayMs } from '../../domain/delivery-schedule';
import type { DeliveryCursor } from '../../domain/event-delivery.schema';
import { deliverableSince, subscriptionWants } from '../../domain/event-matching';
import type { EventSubscription } from '../../domain/event-subscription';
import { EventsSettings } from '../../events-settings';
import { deliveryLeaseName } from '../../keys';
import { toProfileEventDto } from '../../profile-events/profile-event.mapper';
import { EventDeliveryRepository } from '../../repositories/event-delivery.repository';
import { DeadLetters } from '../../services/dead-letters.service';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { WebhookSender } from '../../services/webhook-sender.service';
import { DELIVER_PROFILE_EVENTS } from '../../worker/event.job-definitions';
import { DeliverProfileEventsCommand } from './deliver-profile-events.command';

/** The delivery lease of a (subscription, profile) pair, renewed while it delivers. */
const LEASE_TTL_MS = 30_000;
/** A job that finds the pair's lease taken comes back after this, doubling, up to 5 s. */
const BUSY_DELAY_MS = 100;
const BUSY_DELAY_MAX_MS = 5000;

type Position = Omit<DeliveryCursor, '_id'>;

/**
 * The worker's delivery of one profile's events to one subscription (docs/events.md,
 * "Deliveries"), under the pair's lease, so the events arrive **in the order of the
 * profile's writes**: from the pair's cursor (the last event delivered or passed over), each
 * kept event of the profile the subscription takes and accepted since it receives
 * (deliverableSince) is POSTed, signed (Standard Webhooks), through safePost; a 2xx answer
 * moves the cursor past it. A failure keeps the cursor on it and comes back after the
 * schedule's next delay (EVENTS_DELIVERY_RETRY_DELAYS_MS, with jitter): the profile's later
 * events wait behind it. After the last delay the event is dead-lettered (kept for the API
 * and a manual redelivery) and the cursor goes past it; EVENTS_PAUSE_AFTER_DEAD_LETTERS dead
 * letters in a row pause the subscription, saying why. A worker dying after a POST and before
 * the cursor's save sends that event again: receivers drop it by its `webhook-id`.
 */
@CommandHandler(DeliverProfileEventsCommand)
export class DeliverProfileEventsHandler implements ICommandHandler<DeliverProfileEventsCommand> {
  private readonly logger = new Logger('EventDelivery');

  constructor(
    private readonly store: SubscriptionStore,
    private readonly feed: ProfileEventFeed,
    private readonly deliveries: EventDeliveryRepository,
    private readonly deadLetters: DeadLetters,
    private readonly lease: LeaseService,
    private readonly queue: JobQueue,
    private readonly settings: EventsSettings,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
  ) {}

  async execute({
    clientId,
    subscriptionId,
    profileId,
    busy,
  }: DeliverProfileEventsCommand): Promise<void> {
    const name = deliveryLeaseName(clientId, subscriptionId, profileId);
    const token = await this.lease.acquire(name, LEASE_TTL_MS);
    if (!token) {
      // Another job delivers this pair now (and may take these events with it): back later.
      await this.queue.enqueue(
        DELIVER_PROFILE_EVENTS,
        { clientId, subscriptionId, profileId, busy: busy + 1 },
        { delayMs: Math.min(BUSY_DELAY_MAX_MS, BUSY_DELAY_MS * 2 ** busy) },
      );
      return;
    }
    await this.lease.whileHeld(name, token, LEASE_TTL_MS, () =>
      this.deliverPending(clientId, subscriptionId, profileId),
    );
  }

  private async deliverPending(
    clientId: string,
    subscriptionId: string,
    profileId: number,
  ): Promise<void> {
    // The process's copy while no change was made since (SubscriptionStore.current).
    const subscription = (await this.store.current(clientId)).find(
      (candidate) => candidate.subscriptionId === subscriptionId,
    );
    const since = subscription && deliverableSince(subscription);
    if (!subscription || !since) return; // deleted, paused or not validated: nothing now
    const stored = await this.deliveries.cursor(clientId, subscriptionId, profileId);
    let position: Position = stored ?? {
      seq: 0,
      n: -1,
      attempts: 0,
      lastError: null,
      retryAt: null,
    };
    // A retry is due later (its job is queued): a new write's trigger does not hurry it.
    if (position.retryAt && position.retryAt > this.clock.now()) return;
    const found = await this.feed.eventsFrom(clientId, profileId, position.seq);
    if (!found) return;
    let moved = false;
    for (const event of found.events) {
      if (event.seq < position.seq || (event.seq === position.seq && event.n <= position.n))
        continue;
      const wanted =
        Date.parse(event.at) >= since.getTime() &&
        subscriptionWants(subscription, { ...event, groups: found.groups });
      if (!wanted) {
        position = { ...position, seq: event.seq, n: event.n };
        moved = true;
        continue;
      }
      const message = deliveryMessage(clientId, subscription, event, found.alternateIds);
      const problem = await this.sender.send(
        subscription,
        toProfileEventDto(event).EventId,
        message.body,
        message.contentType,
      );
      if (problem === null) {
        position = { seq: event.seq, n: event.n, attempts: 0, lastError: null, retryAt: null };
        // The cursor past it and the dead-letter streak ended, together (one wait, not two).
        await Promise.all([
          this.deliveries.saveCursor(clientId, subscriptionId, profileId, position),
          this.deadLetters.delivered(clientId, subscriptionId),
        ]);
        moved = false;
        continue;
      }
      const attempts = position.attempts + 1;
      const delayMs = retryDelayMs(this.settings.deliveryRetryDelaysMs, attempts);
      if (delayMs !== null) {
        this.logger.warn(
          `delivery of event ${toProfileEventDto(event).EventId} to subscription ${subscriptionId} (attempt ${attempts}) failed: ${problem}; again in ${delayMs} ms`,
        );
        const retryAt = new Date(this.clock.now().getTime() + delayMs);
        await this.deliveries.saveCursor(clientId, subscriptionId, profileId, {
          ...position,
          attempts,
          lastError: problem,
          retryAt,
        });
        await this.queue.enqueue(
          DELIVER_PROFILE_EVENTS,
          { clientId, subscriptionId, profileId },
          { delayMs },
        );
        return;
      }
      await this.deadLetter(clientId, subscription, event, message, attempts, problem);
      position = { seq: event.seq, n: event.n, attempts: 0, lastError: null, retryAt: null };
      await this.deliveries.saveCursor(clientId, subscriptionId, profileId, position);
      moved = false;
    }
    if (moved) await this.deliveries.saveCursor(clientId, subscriptionId, profileId, position);
  }

  /** The event is given up: a dead letter, and the subscription paused after too many in a row. */
  private async deadLetter(
    clientId: string,
    subscription: EventSubscription,
    event: ProfileEvent,
    { body, contentType }: DeliveryMessage,
    attempts: number,
    problem: string,
  ): Promise<void> {
    const eventId = toProfileEventDto(event).EventId;
    this.logger.warn(
      `delivery of event ${eventId} to subscription ${subscription.subscriptionId} given up after ${attempts} attempts: ${problem}`,
    );
    const inARow = await this.deadLetters.add(clientId, subscription.subscriptionId, {
      eventId,
      eventType: event.type,
      profileId: event.profileId,
      attempts,
      lastError: problem,
      deadAt: this.clock.now().toISOString(),
      body,
      contentType,
    });
    const limit = this.settings.pauseAfterDeadLetters;
    if (limit > 0 && inARow >= limit)
      await this.pause(clientId, subscription.subscriptionId, inARow, problem);
  }

  private async pause(
    clientId: string,
    subscriptionId: string,
    inARow: number,
    problem: string,
  ): Promise<void> {
    const now = this.clock.now();
    await this.store.change(clientId, (list) => {
      const current = list.find(subscriptionId);
      if (!current || current.state === 'Paused') return;
      list.replace({
        ...current,
        state: 'Paused',
        pausedSince: now,
        activeSince: null,
        pausedReason: `Paused automatically: ${inARow} deliveries in a row failed every attempt (the last: ${problem})`,
        modifiedAt: now,
        modifiedBy: 'system:event-delivery',
      });
    });
    this.logger.warn(
      `subscription ${subscriptionId} of ${clientId} paused after ${inARow} dead letters in a row`,
    );
  }
}
