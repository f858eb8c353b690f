import type { TenantKey, TraceCarrier } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { CallerScope } from './profile-view';

/** What a bulk import's Initiate decides for all its records. */
export interface ImportFlags {
  /** Consents older than the stored ones may replace them (AllowPriorConsents). */
  allowPriorConsents: boolean;
}

/**
 * `remove-tag` is the system write of a tag deletion (DELETE /{clientId}/Tags/{tagName});
 * `patch` stores JSON Patch operations (`{"Operations": [...]}`), applied by the worker to
 * the profile as it is when the write's turn comes; `rename-group` is the system write of
 * POST /{clientId}/Groups/{groupType}/Rename (body: domain/group-rename.ts RenameGroupWrite).
 */
export type ProfileWriteKind =
  | 'create'
  | 'merge'
  | 'overwrite'
  | 'patch'
  | 'delete'
  // A data subject's erasure: a delete that leaves nothing and an audit tombstone
  // (POST .../Profile/{profileId}/Erasure; domain/profile-erasure.ts, body EraseWrite).
  | 'erase'
  | 'remove-tag'
  | 'rename-group'
  // PUT /{clientId}/Profile/Preferences/{profileId}/Archive (domain/preference-archive.ts).
  | 'archive-preferences'
  // A do-not-contact list change reaching the profile (domain/do-not-contact.ts).
  | 'dnc-apply'
  // Scheduled consent/preference expiry (domain/consent-expiry.ts, body ExpireWrite).
  | 'expire'
  // A newer consent version published (domain/consent-version-pending.ts).
  | 'consent-version-pending'
  // A consent type renamed: the profile's consents take its current name (domain/current-names.ts).
  | 'rename-consent-type'
  // A held grant confirmed from the person's mailbox (double opt-in; libs/consents confirmations).
  | 'consent-confirm'
  // A pending confirmation past its time to live: its mark cleared (the confirmation-expiry job).
  | 'consent-confirmation-expire'
  // An opt-in held for confirmation, confirmed / past its time to live (libs/preferences).
  | 'preference-confirm'
  | 'preference-confirmation-expire'
  // A profile merge (docs/profile-merge.md): on the absorbed profile, then on the survivor
  // (domain/profile-merge-steps.ts; bodies MergedIntoWrite and AbsorbWrite).
  | 'merged-into'
  | 'absorb';
/**
 * Which record of which bulk import a write carries (a bulk import's records become
 * ordinary writes; see libs/bulk). An import accepts the records that may touch one
 * profile in record order, one after the other (ProfileImportWrites.conflictKeys), so the
 * writes of one import reach a profile in increasing record numbers.
 */
export interface ImportRecordRef {
  accessToken: number;
  /** The record's number in the import, from 1. */
  n: number;
}

/** One attempt of a request sent with an `Idempotency-Key` (its n-th run under that key). */
export interface WriteAttemptRef {
  key: string;
  attempt: number;
  /** The key store's period its records are in (persistence/write-key.repository.ts). */
  bucket: number;
}

export type ProfileWriteStatus = 'pending' | 'applied' | 'failed';

/**
 * An accepted profile write: the database, not Redis, is its record. `_id` is
 * `<clientId>|<profileId>|<seq>`, so a sequence number can be taken only once; the
 * worker applies seq k only after k-1. The last WRITE_RECORDS_KEPT records of a profile
 * are kept (GET .../Updates); the worker deletes older ones as it applies newer writes.
 */
@Schema({ collection: 'profile_writes', versionKey: false })
export class ProfileWrite {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) profileId: number;
  @Prop({ required: true }) seq: number;
  @Prop({ required: true }) kind: ProfileWriteKind;
  /** The validated request body as JSON text (absent vs. empty matters for a merge). */
  @Prop() body?: string;
  @Prop({ required: true }) userId: string;
  /** The writer's user-group scope; absent: unrestricted (see profile-scope.rules). */
  @Prop({ type: Object }) scope?: CallerScope;
  /** The bulk import record this write applies (applied once: domain/import-marks.ts). */
  @Prop({ type: Object }) importRecord?: ImportRecordRef;
  /**
   * Collections a merge replaces whole instead of merging (a bulk import's Refresh* flags):
   * names of PROFILE_COLLECTIONS.
   */
  @Prop({ type: [String], default: undefined }) replace?: string[];
  /**
   * A bulk import's flags that refuse a record against the stored profile (checked at
   * acceptance, and again when applied, against the profile as it is then).
   */
  @Prop({ type: Object, default: undefined }) importFlags?: ImportFlags;
  /**
   * The `Idempotency-Key` attempt that wrote this record: such a write is applied only once
   * its attempt committed (apply/write-fates.service.ts); an attempt that never committed
   * (its request was answered with an error, or its api died first) is voided, not applied.
   */
  @Prop({ type: Object, default: undefined }) idempotency?: WriteAttemptRef;
  /**
   * With tracing on: the context of the span that accepted it, which the worker's apply
   * span links to (the job that applies it may have been queued by another request).
   */
  @Prop({ type: Object, default: undefined }) trace?: TraceCarrier;
  @Prop({ required: true }) acceptedAt: Date;
  /**
   * Stored: 'pending' until the worker refuses the write ('failed'); an applied write is
   * never re-saved (it is applied once its profile's appliedSeq reaches it: statusOf).
   */
  @Prop({ required: true, default: 'pending' }) status: ProfileWriteStatus;
  /** Failed attempts with an unexpected error; at the limit the write is marked failed. */
  @Prop({ required: true, default: 0 }) attempts: number;
  @Prop() appliedAt?: Date;
  @Prop() failureReason?: string;
}

export const ProfileWriteSchema = SchemaFactory.createForClass(ProfileWrite);
// No secondary index: every write is addressed by `_id` from its profile's appliedSeq
// (persistence/profile-write.repository.ts); the sweeper reads pending_profiles instead.
