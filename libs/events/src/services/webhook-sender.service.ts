import { Injectable } from '@nestjs/common';
import { Clock } from '@app/shared';
import { signedHeaders } from '../domain/delivery-body';
import type { EventSubscription } from '../domain/event-subscription';
import { EventsSettings } from '../events-settings';
import { safePost } from '../http-target/safe-post';

/** The most of an endpoint's answer read (its body is not used). */
const MAX_RESPONSE_BYTES = 4096;

/**
 * One attempt at delivering a body to a subscription (a delivery, a redelivery): signed
 * now with its secrets (Standard Webhooks), through safePost (EVENTS_DELIVERY_TIMEOUT_MS,
 * redirects not followed, non-public targets refused at connect time).
 */
@Injectable()
export class WebhookSender {
  constructor(
    private readonly settings: EventsSettings,
    private readonly clock: Clock,
  ) {}

  /** null when the endpoint answered 2xx, else what went wrong. */
  async send(
    subscription: EventSubscription,
    messageId: string,
    body: string,
    contentType?: string,
  ): Promise<string | null> {
    try {
      const answer = await safePost(
        subscription.url,
        body,
        signedHeaders(subscription, messageId, body, this.clock.now(), contentType),
        {
          timeoutMs: this.settings.deliveryTimeoutMs,
          maxResponseBytes: MAX_RESPONSE_BYTES,
          allowPrivateTargets: this.settings.allowPrivateTargets,
        },
      );
      return answer.status >= 200 && answer.status < 300
        ? null
        : `the endpoint answered HTTP ${answer.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }
}
