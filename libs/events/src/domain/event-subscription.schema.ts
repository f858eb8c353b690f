import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type {
  DeliveryFormat,
  EventSelection,
  EventSubscription,
  SubscriptionState,
  ValidationStatus,
} from './event-subscription';
import type { EventEntity, SubscribedEventType } from './event-types';

/*
 * Storage: ONE document per client (`event_subscriptions`, `_id` = the client id) holding
 * all its subscriptions as an array. Chosen over a document per subscription because every
 * route and the handshake can then address it by `_id` alone (the embedded engine pushes
 * down nothing else), the list is one read, and the checks that look at all of a client's
 * subscriptions (EVENTS_MAX_SUBSCRIPTIONS, the 409 for a URL subscribed twice) see them in
 * the same read they change. The document stays small: at most EVENTS_MAX_SUBSCRIPTIONS
 * subscriptions of at most 50 selections. Writers (api requests, the worker's handshake
 * outcome) read, change and replace it under the client's Redis lease (SubscriptionStore).
 */

/** Optional string lists stay absent (Mongoose would default an array to []: "none"). */
const OPTIONAL_LIST = { type: [String], default: undefined } as const;

@Schema({ _id: false })
export class StoredEventSelection implements EventSelection {
  @Prop({ type: String, required: true }) Entity: EventEntity;
  @Prop({ type: String, required: true }) EventType: SubscribedEventType;
  @Prop(OPTIONAL_LIST) Filters?: string[];
  @Prop(OPTIONAL_LIST) ConsentTypes?: string[];
  @Prop(OPTIONAL_LIST) ContactTypes?: string[];
  @Prop(OPTIONAL_LIST) Groups?: string[];
  @Prop(OPTIONAL_LIST) CustomFields?: string[];
}
const StoredEventSelectionSchema = SchemaFactory.createForClass(StoredEventSelection);

@Schema({ _id: false, minimize: false })
export class StoredEventSubscription implements EventSubscription {
  @Prop({ required: true }) subscriptionId: string;
  @Prop({ required: true }) name: string;
  @Prop({ type: String, default: null }) description: string | null;
  @Prop({ type: String, default: null }) localeId: string | null;
  @Prop({ required: true }) url: string;
  @Prop({ type: [StoredEventSelectionSchema], required: true }) selections: StoredEventSelection[];
  @Prop({ type: String, required: true }) state: SubscriptionState;
  @Prop({ required: true }) excludeData: boolean;
  @Prop({ required: true }) deliverPausedEvents: boolean;
  @Prop({ type: String, default: null }) alternateIdType: string | null;
  /** Absent on subscriptions stored before it existed: Standard. */
  @Prop({ type: String }) deliveryFormat?: DeliveryFormat;
  /** Needed to sign deliveries; never answered by a GET. */
  @Prop({ required: true }) secret: string;
  @Prop({ type: String, default: null }) previousSecret: string | null;
  @Prop({ type: Date, default: null }) previousSecretUntil: Date | null;
  @Prop({ type: String, required: true }) validationStatus: ValidationStatus;
  @Prop({ type: String, default: null }) validationFailure: string | null;
  @Prop({ type: Date, default: null }) validatedAt: Date | null;
  @Prop({ required: true }) validationNonce: string;
  @Prop({ type: Date, default: null }) pausedSince: Date | null;
  @Prop({ type: Date, default: null }) activeSince?: Date | null;
  @Prop({ type: String, default: null }) pausedReason: string | null;
  @Prop({ required: true }) createdAt: Date;
  @Prop({ required: true }) createdBy: string;
  @Prop({ required: true }) modifiedAt: Date;
  @Prop({ required: true }) modifiedBy: string;
}
const StoredEventSubscriptionSchema = SchemaFactory.createForClass(StoredEventSubscription);

/** A client's subscriptions (see above). */
@Schema({ collection: 'event_subscriptions', versionKey: false, minimize: false })
export class ClientEventSubscriptions {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ type: [StoredEventSubscriptionSchema], required: true })
  subscriptions: StoredEventSubscription[];
}
export const ClientEventSubscriptionsSchema =
  SchemaFactory.createForClass(ClientEventSubscriptions);
