import { randomBytes, randomUUID } from 'node:crypto';
import {
  type EventEntity,
  type EventKey,
  eventKeysOverlap,
  type FilterKind,
  type SubscribedEventType,
} from './event-types';
import { normalisedTargetUrl } from './target-url';

/*
 * An event subscription as the module keeps it, and the rules that look at all of a
 * client's subscriptions at once (the limit, the 409 for a URL subscribed twice). Pure code.
 */

/** The most selections (Entity, EventType and lists) one subscription holds. */
export const MAX_SELECTIONS = 50;
/** The most values one narrowing list (Filters, ConsentTypes...) holds. */
export const MAX_FILTER_VALUES = 100;
/** How long a rotated-out secret still signs deliveries, beside the new one (Standard Webhooks). */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export const SUBSCRIPTION_STATES = ['Active', 'Paused'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export const VALIDATION_STATUSES = ['Pending', 'Validated', 'Failed'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];

/**
 * The body of its deliveries (docs/events.md, "CloudEvents"): Standard, the event as JSON;
 * CloudEvents, a CloudEvents 1.0 event in structured mode. Both signed as Standard Webhooks.
 */
export const DELIVERY_FORMATS = ['Standard', 'CloudEvents'] as const;
export type DeliveryFormat = (typeof DELIVERY_FORMATS)[number];

/** One (Entity, EventType) of a subscription and the lists narrowing it (absent: all). */
export type EventSelection = EventKey & Partial<Record<FilterKind, string[]>>;

/** What a create or update sets (checked against the configuration). */
export interface SubscriptionFields {
  name: string;
  description: string | null;
  localeId: string | null;
  url: string;
  selections: EventSelection[];
  state: SubscriptionState;
  excludeData: boolean;
  deliverPausedEvents: boolean;
  alternateIdType: string | null;
  /** Absent on subscriptions stored before it existed: Standard. */
  deliveryFormat?: DeliveryFormat;
}

export interface EventSubscription extends SubscriptionFields {
  subscriptionId: string;
  /** Signs deliveries: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
  secret: string;
  /** The secret before the last rotation, valid for signing until previousSecretUntil. */
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  validationStatus: ValidationStatus;
  validationFailure: string | null;
  validatedAt: Date | null;
  /**
   * Names the current handshake: a new one (new Url, Validate) draws another, so the answer
   * to an older handshake's job, which carries its own, changes nothing.
   */
  validationNonce: string;
  /** Since when it is Paused (null when Active): the start of a paused period's events. */
  pausedSince: Date | null;
  /**
   * Since when it is Active (null when Paused): it receives the events accepted from then
   * on (docs/events.md, "Deliveries"). Absent on subscriptions stored before: createdAt.
   */
  activeSince?: Date | null;
  /** Why the service paused it (set by automatic pausing, a later slice); null: not so. */
  pausedReason: string | null;
  createdAt: Date;
  createdBy: string;
  modifiedAt: Date;
  modifiedBy: string;
}

/** A new signing secret, in the Standard Webhooks format. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function newSubscriptionId(): string {
  return randomUUID();
}

export function newValidationNonce(): string {
  return randomBytes(16).toString('hex');
}

/** A selection conflicting with one of another subscription: the 409's facts. */
export interface SubscriptionOverlap {
  subscriptionId: string;
  url: string;
  entity: EventEntity;
  eventType: SubscribedEventType;
  otherEventType: SubscribedEventType;
}

/**
 * The first selection of `selections` that another subscription of the client (any but
 * `exceptId`) with the same Url (compared normalised) already covers, or null.
 */
export function findOverlap(
  subscriptions: readonly EventSubscription[],
  url: string,
  selections: readonly EventKey[],
  exceptId: string | null,
): SubscriptionOverlap | null {
  const target = normalisedTargetUrl(url);
  for (const other of subscriptions) {
    if (other.subscriptionId === exceptId || normalisedTargetUrl(other.url) !== target) continue;
    for (const selection of selections) {
      const taken = other.selections.find((held) => eventKeysOverlap(held, selection));
      if (taken) {
        return {
          subscriptionId: other.subscriptionId,
          url: other.url,
          entity: selection.Entity,
          eventType: selection.EventType,
          otherEventType: taken.EventType,
        };
      }
    }
  }
  return null;
}

/** Two selections of one body covering the same events: their indexes, or null. */
export function findRepeatedSelection(selections: readonly EventKey[]): [number, number] | null {
  for (let i = 0; i < selections.length; i++) {
    for (let j = i + 1; j < selections.length; j++) {
      if (eventKeysOverlap(selections[i], selections[j])) return [i, j];
    }
  }
  return null;
}

/**
 * A client's subscriptions as one stored list, changed in memory under the client's lease
 * and saved whole when something changed (`changed`).
 */
export class SubscriptionList {
  private changedFlag = false;

  constructor(private readonly items: EventSubscription[]) {}

  get all(): readonly EventSubscription[] {
    return this.items;
  }

  get changed(): boolean {
    return this.changedFlag;
  }

  find(subscriptionId: string): EventSubscription | undefined {
    return this.items.find((item) => item.subscriptionId === subscriptionId);
  }

  add(subscription: EventSubscription): void {
    this.items.push(subscription);
    this.changedFlag = true;
  }

  /** Puts `subscription` in place of the one with its id. */
  replace(subscription: EventSubscription): void {
    const index = this.items.findIndex(
      (item) => item.subscriptionId === subscription.subscriptionId,
    );
    if (index < 0) throw new Error(`No subscription ${subscription.subscriptionId} to replace`);
    this.items[index] = subscription;
    this.changedFlag = true;
  }

  /** Removes the subscription; false when there was none. */
  remove(subscriptionId: string): boolean {
    const index = this.items.findIndex((item) => item.subscriptionId === subscriptionId);
    if (index < 0) return false;
    this.items.splice(index, 1);
    this.changedFlag = true;
    return true;
  }
}

/** The fields that start a new handshake (a new Url, Validate): Pending under a new nonce. */
export function pendingHandshake(): Pick<
  EventSubscription,
  'validationStatus' | 'validationFailure' | 'validatedAt' | 'validationNonce'
> {
  return {
    validationStatus: 'Pending',
    validationFailure: null,
    validatedAt: null,
    validationNonce: newValidationNonce(),
  };
}

/** The 409's message: the Url and the event already subscribed to there. */
export function overlapMessage(overlap: SubscriptionOverlap): string {
  const other =
    overlap.otherEventType === overlap.eventType
      ? ''
      : ` (as EventType "${overlap.otherEventType}")`;
  return `Url "${overlap.url}" already receives EventType "${overlap.eventType}" of Entity "${overlap.entity}" through subscription ${overlap.subscriptionId}${other}; a Url takes each event once`;
}

/** The 404 of an unknown subscription id (another client's ones alike). */
export function subscriptionNotFound(subscriptionId: string): string {
  return `Event subscription ${JSON.stringify(subscriptionId)} was not found`;
}
