import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Where one subscription's deliveries of one profile's events stand
 * (`<clientId>|<subscriptionId>|<profileId>`): the last event delivered or passed over
 * (seq, n), and the failed attempts at the next one. Written by the worker under the
 * delivery lease of that pair, by `_id`; the events after it are read from the profile's
 * events (docs/events.md, "Deliveries").
 */
@Schema({ collection: 'event_delivery_cursors', versionKey: false })
export class DeliveryCursor {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) seq: number;
  @Prop({ required: true }) n: number;
  /** Failed attempts at the event after (seq, n). */
  @Prop({ required: true, default: 0 }) attempts: number;
  @Prop({ type: String, default: null }) lastError: string | null;
  /** When the failed event is tried again (its job is queued with that delay). */
  @Prop({ type: Date, default: null }) retryAt: Date | null;
}
export const DeliveryCursorSchema = SchemaFactory.createForClass(DeliveryCursor);

/** A delivery given up after its last attempt: kept for the API and a manual redelivery. */
export interface DeadLetter {
  /** The event's wire id (`<ProfileId>-<seq>-<n>`). */
  eventId: string;
  eventType: string;
  profileId: number;
  attempts: number;
  lastError: string;
  deadAt: string;
  /** The body that was sent (signed again when redelivered). */
  body: string;
  /** Its Content-Type (absent on letters kept before CloudEvents: application/json). */
  contentType?: string;
}

/** The most dead letters a subscription keeps (the oldest go first). */
export const DEAD_LETTERS_KEPT = 1000;

/**
 * A subscription's dead letters (`<clientId>|<subscriptionId>|dead`), each as its JSON
 * text, oldest first. Written under the subscription's dead-letter lease, by `_id`.
 */
@Schema({ collection: 'event_dead_letters', versionKey: false })
export class DeadLetterList {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: [String], default: [] }) entries: string[];
}
export const DeadLetterListSchema = SchemaFactory.createForClass(DeadLetterList);
