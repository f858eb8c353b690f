import { defineJob, type JobDefinition } from '@app/shared';

/** What an event-subscription-validate job carries: the handshake and which attempt this is. */
export interface ValidateEventSubscriptionPayload {
  clientId: string;
  subscriptionId: string;
  /** From 1: the first attempt, then one per EVENTS_HANDSHAKE_RETRY_DELAYS_MS entry. */
  attempt: number;
  /**
   * The handshake's nonce (the subscription's validationNonce when it was queued): a job of
   * an older handshake (the Url changed, Validate ran again) ends without changing anything.
   */
  nonce: string;
}

/** POST a challenge to a subscription's Url and record whether it answered it. */
export const VALIDATE_EVENT_SUBSCRIPTION = defineJob<ValidateEventSubscriptionPayload>({
  name: 'event-subscription-validate',
  lanes: 'main',
});

/** Every job of the events module, for the apps to hand to QueueModule. */
export const EVENT_JOBS: JobDefinition[] = [VALIDATE_EVENT_SUBSCRIPTION];
