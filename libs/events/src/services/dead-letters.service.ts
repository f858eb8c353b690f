import { Injectable } from '@nestjs/common';
import { LeaseService, RedisService, RetryLaterError, Settings } from '@app/shared';
import type { DeadLetter } from '../domain/event-delivery.schema';
import { deadLettersKey, deadLetterStreakKey } from '../keys';
import { EventDeliveryRepository } from '../repositories/event-delivery.repository';

const LEASE_TTL_MS = 10_000;
const LEASE_WAIT_MS = 5_000;

/**
 * A subscription's dead letters (deliveries given up after their last attempt), changed
 * under the subscription's dead-letter lease; and the count of dead letters in a row since
 * its last delivered event (Redis), which pauses it past EVENTS_PAUSE_AFTER_DEAD_LETTERS.
 */
@Injectable()
export class DeadLetters {
  constructor(
    private readonly deliveries: EventDeliveryRepository,
    private readonly lease: LeaseService,
    private readonly redis: RedisService,
    private readonly settings: Settings,
  ) {}

  list(clientId: string, subscriptionId: string): Promise<DeadLetter[]> {
    return this.deliveries.listDeadLetters(clientId, subscriptionId);
  }

  /** Adds one; returns how many dead letters in a row the subscription has now. */
  async add(clientId: string, subscriptionId: string, letter: DeadLetter): Promise<number> {
    await this.change(clientId, subscriptionId, (letters) => [
      ...letters.filter((kept) => kept.eventId !== letter.eventId),
      letter,
    ]);
    return this.redis.client.incr(this.streakKey(clientId, subscriptionId));
  }

  /** Takes one out (redelivered); false when it is not there. */
  async remove(clientId: string, subscriptionId: string, eventId: string): Promise<boolean> {
    let found = false;
    await this.change(clientId, subscriptionId, (letters) => {
      found = letters.some((letter) => letter.eventId === eventId);
      return letters.filter((letter) => letter.eventId !== eventId);
    });
    return found;
  }

  /**
   * Takes out every dead letter of one profile (an erased profile's: their bodies hold its
   * data); returns how many went. Reads the list first, so a subscription with none of
   * them costs no lease and no write.
   */
  async removeProfile(
    clientId: string,
    subscriptionId: string,
    profileId: number,
  ): Promise<number> {
    const listed = await this.deliveries.listDeadLetters(clientId, subscriptionId);
    if (!listed.some((letter) => letter.profileId === profileId)) return 0;
    let removed = 0;
    await this.change(clientId, subscriptionId, (letters) => {
      const kept = letters.filter((letter) => letter.profileId !== profileId);
      removed = letters.length - kept.length;
      return kept;
    });
    return removed;
  }

  /** Records another failed attempt at one (a redelivery that failed). */
  async update(
    clientId: string,
    subscriptionId: string,
    eventId: string,
    change: Pick<DeadLetter, 'attempts' | 'lastError'>,
  ): Promise<void> {
    await this.change(clientId, subscriptionId, (letters) =>
      letters.map((letter) => (letter.eventId === eventId ? { ...letter, ...change } : letter)),
    );
  }

  /** A delivery went through: no dead letters in a row any more. */
  async delivered(clientId: string, subscriptionId: string): Promise<void> {
    await this.redis.client.del(this.streakKey(clientId, subscriptionId));
  }

  private streakKey(clientId: string, subscriptionId: string): string {
    return deadLetterStreakKey(this.settings.queuePrefix, clientId, subscriptionId);
  }

  private async change(
    clientId: string,
    subscriptionId: string,
    change: (letters: DeadLetter[]) => DeadLetter[],
  ): Promise<void> {
    const name = `events-dead-letters:${deadLettersKey(clientId, subscriptionId)}`;
    const token = await this.lease.acquireWithin(name, LEASE_TTL_MS, LEASE_WAIT_MS);
    if (!token)
      throw new RetryLaterError("The subscription's dead letters are being changed; retry");
    await this.lease.whileHeld(name, token, LEASE_TTL_MS, async () => {
      const letters = await this.deliveries.listDeadLetters(clientId, subscriptionId);
      await this.deliveries.saveDeadLetters(clientId, subscriptionId, change(letters));
    });
  }
}
