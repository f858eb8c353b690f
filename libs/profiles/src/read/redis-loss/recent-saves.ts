import { Injectable } from '@nestjs/common';
import { profileKey } from '../../keys';
import { ProfileSettings } from '../../profile-settings';

/** Profiles kept at most (about 100 B each): past it, the oldest are let go first. */
const MAX_RECENT_SAVES = 200_000;

/** A profile this worker saved. */
export interface SavedProfile {
  clientId: string;
  profileId: number;
}

/**
 * The profiles this worker saved in the last REDIS_REPAIR_WINDOW_MS, in the process: what a
 * Redis node that failed over (or came back from its own files) may have lost of what the
 * worker derived from them in its last moments (search keys, read model, due expiries), since
 * Redis replicates and persists asynchronously. RepairRecentSaves derives it again from the
 * engine. Kept here, not in Redis, because it must survive the very loss it repairs.
 */
@Injectable()
export class RecentSaves {
  private readonly saved = new Map<string, SavedProfile & { at: number }>();

  constructor(private readonly settings: ProfileSettings) {}

  /** After a save (or an import's creation) of the profile. */
  note(clientId: string, profileId: number, now = Date.now()): void {
    if (!this.settings.redisRepairWindowMs) return;
    const key = profileKey(clientId, profileId);
    // Moved to the end, so the map stays in the order of the last saves.
    this.saved.delete(key);
    this.saved.set(key, { clientId, profileId, at: now });
    this.prune(now);
  }

  /** The profiles saved within the window, oldest first. */
  within(now = Date.now()): SavedProfile[] {
    this.prune(now);
    return [...this.saved.values()].map(({ clientId, profileId }) => ({ clientId, profileId }));
  }

  private prune(now: number): void {
    const oldest = now - this.settings.redisRepairWindowMs;
    for (const [key, entry] of this.saved) {
      if (entry.at >= oldest && this.saved.size <= MAX_RECENT_SAVES) return;
      this.saved.delete(key);
    }
  }
}
