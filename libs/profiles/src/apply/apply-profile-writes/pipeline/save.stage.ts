import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, CRASH_POINTS, CrashPoints, LeaseService } from '@app/shared';
import { alternateIdKey } from '../../../domain/element-rules';
import type { ProfileEvent } from '../../../domain/profile-events';
import type { Profile } from '../../../domain/profile.schema';
import { ExpiryIndex } from '../../../intake/expiry/expiry-index.service';
import { ProfileReadModel } from '../../../read/profile-read-model.service';
import { ProfileRepository } from '../../../persistence/profile.repository';
import { ProfileKeyIndex } from '../../../read/search/profile-key-index.service';
import { ProfileExtensions } from '../../profile-extensions.service';
import { RecentSaves } from '../../../read/redis-loss/recent-saves';
import {
  AlternateIdClaims,
  type AlternateIdPair,
} from '../../../persistence/alternate-id-claims.service';
import { ProfileWriteIntake } from '../../../intake/profile-write-intake.service';
import { type LeaseHold, LeaseLostError } from './lease-hold';
import type { SavedProfile } from '../../../ports/profile-extension.port';

/**
 * The profile lease's time to live; renewed while the work runs (every third of it) and
 * before each save. Short because after Redis lost its data no lease is granted for a TTL
 * (LeaseService: a holder from before may still work), and accepted writes must be applied
 * within 10 s of Redis coming back (docs/scaling.md); a save stalled past it is healed
 * (healLateSave).
 */
export const LEASE_TTL_MS = 6000;

/** What became of a new profile's insert (SaveStage.insertCreates). */
export type CreateSaveOutcome = 'saved' | 'held' | 'taken';

