import type { AlternateIdPair, ProfileEvent } from '@app/profiles';
import { Webhook } from 'standardwebhooks';
import type { ProfileEventDto } from '../profile-events/profile-event.dto';
import { toProfileEventDto } from '../profile-events/profile-event.mapper';
import type { EventSubscription } from './event-subscription';

/**
 * The body a subscription receives for one event (docs/events.md, "Payload"): the event as
 * the retrieval by profile shows it (EventId, EventType, OccurredAt, ProfileId, Sequence,
 * UserId, Contact, Data, PreviousData) with the SubscriptionId; without Data and
 * PreviousData when the subscription says ExcludeData; with its AlternateIdType, the
 * profile's active alternate id of that type (AlternateIdType, AlternateId) in place of
 * ProfileId, also inside a profile in Data (a profile without one keeps its ProfileId).
 */
export function deliveryBody(
  subscription: Pick<EventSubscription, 'subscriptionId' | 'excludeData' | 'alternateIdType'>,
  event: ProfileEvent,
  alternateIds: readonly AlternateIdPair[],
): string {
  return JSON.stringify(deliveryPayload(subscription, event, alternateIds));
}

/**
 * What a subscription receives of one event (see deliveryBody): the event as retrieved,
 * its subscription, and the profile named by ProfileId or by the alternate id asked for.
 */
export type DeliveryPayload = Omit<ProfileEventDto, 'Data' | 'PreviousData' | 'ProfileId'> & {
  SubscriptionId: EventSubscription['subscriptionId'];
  ProfileId?: number;
  AlternateIdType?: string;
  AlternateId?: string;
  Data?: ProfileEventDto['Data'];
  PreviousData?: ProfileEventDto['PreviousData'];
};

/** The delivery body of `deliveryBody` as an object (the `data` of a CloudEvent). */
export function deliveryPayload(
  subscription: Pick<EventSubscription, 'subscriptionId' | 'excludeData' | 'alternateIdType'>,
  event: ProfileEvent,
  alternateIds: readonly AlternateIdPair[],
): DeliveryPayload {
  const { Data, PreviousData, ProfileId, ...rest } = toProfileEventDto(event);
  const pair = subscription.alternateIdType
    ? alternateIds.find(
        (candidate) =>
          candidate.AlternateIdType.toLowerCase() === subscription.alternateIdType!.toLowerCase(),
      )
    : undefined;
  const who = pair
    ? { AlternateIdType: pair.AlternateIdType, AlternateId: pair.AlternateId }
    : { ProfileId };
  const withoutProfileId = (data: ProfileEventDto['Data'] | undefined) => {
    if (!data || !pair || !('ProfileId' in data)) return data;
    const { ProfileId: _dropped, ...others } = data;
    return others;
  };
  return {
    SubscriptionId: subscription.subscriptionId,
    ...rest,
    ...who,
    ...(subscription.excludeData
      ? {}
      : {
          Data: withoutProfileId(Data),
          ...(PreviousData ? { PreviousData: withoutProfileId(PreviousData) } : {}),
        }),
  };
}

/**
 * The Standard Webhooks headers of a delivery: `webhook-id` (the event's id: the same for
 * every attempt, so a receiver drops a repeat), `webhook-timestamp` (seconds) and
 * `webhook-signature`, signed with the subscription's secret and, during the overlap after
 * a rotation, also with the previous one (space-separated, as the specification allows);
 * `content-type` the body's (a CloudEvent's is application/cloudevents+json).
 */
export function signedHeaders(
  subscription: Pick<EventSubscription, 'secret' | 'previousSecret' | 'previousSecretUntil'>,
  messageId: string,
  body: string,
  now: Date,
  contentType = 'application/json',
): Record<string, string> {
  const secrets = [subscription.secret];
  if (
    subscription.previousSecret &&
    subscription.previousSecretUntil &&
    subscription.previousSecretUntil > now
  ) {
    secrets.push(subscription.previousSecret);
  }
  return {
    'content-type': contentType,
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': secrets
      .map((secret) => new Webhook(secret).sign(messageId, now, body))
      .join(' '),
  };
}
