import type { ProfileData } from '../domain/profile-data.schema';
import type { ProfileEvent } from '../domain/profile-events';
import type { ProfileWriteKind } from '../domain/profile-write.schema';
import type { Profile } from '../domain/profile.schema';

/** The write being applied, as an extension sees it. */
export interface AppliedWrite {
  clientId: string;
  profileId: number;
  seq: number;
  /** Absent for a bulk import's records (each a create). */
  kind?: ProfileWriteKind;
  /** A merge's `absorb` that applies (not a no-op): the profile it absorbs. */
  absorbedProfileId?: number;
}

/** One write's transition of the profile's data, handed to `beforeSave`. */
export interface WriteTransition {
  write: AppliedWrite;
  /** The data before the write (consents under their current names); absent for a create. */
  before?: ProfileData;
  after?: ProfileData;
}

/** One applied write of a pass as `prepare` sees it. */
export interface CountedStep {
  write: { kind: ProfileWriteKind; seq: number; acceptedAt: Date };
  /** The profile before the write (consents under their current names) and after it. */
  before: Profile;
  after: Profile;
}

/** A profile as saved, with the events its save stored (none for a heal with no events). */
export interface SavedProfile {
  profile: Profile;
  events: ProfileEvent[];
}

/**
 * What another module does inside the apply of Profiles' writes (the reports' counts, the
 * consents' follow-up writes and confirmation requests, the events' delivery trigger and
 * erasure cleanup), in one port whose every phase is optional. Every source of writes
 * calls the same phases: the worker's pass with a batch of one profile, the bulk import's
 * fast path with the new profiles of one client at once. In the order they run:
 *
 * - `load`: when a job loads its profile; reads it with `read`, and what the extension
 *   holds of it in the same turn (the counts' marks);
 * - `prepare`: pure, the profile to save after a pass from `start` through `steps` to `end`
 *   (what rides on it: the counts' change);
 * - `beforeSave`: each applied write's transition, before the save that commits it (in the
 *   worker, while the pass folds, write by write: a non-refusal error ends the pass before
 *   that write; in the import, once its profiles are saved, as a resumed batch runs it
 *   again). What it queues behind the write survives a death after the save; a retry of
 *   the same write calls it again: it must not act twice;
 * - `beforeCommit`: right before the profiles' save, beside the Redis preparations; a
 *   failure stops the save (the counts of a tombstone, which carries none);
 * - `afterSave`: right after the save, before the publication, with each profile's saved
 *   events; also on the "nothing to apply" heal path and for a resumed import batch, so it
 *   may see the same save twice and must act once. A failure is left to a job of the
 *   profile of its own (its heal path calls it again); an extension whose misses the
 *   profile's next write makes up (the delivery trigger) catches its own errors;
 * - `erased`: while the worker applies an erasure, before the tombstone's save, so a
 *   crash before the save calls it again (the erasure is retried until it is saved, never
 *   given up: docs/data-subject.md); must be idempotent, an error fails the attempt.
 */
export interface ProfileExtension {
  load?(
    clientId: string,
    profileId: number,
    read: () => Promise<Profile | null>,
  ): Promise<Profile | null>;
  prepare?(start: Profile, end: Profile, steps: CountedStep[]): Profile;
  beforeSave?(clientId: string, writes: WriteTransition[]): Promise<unknown>;
  beforeCommit?(clientId: string, profiles: Profile[]): Promise<void>;
  afterSave?(clientId: string, saved: SavedProfile[]): Promise<void>;
  erased?(clientId: string, profileId: number): Promise<void>;
}

/** Injection token: the extensions the app composed, in order (ProfilesWorkerModule.register). */
export const PROFILE_EXTENSIONS = Symbol('PROFILE_EXTENSIONS');
