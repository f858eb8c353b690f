import type { ProfileEvent } from '../domain/profile-events';

/**
 * What hears of a profile's events once they are saved (Events' delivery trigger): called
 * by the worker right after the profile's save, before its publication, with the saved
 * write's events. A worker that dies before the call leaves the write's job to be retried;
 * the retry finds the write applied and calls it again (`ApplyProfileWritesHandler`), so a
 * listener may hear of the same events twice and must not act twice on them.
 */
export interface ProfileEventListener {
  eventsSaved(clientId: string, profileId: number, events: ProfileEvent[]): Promise<void>;
  /**
   * The same for many profiles of one client saved together (a bulk import's new
   * profiles), when the listener can take them at once; else `eventsSaved` for each.
   */
  eventsSavedMany?(
    clientId: string,
    saved: { profileId: number; events: ProfileEvent[] }[],
  ): Promise<void>;
}

/** Injection token: the event listeners the app composed (ProfilesWorkerModule.register). */
export const PROFILE_EVENT_LISTENERS = Symbol('PROFILE_EVENT_LISTENERS');
