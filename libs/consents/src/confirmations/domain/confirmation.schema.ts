import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** Where a confirmation stands (docs/double-opt-in.md, "States"). */
export type ConfirmationState = 'Pending' | 'Confirmed' | 'Expired' | 'Cancelled';

/** Where its message stands. */
export type ConfirmationMailState = 'Queued' | 'Sent' | 'Failed';

@Schema({ _id: false })
export class StoredConfirmationMail {
  @Prop({ type: String, required: true }) State: ConfirmationMailState;
  @Prop({ type: Number, default: 0 }) Attempts: number;
  @Prop({ type: String }) SentDate?: string;
  @Prop({ type: String }) LastError?: string;
  /** How many times the message was asked for again (each one a new Message-ID). */
  @Prop({ type: Number }) Resends?: number;
}
const ConfirmationMailSchema = SchemaFactory.createForClass(StoredConfirmationMail);

@Schema({ _id: false })
export class StoredConfirmationRequest {
  @Prop({ type: String }) IpAddress?: string;
  @Prop({ type: String }) UserAgent?: string;
}
const ConfirmationRequestSchema = SchemaFactory.createForClass(StoredConfirmationRequest);

/** The preference an opt-in confirmation is about (its key fields, as stored). */
@Schema({ _id: false })
export class StoredConfirmationPreference {
  @Prop({ type: String, required: true }) ProgramId: string;
  @Prop({ type: String, required: true }) ChannelId: string;
  @Prop({ type: String, required: true }) FilterId: string;
}
const ConfirmationPreferenceSchema = SchemaFactory.createForClass(StoredConfirmationPreference);

/**
 * One double opt-in confirmation: `_id` confirmationKey(client, profile, id). It confirms a
 * consent's grant (ConsentType) or a program's opt-in (Preference). Inserted by
 * the worker's apply extension with the write that held the grant (the same `_id` on a retry),
 * read and updated by `_id` only.
 */
@Schema({ collection: 'consent_confirmations', versionKey: false })
export class StoredConfirmation {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: String, required: true }) clientId: string;
  @Prop({ type: Number, required: true }) profileId: number;
  @Prop({ type: String, required: true }) confirmationId: string;
  @Prop({ type: String, required: true }) EmailAddress: string;
  /** The consent type of a grant's confirmation; absent on an opt-in's. */
  @Prop({ type: String }) ConsentType?: string;
  /** The preference of an opt-in's confirmation; absent on a grant's. */
  @Prop({ type: ConfirmationPreferenceSchema }) Preference?: StoredConfirmationPreference;
  @Prop({ type: String }) ConsentVersion?: string;
  @Prop({ type: String }) Locale?: string;
  @Prop({ type: String, required: true }) State: ConfirmationState;
  @Prop({ type: String, required: true }) RequestedDate: string;
  @Prop({ type: String, required: true }) ExpiresDate: string;
  @Prop({ type: String }) ConfirmedDate?: string;
  @Prop({ type: String }) ClosedDate?: string;
  /** The confirming request (evidence), once confirmed. */
  @Prop({ type: ConfirmationRequestSchema }) Request?: StoredConfirmationRequest;
  @Prop({ type: ConfirmationMailSchema, required: true }) Mail: StoredConfirmationMail;
  /** Why it was closed when the reason is not its state's own (a merge cancelled it). */
  @Prop({ type: String }) ClosedReason?: string;
  /**
   * A merge's survivor took it over (docs/double-opt-in.md, "Merges"): this profile's
   * record only points there (its link, which names this profile, reads the survivor's).
   */
  @Prop({ type: Number }) MovedTo?: number;
  /** On the survivor's record: the absorbed profile it was taken over from. */
  @Prop({ type: Number }) MergedFrom?: number;
}
export const ConfirmationSchema = SchemaFactory.createForClass(StoredConfirmation);
// No secondary index: by `_id` only.

/** The confirmations of one profile, newest last (at most CONFIRMATIONS_LISTED). */
@Schema({ collection: 'consent_confirmation_lists', versionKey: false })
export class StoredConfirmationList {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: String, required: true }) clientId: string;
  @Prop({ type: [String], default: [] }) ids: string[];
}
export const ConfirmationListSchema = SchemaFactory.createForClass(StoredConfirmationList);

/** How many confirmations a profile's list keeps (older ones are dropped with the list). */
export const CONFIRMATIONS_LISTED = 20;

/**
 * A message to send: `_id` confirmationKey(client, profile, id), inserted with its
 * confirmation, deleted once sent or given up (so the collection holds only what is
 * owed). `sentAt` is the send marker: set right after the SMTP server accepted the
 * message, so a retry after a death does not send it again.
 */
@Schema({ collection: 'confirmation_outbox', versionKey: false })
export class ConfirmationOutboxDoc {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: String, required: true }) clientId: string;
  @Prop({ type: Number, required: true }) profileId: number;
  @Prop({ type: String, required: true }) confirmationId: string;
  @Prop({ type: Date, required: true }) createdAt: Date;
  @Prop({ type: Number, default: 0 }) attempts: number;
  /** Not before this instant (the backoff after a failed attempt). */
  @Prop({ type: Date, required: true }) dueAt: Date;
  @Prop({ type: Date }) sentAt?: Date;
}
export const ConfirmationOutboxSchema = SchemaFactory.createForClass(ConfirmationOutboxDoc);
// No secondary index: by `_id`, and the outbox sweep reads the whole (small) collection.
