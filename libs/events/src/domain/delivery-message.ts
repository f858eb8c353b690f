import type { AlternateIdPair, ProfileEvent } from '@app/profiles';
import { type DeliveryPayload, deliveryPayload } from './delivery-body';
import type { EventSubscription } from './event-subscription';

export { DELIVERY_FORMATS, type DeliveryFormat } from './event-subscription';

/*
 * What one delivery POSTs (docs/events.md, "CloudEvents"): the subscription's DeliveryFormat
 * decides the body. Standard: the event as the retrieval shows it, with the SubscriptionId
 * (application/json). CloudEvents: the same object as the `data` of a CloudEvents 1.0 event
 * in structured mode (application/cloudevents+json). Both are signed as Standard Webhooks
 * over the exact body. Pure code.
 */

export const JSON_CONTENT_TYPE = 'application/json';
export const CLOUDEVENTS_CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';

/** The prefix of a CloudEvent's `type`: `com.pcp.` then the event type (`com.pcp.profile.updated`). */
export const CLOUDEVENT_TYPE_PREFIX = 'com.pcp.';

/** A CloudEvents 1.0 event in its JSON format (the structured mode's body). */
export interface CloudEvent {
  specversion: '1.0';
  /** The event's id (`<ProfileId>-<seq>-<n>`): the same on every attempt, and the webhook-id. */
  id: string;
  /** The client on the service: `urn:pcp:client:<clientId>`. */
  source: string;
  type: string;
  /** The profile as `data` names it: its ProfileId, or its alternate id of AlternateIdType. */
  subject: string;
  time: string;
  datacontenttype: typeof JSON_CONTENT_TYPE;
  data: DeliveryPayload;
}

export interface DeliveryMessage {
  body: string;
  contentType: string;
}

/** The `source` of a client's events (the IRI the consent records name the client by too). */
export function cloudEventSource(clientId: string): string {
  return `urn:pcp:client:${encodeURIComponent(clientId)}`;
}

/** The CloudEvent carrying a delivery's payload. */
export function cloudEvent(clientId: string, payload: DeliveryPayload): CloudEvent {
  const subject = payload.ProfileId ?? payload.AlternateId;
  return {
    specversion: '1.0',
    id: String(payload.EventId),
    source: cloudEventSource(clientId),
    type: `${CLOUDEVENT_TYPE_PREFIX}${String(payload.EventType)}`,
    subject: String(subject),
    time: String(payload.OccurredAt),
    datacontenttype: JSON_CONTENT_TYPE,
    data: payload,
  };
}

/** The body and its content type of one event's delivery to a subscription. */
export function deliveryMessage(
  clientId: string,
  subscription: Pick<
    EventSubscription,
    'subscriptionId' | 'excludeData' | 'alternateIdType' | 'deliveryFormat'
  >,
  event: ProfileEvent,
  alternateIds: readonly AlternateIdPair[],
): DeliveryMessage {
  const payload = deliveryPayload(subscription, event, alternateIds);
  if (subscription.deliveryFormat === 'CloudEvents') {
    return {
      body: JSON.stringify(cloudEvent(clientId, payload)),
      contentType: CLOUDEVENTS_CONTENT_TYPE,
    };
  }
  return { body: JSON.stringify(payload), contentType: JSON_CONTENT_TYPE };
}
