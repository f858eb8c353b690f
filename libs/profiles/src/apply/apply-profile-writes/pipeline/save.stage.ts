import { Inject, Injectable, Logger } from '@nestjs/common';
import { CRASH_POINTS, CrashPoints, LeaseService } from '@app/shared';
import type { ProfileEvent } from '../../../domain/profile-events';
import type { Profile } from '../../../domain/profile.schema';
import { ExpiryIndex } from '../../../intake/expiry/expiry-index.service';
import { ProfileReadModel } from '../../../read/profile-read-model.service';
import { ProfileRepository } from '../../../persistence/profile.repository';
import { ProfileKeyIndex } from '../../../read/search/profile-key-index.service';
import { ProfileEventNotifier } from '../../profile-event-notifier.service';
import { RecentSaves } from '../../../read/redis-loss/recent-saves';
import { PROFILE_COUNTS, type ProfileCounts } from '../../../ports/profile-counts.port';
import { type LeaseHold, LeaseLostError } from './lease-hold';

/**
 * The profile lease's time to live; renewed while the work runs (every third of it) and
 * before each save. Short because after Redis lost its data no lease is granted for a TTL
 * (LeaseService: a holder from before may still work), and accepted writes must be applied
 * within 10 s of Redis coming back (docs/scaling.md); a save stalled past it is healed
 * (healLateSave).
 */
export const LEASE_TTL_MS = 6000;

/**
 * Stages 5 and 6, save and publish: one whole-document replace by `_id` per pass (the
 * lease makes the worker the profile's only writer). Derived data in Redis is prepared
 * before the save so that a crash never leaves a saved profile unseen by it (the read
 * model marked dirty, the expiry index holding its due time, the search keys added), and
 * completed after it: the event listeners told, the profile published to the read model.
 */
@Injectable()
export class SaveStage {
  private readonly logger = new Logger('ApplyProfileWrites');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly lease: LeaseService,
    private readonly readModel: ProfileReadModel,
    private readonly expiryIndex: ExpiryIndex,
    private readonly keyIndex: ProfileKeyIndex,
    private readonly eventNotifier: ProfileEventNotifier,
    private readonly crashPoints: CrashPoints,
    private readonly recentSaves: RecentSaves,
    @Inject(PROFILE_COUNTS) private readonly counts: ProfileCounts,
  ) {}

  /**
   * Saves the pass's profile; answers the highest accepted sequence number its publication
   * read (null: none recorded; undefined: not published).
   *
   * The Redis commands before the save (search keys added, expiry entry, dirty mark) are
   * independent of one another and all precede the save: they are sent in one turn of the
   * event loop (one socket write on the shared connection), with the lease renewal on the
   * queue's connection beside them. Likewise after the save, once the listeners were told:
   * the publication and the index removals go out together.
   */
  async save(
    hold: LeaseHold,
    before: Profile,
    profile: Profile,
    events: ProfileEvent[] = [],
  ): Promise<number | null | undefined> {
    const prepared = await Promise.allSettled([
      this.keyIndex.beforeSave(before, profile),
      this.expiryIndex.beforeSave(profile),
      this.readModel.markDirty(profile.clientId, profile.profileId, profile.appliedSeq),
      // The embedded engine has no conditional write by `_id`, so the lease cannot fence the
      // save itself: renewing it right before refuses the save of a holder whose lease lapsed
      // (a stall past LEASE_TTL_MS). A stall between this renewal and the save is caught when
      // the job next renews or releases the lease (ApplyProfileWritesHandler.healLateSave).
      this.lease.extend(hold.name, hold.token, LEASE_TTL_MS),
      // Reports: a tombstone carries no counts, so its pass is counted before the save.
      this.counts.beforeSave(profile),
    ]);
    // Any failure stops the save, as each step did when they ran one after the other.
    for (const outcome of prepared) if (outcome.status === 'rejected') throw outcome.reason;
    if (!(prepared[3] as PromiseFulfilledResult<boolean>).value) {
      throw new LeaseLostError(`the lease of ${profile._id} was lost before its save`);
    }
    await this.crashPoints.at(CRASH_POINTS.applyBeforeSave);
    await this.profiles.replace(profile);
    hold.saves++;
    await this.crashPoints.at(CRASH_POINTS.applyAfterSave);
    // Before the publication: a job retried after a death here finds the read model behind
    // and goes through the handler's "nothing to apply" path, which tells the listeners
    // again (savedAgain).
    await this.eventNotifier.saved(profile.clientId, profile.profileId, events);
    const [accepted] = await Promise.all([
      this.publish(profile),
      this.expiryIndex.afterSave(before, profile),
      this.keyIndex.afterSave(before, profile),
      // Reports: the pass's counts (a failure leaves them to a job of their own).
      this.countAfterSave(hold, profile),
    ]);
    return accepted;
  }

  /**
   * Counts what the saved profile carries (the reports); a failure marks the hold, whose job
   * then queues another job of the profile to count it (the change stays on the profile).
   */
  async countAfterSave(hold: LeaseHold, profile: Profile): Promise<void> {
    try {
      await this.counts.afterSave(profile);
    } catch (error) {
      hold.countsLeft = true;
      this.logger.warn(`counts of ${profile._id} left to a job of their own: ${String(error)}`);
    }
  }

  /**
   * A failed publication leaves the dirty mark: readers read the database meanwhile.
   * Answers what the publication read of `acc` (undefined: it failed).
   */
  async publish(profile: Profile): Promise<number | null | undefined> {
    // Remembered for a repair, should a Redis node lose these last moments (a failover).
    this.recentSaves.note(profile.clientId, profile.profileId);
    try {
      return await this.readModel.publish(profile);
    } catch (error) {
      this.logger.warn(`read model of ${profile._id} not published: ${String(error)}`);
      return undefined;
    }
  }
}
