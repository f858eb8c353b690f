import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** What a history entry is about (one query per category). */
export type HistoryCategory = 'standard' | 'customField' | 'contact' | 'preference' | 'consent';

export type ContactList = 'Emails' | 'PhoneNumbers' | 'Addresses';

/**
 * The contact element a preference or consent belongs to, by the fields that identify it
 * on the wire (as they were after the write). Absent on an entry: the item is the
 * profile's own (ProfilePreferences, profile-level Consents).
 */
export interface HistoryContainer {
  list: ContactList;
  fields: Record<string, unknown>;
}

/**
 * One changed item of one applied write: the item as it was after the write (a removed
 * item as its last state with IsActive false). `_id` is
 * `<clientId>|<profileId>|<seq>|<n>` (n: the entry's index within the write), so
 * recording a write again rewrites the same documents. Entries are only read up to the
 * profile's appliedSeq: those of a write not (yet) saved are invisible.
 */
@Schema({ collection: 'profile_history', versionKey: false })
export class ProfileHistory {
  @Prop({ type: String }) _id: string;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) profileId: number;
  /** Sequence number of the write (profile_writes) that made the change. */
  @Prop({ required: true }) seq: number;
  @Prop({ required: true }) n: number;
  @Prop({ required: true, type: String }) category: HistoryCategory;
  /** The write's acceptance time (ISO 8601): what the item's Edited.ModifiedDate says. */
  @Prop({ required: true }) modifiedAt: string;
  /**
   * The profile list holding the item: CustomFields, Emails, PhoneNumbers, Addresses,
   * ProfilePreferences, EmailPreferences, PhonePreferences, AddressPreferences or Consents;
   * absent for standard fields.
   */
  @Prop() list?: string;
  @Prop({ type: Object }) container?: HistoryContainer;
  /** A preference's FilterId, normalised (normText): what the filterId query compares. */
  @Prop() filterKey?: string;
  /** The item's stored fields after the write (contacts without their nested lists). */
  @Prop({ type: Object, required: true }) snapshot: Record<string, unknown>;
}

export const ProfileHistorySchema = SchemaFactory.createForClass(ProfileHistory);
// Serves: one category of a profile's history up to its appliedSeq (history queries); its
// clientId+profileId prefix serves erasing a deleted profile's history and a failed
// write's entries.
ProfileHistorySchema.index({ clientId: 1, profileId: 1, category: 1, seq: 1 });
