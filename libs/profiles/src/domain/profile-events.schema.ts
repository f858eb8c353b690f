import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { ProfileEvent } from './profile-events';

/**
 * The events of one applied write of a profile (`profile_events`, `_id`
 * `<clientId>|<profileId>|e<seq>`): written by the worker before the profile's save, found
 * through the profile's `eventLog` (saved with it), so the events of a write not saved are
 * never read. Every command is by `_id`.
 */
@Schema({ collection: 'profile_events', versionKey: false })
export class ProfileEventsDoc {
  @Prop({ type: String }) _id: TenantKey;
  /**
   * The write's events as one JSON text: the engine stores and returns a string without
   * converting each field, and nothing queries inside it (as history pages do).
   */
  @Prop({ type: String, required: true }) events: string;
}
export const ProfileEventsDocSchema = SchemaFactory.createForClass(ProfileEventsDoc);
// No secondary index: read and written by `_id` only.

export function encodeProfileEvents(events: ProfileEvent[]): string {
  return JSON.stringify(events);
}

export function decodeProfileEvents(doc: ProfileEventsDoc | null | undefined): ProfileEvent[] {
  return doc ? (JSON.parse(doc.events) as ProfileEvent[]) : [];
}
