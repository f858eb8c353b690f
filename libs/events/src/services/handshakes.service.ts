import { Injectable } from '@nestjs/common';
import { JobQueue } from '@app/shared';
import type { EventSubscription } from '../domain/event-subscription';
import { VALIDATE_EVENT_SUBSCRIPTION } from '../worker/event.job-definitions';

/**
 * Queues the first attempt of a subscription's handshake (its nonce in the job). Called
 * after the Pending subscription is saved: if queueing fails the request fails, the
 * subscription stays Pending, and POST .../Validate queues it again.
 */
@Injectable()
export class Handshakes {
  constructor(private readonly queue: JobQueue) {}

  async start(clientId: string, subscription: EventSubscription): Promise<void> {
    await this.queue.enqueue(VALIDATE_EVENT_SUBSCRIPTION, {
      clientId,
      subscriptionId: subscription.subscriptionId,
      attempt: 1,
      nonce: subscription.validationNonce,
    });
  }
}
