import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { ApiError, LeaseService, Settings } from '@app/shared';
import { alternateIdKey } from '../../domain/element-rules';
import type { ProfileVocabulary } from '../../domain/profile-configuration.rules';
import { nextExpiry } from '../../domain/consent-expiry';
import { historyEntries } from '../../domain/profile-history';
import { PermanentWriteError, transitionProfile } from '../../domain/profile-transition';
import type { Profile } from '../../domain/profile.schema';
import type { ProfileWrite } from '../../domain/profile-write.schema';
import { ProfileRepository } from '../../repositories/profile.repository';
import { ProfileHistoryRepository } from '../../repositories/profile-history.repository';
import { ProfileWriteRepository } from '../../repositories/profile-write.repository';
import { TagRepository } from '../../repositories/tag.repository';
import { AlternateIdClaims } from '../../services/alternate-id-claims.service';
import { DoNotContactMarks } from '../../services/do-not-contact-marks.service';
import { ApplyProfileWritesCommand } from './apply-profile-writes.command';

const LEASE_TTL_MS = 30000;
const LEASE_WAIT_MS = 5000;
const BATCH = 50;

/** Thrown when the lease is held elsewhere; the queue retries the job later. */
export class ProfileBusyError extends Error {}

/**
 * The worker's use case. Holding the profile's lease, it applies pending writes from
 * appliedSeq+1 upwards: each save carries the new appliedSeq and only succeeds if the
 * stored one is still the previous (so a second worker, a redelivered job or a restart
 * after a crash never applies a write twice); the write is marked after its save, and a
 * write found pending at or below appliedSeq is one whose mark was lost, so it is only
 * marked. A write that cannot apply is recorded as failed with its reason.
 */
