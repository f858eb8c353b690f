import type { EventSelection, EventSubscription } from '../domain/event-subscription';
import { FILTER_KIND_NAMES } from '../domain/event-types';
import type { EventSelectionDto, EventSubscriptionDto } from '../dto/event-subscription.dto';

/**
 * A stored subscription → the wire shape. The secret is never part of it: only create and
 * rotation add it (`withSecret`), once.
 */
export function toEventSubscriptionDto(
  subscription: EventSubscription,
  options: { withSecret?: boolean; deleted?: boolean } = {},
): EventSubscriptionDto {
  return {
    SubscriptionId: subscription.subscriptionId,
    Name: subscription.name,
    Description: subscription.description,
    LocaleID: subscription.localeId,
    Url: subscription.url,
    Subscriptions: subscription.selections.map(toEventSelectionDto),
    State: subscription.state,
    IsActive: !options.deleted,
    ExcludeData: subscription.excludeData,
    DeliverPausedEvents: subscription.deliverPausedEvents,
    AlternateIdType: subscription.alternateIdType,
    DeliveryFormat: subscription.deliveryFormat ?? 'Standard',
    ValidationStatus: subscription.validationStatus,
    ValidationFailure: subscription.validationFailure,
    ValidatedAt: subscription.validatedAt ? subscription.validatedAt.toISOString() : null,
    Created: subscription.createdAt.toISOString(),
    Modified: subscription.modifiedAt.toISOString(),
    PausedReason: subscription.pausedReason,
    ...(options.withSecret ? { Secret: subscription.secret } : {}),
  };
}

/** A selection: Entity, EventType and only the lists it has (absent: all). */
function toEventSelectionDto(selection: EventSelection): EventSelectionDto {
  const dto: EventSelectionDto = { Entity: selection.Entity, EventType: selection.EventType };
  for (const kind of FILTER_KIND_NAMES) {
    const values = selection[kind];
    if (values) dto[kind] = [...values];
  }
  return dto;
}
