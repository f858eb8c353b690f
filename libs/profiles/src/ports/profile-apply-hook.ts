import type { ProfileData } from '../domain/profile-data.schema';
import type { ProfileWriteKind } from '../domain/profile-write.schema';

/** The write being applied, as an apply hook sees it. */
export interface AppliedWrite {
  clientId: string;
  profileId: number;
  seq: number;
  /** Absent for a bulk import's records (each a create). */
  kind?: ProfileWriteKind;
  /** A merge's `absorb` that applies (not a no-op): the profile it absorbs. */
  absorbedProfileId?: number;
}

/**
 * The asynchronous side of a rule module in the worker's apply step (the port's other
 * half, next to ProfileRuleModule): called after a write's transition and before the
 * profile's save, so what it queues behind write `seq` survives a death after the save.
 * A retry of the same write calls it again: it must not queue twice.
 */
export interface ProfileApplyHook {
  beforeSave(
    write: AppliedWrite,
    before: ProfileData | undefined,
    after: ProfileData | undefined,
  ): Promise<unknown>;
  /**
   * Optional: beforeSave for many writes of one client at once (a bulk import's new
   * profiles), with what they share read once; without it, beforeSave is called per write.
   */
  beforeSaveMany?(
    clientId: string,
    items: { write: AppliedWrite; before?: ProfileData; after?: ProfileData }[],
  ): Promise<unknown>;
}

/** Injection token: the apply hooks the app composed (ProfilesWorkerModule.register). */
export const PROFILE_APPLY_HOOKS = Symbol('PROFILE_APPLY_HOOKS');
