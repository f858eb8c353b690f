import { Injectable } from '@nestjs/common';
import { LeaseService, RedisService, RetryLaterError, Settings } from '@app/shared';
import { LRUCache } from 'lru-cache';
import { type EventSubscription, SubscriptionList } from '../domain/event-subscription';
import { subscriptionsLeaseName, subscriptionsVersionKey } from '../keys';
import { EventSubscriptionRepository } from '../repositories/event-subscription.repository';

/** A change holds the lease at most this long (renewed meanwhile): one read and one write. */
const LEASE_TTL_MS = 10_000;
/** How long a request waits for another writer of the same client's list before 503. */
const LEASE_WAIT_MS = 5_000;

/**
 * A client's subscriptions, read freely and changed only under the client's Redis lease:
 * the engine has no transactions nor conditional writes, so two concurrent creates would
 * otherwise both pass the limit and the 409 check and the second save would drop the first.
 */
@Injectable()
export class SubscriptionStore {
  private readonly copies = new LRUCache<
    string,
    { version: string; subscriptions: EventSubscription[] }
  >({ max: 10_000 });

  constructor(
    private readonly repository: EventSubscriptionRepository,
    private readonly lease: LeaseService,
    private readonly redis: RedisService,
    private readonly settings: Settings,
  ) {}

  /**
   * The client's subscriptions as of their last change, from a copy this process keeps
   * while the change counter in Redis says it is current (one Redis read instead of a
   * document read: the delivery trigger asks with every applied write).
   */
  async current(clientId: string): Promise<EventSubscription[]> {
    const version =
      (await this.redis.client.get(subscriptionsVersionKey(this.settings.queuePrefix, clientId))) ??
      '0';
    const cached = this.copies.get(clientId);
    if (cached?.version === version) return cached.subscriptions;
    const subscriptions = await this.repository.load(clientId);
    this.copies.set(clientId, { version, subscriptions });
    return subscriptions;
  }

  list(clientId: string): Promise<EventSubscription[]> {
    return this.repository.load(clientId);
  }

  async find(clientId: string, subscriptionId: string): Promise<EventSubscription | undefined> {
    return (await this.repository.load(clientId)).find(
      (item) => item.subscriptionId === subscriptionId,
    );
  }

  /**
   * Runs `change` on the client's list under its lease (read again under it) and saves the
   * list when `change` changed it; a `change` that throws saves nothing. 503 when another
   * writer keeps the lease past LEASE_WAIT_MS.
   */
  async change<T>(clientId: string, change: (list: SubscriptionList) => T): Promise<T> {
    const name = subscriptionsLeaseName(clientId);
    const token = await this.lease.acquireWithin(name, LEASE_TTL_MS, LEASE_WAIT_MS);
    if (!token) {
      throw new RetryLaterError(
        "The client's event subscriptions are being changed by another request; retry",
      );
    }
    return this.lease.whileHeld(name, token, LEASE_TTL_MS, async () => {
      const list = new SubscriptionList(await this.repository.load(clientId));
      const result = change(list);
      if (list.changed) {
        await this.repository.save(clientId, list.all);
        // The delivery trigger's cached lists of this client are stale from now on.
        await this.redis.client.incr(subscriptionsVersionKey(this.settings.queuePrefix, clientId));
      }
      return result;
    });
  }
}