@CommandHandler(ApplyProfileWritesCommand)
export class ApplyProfileWritesHandler implements ICommandHandler<ApplyProfileWritesCommand> {
  private readonly logger = new Logger('ApplyProfileWrites');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly tags: TagRepository,
    private readonly lease: LeaseService,
    private readonly settings: Settings,
    private readonly configuration: ConfigurationReader,
    private readonly history: ProfileHistoryRepository,
    private readonly doNotContact: DoNotContactMarks,
  ) {}

  async execute({ clientId, profileId }: ApplyProfileWritesCommand): Promise<void> {
    const leaseName = `profile:${clientId}|${profileId}`;
    const token = await this.lease.acquireWithin(leaseName, LEASE_TTL_MS, LEASE_WAIT_MS);
    if (!token)
      throw new ProfileBusyError(`profile ${clientId}|${profileId} is being applied elsewhere`);
    try {
      while (await this.applyBatch(clientId, profileId)) {
        // until no pending write is left
      }
    } finally {
      await this.lease.release(leaseName, token);
    }
  }

  /** Applies up to one batch; true when it made progress and more may be pending. */
  private async applyBatch(clientId: string, profileId: number): Promise<boolean> {
    let profile = await this.profiles.findOne(clientId, profileId);
    const pending = await this.writes.pendingFor(clientId, profileId, BATCH);
    if (!pending.length) return false;
    if (!profile) {
      for (const write of pending)
        await this.writes.markFailed(clientId, write._id, 'No such profile');
      return false;
    }
    const vocabulary = await this.configuration.vocabulary(clientId);
    for (const write of pending) {
      if (write.seq <= profile.appliedSeq) {
        await this.writes.markApplied(clientId, write._id);
        continue;
      }
      if (write.seq !== profile.appliedSeq + 1) {
        this.logger.error(`write ${write._id} follows a gap after seq ${profile.appliedSeq}`);
        return false;
      }
      const next = await this.applyOne(profile, write, vocabulary);
      if (!next) return true; // another worker saved first: re-read and go on
      profile = next;
    }
    return pending.length === BATCH;
  }

  private async applyOne(
    profile: Profile,
    write: ProfileWrite,
    vocabulary: ProfileVocabulary,
  ): Promise<Profile | null> {
    let next: Profile;
    let failure: string | undefined;
    try {
      next = transitionProfile(profile, write, vocabulary);
      // Derived from the data with every save: what the expiry job looks profiles up by.
      next.nextExpiryAt = nextExpiry(next.data);
      if (write.kind === 'patch') await this.claimPatchedPairs(profile, next);
      // History is written before the save, without a transaction: readers only see
      // entries up to the profile's appliedSeq, so these stay invisible until the replace
      // below succeeds. A save that loses the race or a crash before it leaves invisible
      // entries that a retry rewrites identically (same _ids, deterministic content).
      await this.history.record(historyEntries(profile, next, write));
    } catch (error) {
      if (!(error instanceof PermanentWriteError)) return this.countFailure(profile, write, error);
      failure = error.message;
      next = {
        ...profile,
        appliedSeq: write.seq,
        lastFailure: { seq: write.seq, reason: failure, at: new Date() },
      };
    }
    try {
      // A failed write changes nothing, so it shows no history: drop entries an earlier
      // attempt recorded before the save that would now make them visible.
      if (failure) await this.history.eraseWrite(write.clientId, write.profileId, write.seq);
      if (!(await this.profiles.replaceIfSeq(next, profile.appliedSeq))) return null;
    } catch (error) {
      return this.countFailure(profile, write, error);
    }
    if (failure) {
      await this.writes.markFailed(write.clientId, write._id, failure);
    } else {
      await this.writes.markApplied(write.clientId, write._id);
    }
    await this.afterApply(profile, next, write);
    return next;
  }

  /**
   * A patch's alternate ids are only known here, once it is applied: the pairs it adds are
   * claimed now (a pair another profile holds refuses the patch, like a 409 at the api).
   */
  private async claimPatchedPairs(before: Profile, after: Profile): Promise<void> {
    const had = new Set(
      (before.data?.AlternateIds ?? [])
        .filter((pair) => pair.IsActive !== false)
        .map((pair) => alternateIdKey(pair.AlternateIdType, pair.AlternateId)),
    );
    const added = (after.data?.AlternateIds ?? []).filter(
      (pair) =>
        pair.IsActive !== false && !had.has(alternateIdKey(pair.AlternateIdType, pair.AlternateId)),
    );
    if (!added.length) return;
    try {
      await this.alternateIds.claimAll(after.clientId, after.profileId, added);
    } catch (error) {
      if (error instanceof ApiError && error.getStatus() === 409)
        throw new PermanentWriteError(error.message);
      throw error;
    }
  }

  /** Claims and stored bodies that the applied write made obsolete. */
  private async afterApply(before: Profile, after: Profile, write: ProfileWrite): Promise<void> {
    if (after.state === 'deleted' && before.state !== 'deleted') {
      await this.alternateIds.releaseAll(write.clientId, write.profileId);
      await this.writes.eraseBodies(write.clientId, write.profileId);
      await this.history.eraseProfile(write.clientId, write.profileId);
      return;
    }
    await this.alternateIds.releaseDropped(
      write.clientId,
      write.profileId,
      before.data?.AlternateIds,
      after.data?.AlternateIds,
    );
    // An email or phone added to the profile that is on a do-not-contact list gets the
    // list's mark, queued behind this write (a crash right here loses that mark: known gap).
    await this.doNotContact.markAddedContacts(
      write.clientId,
      write.profileId,
      before.data,
      after.data,
    );
    // Tags enter the account's tag list when a profile first carries them.
    const known = new Set((before.data?.ProfileTags ?? []).map((tag) => tag.Key));
    for (const tag of after.data?.ProfileTags ?? []) {
      if (tag.IsActive !== false && !known.has(tag.Key)) {
        await this.tags.ensure(write.clientId, tag.Name, tag.Key);
      }
    }
  }

  /**
   * An unexpected error (database down, a bug): rethrown so the queue retries, until the
   * write has failed MAX_WRITE_ATTEMPTS times; then it is recorded as failed and skipped,
   * so one poisoned write cannot block the profile for ever.
   */
  private async countFailure(
    profile: Profile,
    write: ProfileWrite,
    error: unknown,
  ): Promise<never> {
    const attempts = await this.writes.countAttempt(write.clientId, write._id).catch(() => 0);
    if (attempts >= this.settings.maxWriteAttempts) {
      const reason = `Gave up after ${attempts} attempts: ${error instanceof Error ? error.message : String(error)}`;
      const next = {
        ...profile,
        appliedSeq: write.seq,
        lastFailure: { seq: write.seq, reason, at: new Date() },
      };
      await this.history.eraseWrite(write.clientId, write.profileId, write.seq);
      if (await this.profiles.replaceIfSeq(next, profile.appliedSeq)) {
        await this.writes.markFailed(write.clientId, write._id, reason);
      }
    }
    throw error;
  }
}
