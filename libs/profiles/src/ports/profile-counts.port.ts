import type { ProfileWriteKind } from '../domain/profile-write.schema';
import type { Profile } from '../domain/profile.schema';

/** One applied write of a pass as the counts see it. */
export interface CountedStep {
  write: { kind: ProfileWriteKind; seq: number; acceptedAt: Date };
  /** The profile before the write (consents under their current names) and after it. */
  before: Profile;
  after: Profile;
}

/**
 * The counts a module keeps of every client's profiles (the reports), maintained by the
 * worker's apply step without reading other profiles. Profiles calls it at four places:
 * when a job loads its profile, before a pass's save (`prepare`, pure, and `beforeSave`),
 * after the save (`afterSave`, also on the "nothing to apply" heal path), and for the
 * import fast path's new profiles (`afterSaveMany`). The saved profile carries the pass's
 * change (Profile.countDeltas), so a crash between the save and the count is healed by
 * the profile's next job; the implementation counts each change once, by sequence number.
 */
export interface ProfileCounts {
  /** Reads the profile with `read`, and what the counts already hold of it (in parallel). */
  load(
    clientId: string,
    profileId: number,
    read: () => Promise<Profile | null>,
  ): Promise<Profile | null>;
  /** The profile to save after a pass from `start` through `steps` to `end`. Pure. */
  prepare(start: Profile, end: Profile, steps: CountedStep[]): Profile;
  /** Right before the save: what must be counted before it (a tombstone carries nothing). */
  beforeSave(profile: Profile): Promise<void>;
  /** Right after the save, and on the heal path: what the profile carries, counted once. */
  afterSave(profile: Profile): Promise<void>;
  /** The import fast path's new profiles of one slice, saved: counted once each, together. */
  afterSaveMany(clientId: string, profiles: Profile[]): Promise<void>;
}

/** No counts kept (the api process, tests of Profiles alone). */
export class NoProfileCounts implements ProfileCounts {
  load(_clientId: string, _profileId: number, read: () => Promise<Profile | null>) {
    return read();
  }
  prepare(_start: Profile, end: Profile): Profile {
    return end;
  }
  async beforeSave(): Promise<void> {}
  async afterSave(): Promise<void> {}
  async afterSaveMany(): Promise<void> {}
}

/** Injection token: the counts the app composed (ProfilesWorkerModule.register). */
export const PROFILE_COUNTS = Symbol('PROFILE_COUNTS');
