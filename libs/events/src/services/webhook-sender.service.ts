import { Injectable } from '@nestjs/common';
import { Clock, inHttpClientSpan } from '@app/shared';
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

  /**
   * null when the endpoint answered 2xx, else what went wrong. With tracing on, the attempt
   * is a client span (`POST webhook`); no trace header is sent to the subscriber.
   */
  send(
    subscription: EventSubscription,
    messageId: string,
    body: string,
    contentType?: string,
  ): Promise<string | null> {
    const request = {
      method: 'POST',
      url: subscription.url,
      attributes: { 'pcp.subscription_id': subscription.subscriptionId, 'pcp.event_id': messageId },
    };
    return inHttpClientSpan('POST webhook', request, async (span) => {
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
        const problem =
          answer.status >= 200 && answer.status < 300
            ? null
            : `the endpoint answered HTTP ${answer.status}`;
        span.answered(answer.status, problem);
        return problem;
      } catch (error) {
        const problem = error instanceof Error ? error.message : String(error);
        span.failed(problem);
        return problem;
      }
    });
  }
}
