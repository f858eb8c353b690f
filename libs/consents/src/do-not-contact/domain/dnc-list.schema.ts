import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

export type DncListType = 'Email' | 'Phone';
export const DNC_LIST_TYPES: DncListType[] = ['Email', 'Phone'];

/**
 * A do-not-contact list of one client. `_id` is `<clientId>|<listId>`: inserting it is
 * how a list id is claimed (ids are int32 per client, from 1).
 */
@Schema({ collection: 'dnc_lists', versionKey: false })
export class DncList {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) listId: number;
  @Prop({ required: true }) Name: string;
  @Prop() Description?: string;
  @Prop({ type: String, required: true }) ListType: DncListType;
  @Prop({ required: true }) createdAt: Date;
  @Prop({ required: true }) createdBy: string;
}
export const DncListSchema = SchemaFactory.createForClass(DncList);
// Serves: a client's lists in id order (GET DoNotContactLists) and the next list id.
DncListSchema.index({ clientId: 1, listId: 1 });

export type DncEntryState = 'listed' | 'removed';

/**
 * One value on a list. `_id` is `<clientId>|<listId>|<key>` (key: the lower-cased email or
 * the phone's digits), so a value is on a list at most once. An entry that leaves the list
 * is kept as `removed` until its removal has reached every profile. `propagatedAt` null
 * means the last change still has to be applied to the profiles (the worker's job).
 */
@Schema({ collection: 'dnc_entries', versionKey: false })
export class DncEntry {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) listId: number;
  @Prop({ type: String, required: true }) ListType: DncListType;
  /** As sent. */
  @Prop({ required: true }) Value: string;
  @Prop({ required: true }) key: string;
  @Prop({ type: String, required: true }) state: DncEntryState;
  @Prop() ReasonCode?: string;
  @Prop({ required: true }) changedAt: Date;
  @Prop({ required: true }) changedBy: string;
  /** Bumped by every change, so the job can tell whether what it applied is still current. */
  @Prop({ required: true, default: 1 }) version: number;
  /**
   * Random per change: two changes that raced from the same read both store version + 1
   * (a read-and-replace is not atomic on the embedded engine), and this still tells them
   * apart, so the job never marks the state it did not apply as propagated.
   */
  @Prop({ type: String }) changeId?: string;
  @Prop({ type: Date, default: null }) propagatedAt: Date | null;
  /** Resumption point of a propagation in progress: the last profile id handled. */
  @Prop({ type: Number, default: 0 }) cursor: number;
}
export const DncEntrySchema = SchemaFactory.createForClass(DncEntry);
// Serves: the entries of one list in value order (GET .../Entries, paged by key).
DncEntrySchema.index({ clientId: 1, listId: 1, key: 1 });
// (The lists holding a value a profile write added are probed by `_id`, and the changes not
// yet propagated are listed by DncPendingChange markers: no index serves either.)

/**
 * An entry change not yet applied to the profiles: the propagation job's work list.
 * `_id` is the entry's. Inserted after each change of the entry, removed by the job once
 * the change reached every profile; the job reads the whole collection, which holds only
 * the backlog, so a run costs nothing when nothing changed.
 */
@Schema({ collection: 'dnc_pending_changes', versionKey: false })
export class DncPendingChange {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) changedAt: Date;
}
export const DncPendingChangeSchema = SchemaFactory.createForClass(DncPendingChange);