/**
 * Stages 5 and 6, save and publish, in two save modes. Replace (`save`, the worker's pass):
 * one whole-document replace by `_id` per pass (the lease makes the worker the profile's
 * only writer). Insert (`insertCreates` and what follows it, a bulk import's new profiles
 * of one client at once): one unordered insert for them all under ids reserved for them,
 * the import's claims checked here (its match pair claimed only if free, then its other
 * pairs), then their derived data and one publication for them all. Derived data in Redis is prepared
 * before the save so that a crash never leaves a saved profile unseen by it (the read
 * model marked dirty, the expiry index holding its due time, the search keys added), and
 * completed after it: the extensions' afterSave (the event trigger, the counts), then the
 * profile published to the read model. In insert mode nobody knows the ids before the
 * claims, so the derived data follows the save (a crash is resumed by the import).
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
    private readonly extensions: ProfileExtensions,
    private readonly crashPoints: CrashPoints,
    private readonly recentSaves: RecentSaves,
    private readonly alternateIds: AlternateIdClaims,
    private readonly intake: ProfileWriteIntake,
  ) {}

  /**
   * Saves the pass's profile; answers the highest accepted sequence number its publication
   * read (null: none recorded; undefined: not published).
   *
   * The Redis commands before the save (search keys added, expiry entry, dirty mark) are
   * independent of one another and all precede the save: they are sent in one turn of the
   * event loop (one socket write on the shared connection), with the lease renewal on the
   * queue's connection beside them. Likewise after the save, once the extensions' afterSave
   * ran: the publication and the index removals go out together.
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
      // The extensions' last step before it (the counts of a tombstone, which carries none).
      this.extensions.beforeCommit(profile.clientId, [profile]),
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
    // and goes through the handler's "nothing to apply" path, which calls afterSave again.
    await this.afterSave(hold, [{ profile, events }]);
    const [accepted] = await Promise.all([
      this.publish(profile),
      this.expiryIndex.afterSave(before, profile),
      this.keyIndex.afterSave(before, profile),
    ]);
    return accepted;
  }

  /**
   * The extensions' afterSave (the event trigger, the counts); a failure marks the hold,
   * whose job then queues another job of the profile to call it again (what it needs stays
   * on the profile: its counts' change, its last write's events).
   */
  async afterSave(hold: LeaseHold, saved: SavedProfile[]): Promise<void> {
    try {
      await this.extensions.afterSave(saved[0].profile.clientId, saved);
    } catch (error) {
      hold.afterSaveLeft = true;
      this.logger.warn(
        `afterSave of ${saved.map(({ profile }) => profile._id).join(', ')} left to a job of its own: ${String(error)}`,
      );
    }
  }

  /** afterSave again for a profile saved before (the heal path), its events read back. */
  async afterSaveAgain(hold: LeaseHold, profile: Profile): Promise<void> {
    try {
      await this.extensions.afterSaveAgain(profile.clientId, [profile]);
    } catch (error) {
      hold.afterSaveLeft = true;
      this.logger.warn(`afterSave of ${profile._id} left to a job of its own: ${String(error)}`);
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

  /**
   * Insert mode: new profiles of one client inserted together (one unordered insert), then
   * the claim of each one's match pair `pair`, only if nobody holds it (no claim is read).
   * Per profile: 'saved'; 'taken' when another writer took its id meanwhile; 'held' when
   * its pair has a holder (the caller removes it, `removeCreate`: nobody knew its id yet).
   */
  async insertCreates(
    items: { profile: Profile; pair: AlternateIdPair }[],
  ): Promise<CreateSaveOutcome[]> {
    const inserted = await this.profiles.insertNew(items.map(({ profile }) => profile));
    await this.crashPoints.at(CRASH_POINTS.importCreateAfterSave);
    return Promise.all(
      items.map(async ({ profile, pair }, k): Promise<CreateSaveOutcome> => {
        if (inserted[k] !== 'inserted') return 'taken';
        const claimed = await this.alternateIds.claimIfFree(
          profile.clientId,
          profile.profileId,
          pair,
        );
        return claimed ? 'saved' : 'held';
      }),
    );
  }

  /** The undo of a 'held' insert: the document goes by `_id` (its pages: RecordStage). */
  async removeCreate(profile: Profile): Promise<void> {
    await this.profiles.removeUnclaimed(profile._id);
  }

  /**
   * Insert mode's derived data of saved profiles whose match pair is theirs, for all at
   * once (one pipeline each): search keys and due expiries. One that `claimCreates` then
   * gives up leaves stale keys (its delete removes them; a search checks every candidate).
   */
  async indexCreates(profiles: Profile[]): Promise<void> {
    for (const profile of profiles) this.recentSaves.note(profile.clientId, profile.profileId);
    await this.keyIndex.beforeCreateMany(profiles);
    await this.expiryIndex.add(profiles.filter((profile) => profile.state === 'active'));
  }

  /**
   * Insert mode's other claims, per saved profile (concurrently): its alternate ids but the
   * match pair `claimedPair` already claimed (absent on a resumed import: all of them).
   * False when one is someone else's: its claims are released and the profile goes as a
   * delete would take it (queued), its record the ordinary way.
   */
  async claimCreates(
    items: { profile: Profile; claimedPair?: AlternateIdPair }[],
  ): Promise<boolean[]> {
    return Promise.all(
      items.map(({ profile, claimedPair }) => this.claimRest(profile, claimedPair)),
    );
  }

  private async claimRest(profile: Profile, claimedPair?: AlternateIdPair): Promise<boolean> {
    const { clientId, profileId } = profile;
    // The match pair claimed on insert is not claimed again (a second insert, then a read).
    const claimed =
      claimedPair && alternateIdKey(claimedPair.AlternateIdType, claimedPair.AlternateId);
    const others = (profile.data?.AlternateIds ?? []).filter(
      (pair) => alternateIdKey(pair.AlternateIdType, pair.AlternateId) !== claimed,
    );
    try {
      await this.alternateIds.claimAll(clientId, profileId, others);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // claimAll released the pairs it took, and the match pair goes too (the record is now
      // a write by that pair, which must not find this profile holding it); the profile
      // goes as a delete would take it.
      if (claimedPair) await this.alternateIds.releasePairs(clientId, profileId, [claimedPair]);
      await this.intake.accept({
        clientId,
        profileId,
        kind: 'delete',
        userId: 'system:bulk-import',
        known: { appliedSeq: profile.appliedSeq, acceptedSeq: profile.appliedSeq },
        background: true,
        // A bulk import's run, in the worker: no request, no commit window.
        window: null,
      });
      return false;
    }
    return true;
  }

  /**
   * Insert mode's publication: the read models of the profiles in one call (a script call,
   * not a command each). A failure leaves readers reading the database (nothing was
   * published for a new profile).
   */
  async publishCreates(profiles: Profile[]): Promise<void> {
    try {
      await this.readModel.publishMany(profiles);
    } catch (error) {
      this.logger.warn(`read model of ${profiles.length} profiles not published: ${String(error)}`);
    }
  }
}
