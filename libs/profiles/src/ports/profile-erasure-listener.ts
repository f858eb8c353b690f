/**
 * What must forget an erased profile outside Profiles' own collections (Events: the dead
 * letters, delivery cursors and paused-delivery marks of the profile): called by the worker
 * while it applies an erasure, before the profile's save, so a crash before the save calls
 * it again (the erasure is retried until it is saved). Must be idempotent; an error fails
 * the attempt, which is retried (an erasure is never given up: docs/data-subject.md).
 */
export interface ProfileErasureListener {
  profileErased(clientId: string, profileId: number): Promise<void>;
}

/** Injection token: the erasure listeners the app composed (ProfilesWorkerModule.register). */
export const PROFILE_ERASURE_LISTENERS = Symbol('PROFILE_ERASURE_LISTENERS');
