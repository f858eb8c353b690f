import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { EventLog } from './profile-event-log';
import { ProfileData, ProfileDataSchema } from './profile-data.schema';
import type { ImportRecordRef } from './profile-write.schema';

/** `merged`: absorbed by another profile (docs/profile-merge.md); its data is kept, it answers 404. */
export type ProfileState = 'pending' | 'active' | 'deleted' | 'merged';

/**
 * What one pass changed in the counts of its client (the reports): counter keys and their
 * change, and per UTC day (`YYYY-MM-DD`) the events it counted. `from`: the appliedSeq the
 * pass started at; `to`: the one it saved. Counter keys are configuration names and numbers
 * only, never personal data.
 */
export interface CountDelta {
  from: number;
  to: number;
  counts?: Record<string, number>;
  daily?: Record<string, Record<string, number>>;
}

@Schema({ _id: false })
export class LastWriteFailure {
  @Prop() seq: number;
  @Prop() reason: string;
  @Prop() at: Date;
}

/**
 * One profile of one client. `_id` is `<clientId>|<profileId>`: inserting it is how a
 * profile id is claimed, so two creates can never get the same id. The document is
 * created as a `pending` shell when a create is accepted, and `appliedSeq` says which
 * accepted writes (profile_writes) it already holds. A deleted profile stays as a
 * `deleted` tombstone without data, so its id is never handed out again.
 */
/** The last history page's count as a pass saved it (Profile.historyTail). */
export interface HistoryTail {
  /** The write whose pass left the page so (the profile's appliedSeq then). */
  seq: number;
  entries: number;
}

@Schema({ collection: 'profiles', versionKey: false, timestamps: true })
export class Profile {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) profileId: number;
  @Prop({ required: true, default: 'pending' }) state: ProfileState;
  /** Sequence number of the last write applied (0: none yet). */
  @Prop({ required: true, default: 0 }) appliedSeq: number;
  @Prop({ type: ProfileDataSchema }) data?: ProfileData;
  @Prop({ type: SchemaFactory.createForClass(LastWriteFailure) }) lastFailure?: LastWriteFailure;
  /** When a consent or preference of the profile is next due to expire (see nextExpiry). */
  @Prop({ type: Date }) nextExpiryAt?: Date;
  /**
   * How many history pages (profile_history `<client>|<profile>|p<k>`) the profile counts:
   * saved with the write that filled them, so a page is visible once its write is applied.
   */
  @Prop() historyPages?: number;
  /**
   * How many entries the last counted history page holds (`entries`), as the pass that
   * applied write `seq` left it, saved with historyPages: the next pass appends after them
   * by position, without reading the page. Trusted only while `seq` is the profile's
   * appliedSeq: a save that moved appliedSeq without counting (a write given up, a worker
   * of an older version during a rolling deploy) leaves it stale, and the page is then read,
   * as for profiles saved before it was kept.
   */
  @Prop({ type: Object }) historyTail?: HistoryTail;
  /**
   * The hash of the profile's last chained history entry (consents and preferences:
   * domain/history-chain.ts), saved with the write that recorded it like historyPages: the
   * next write links to it without reading a page, and verification compares the stored
   * chain's end with it (an entry cut off the end is found).
   */
  @Prop() historyChainHead?: string;
  /**
   * `{seq, at}` of the profile's writes whose events are kept (profile_events
   * `<client>|<profile>|e<seq>`): saved with the write that recorded them, so a write's
   * events are readable once it is applied (domain/profile-event-log.ts).
   */
  @Prop({ type: [Object], default: undefined }) eventLog?: EventLog;
  /**
   * Which history entry last changed each item (the profile's own fields, contact elements,
   * preferences, consents), as JSON text (domain/history-refs.ts): saved with every write,
   * read by contact decisions without reading history. Absent on profiles saved before it.
   */
  @Prop() historyRefs?: string;
  /**
   * The last record of each recent bulk import applied to the profile (IMPORT_MARKS_KEPT at
   * most): a record accepted twice around a worker's crash is applied once (import-marks.ts).
   */
  @Prop({ type: [Object], default: undefined }) importMarks?: ImportRecordRef[];
  /**
   * What the passes saved since the reports last counted this profile changed in its
   * client's counts (ports/profile-counts.port.ts): counted once after the save, by
   * sequence number, so a crash between the save and the count is healed by the next job.
   */
  @Prop({ type: [Object], default: undefined }) countDeltas?: CountDelta[];
  /** A merged profile: the survivor that absorbed it (set by its `merged-into` write). */
  @Prop() mergedInto?: number;
  /** A survivor: the profiles it absorbed, in order (set by its `absorb` writes). */
  @Prop({ type: [Number], default: undefined }) absorbed?: number[];
  /** Set by the schema's timestamps: when the shell was inserted (its id claimed). */
  createdAt?: Date;
  /** When the document was last saved (the shell's insert, then every save of the worker). */
  updatedAt?: Date;
}

export const ProfileSchema = SchemaFactory.createForClass(Profile);
// No secondary index. Profiles are read and saved by `_id`; searches, tag counts, group
// members and the jobs' holder lookups go through the search key index in Redis
// (search-index/), and due expiries through the ExpiryIndex. Only while a lost key index is
// rebuilt do searches filter this collection (the fallback in SearchCandidates). On the
// embedded engine every declared index is a SQLite expression index that each save must
// update and no query uses, so none is declared.

/** Highest profile id handed out per client: a hint for the next claim, not a counter. */
@Schema({ collection: 'profile_id_hints', versionKey: false })
export class ProfileIdHint {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) last: number;
}
export const ProfileIdHintSchema = SchemaFactory.createForClass(ProfileIdHint);
