import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { annotateActiveSpan, inSpan, LeaseService } from '@app/shared';
import type { ProfileVocabulary } from '../../domain/profile-vocabulary';
import { profileKey, profileLeaseKey } from '../../keys';
import { ProfileReadModel } from '../../read/profile-read-model.service';
import { ProfileWriteRepository } from '../../persistence/profile-write.repository';
import { ApplyJobScheduler } from '../../intake/apply-job-scheduler';
import { ApplyProfileWritesCommand } from './apply-profile-writes.command';
import { ApplyPipeline } from './pipeline/apply-pipeline';
import { type LeaseHold, LeaseLostError } from './pipeline/lease-hold';
import { LEASE_TTL_MS } from './pipeline/save.stage';

/** The lease is renewed this often while the work runs (a long pass keeps it). */
const LEASE_RENEW_MS = LEASE_TTL_MS / 3;
/** A job that finds the profile's lease taken is put back after this, doubling, up to 5 s. */
const BUSY_DELAY_MS = 100;
const BUSY_DELAY_MAX_MS = 5000;
/** A job whose extensions' afterSave failed after a save queues the next job of its profile this late. */
const AFTER_SAVE_RETRY_MS = 1000;

/**
 * The worker's use case. Holding the profile's lease, it applies the writes after the
 * profile's appliedSeq in passes (ApplyPipeline): each pass folds up to PASS_MAX_WRITES
 * writes in order, each found by its `_id` (`<client>|<profile>|<seq>`), and saves the
 * profile once by `_id` with the new appliedSeq, so every database command is addressed by
 * `_id` and costs the same at any data size. A write is applied exactly once in effect:
 * after a crash the profile's appliedSeq says which writes it holds (an applied write is
 * never marked; its record only says "failed" when the worker refused it, recorded before
 * the save that moves past it). The read model is marked dirty before each save and
 * republished after it, so GET never serves a profile older than one saved.
 *
 * A profile has at most one queued job (ApplyJobScheduler): the job clears its profile's
 * "queued" flag first, then applies up to the highest accepted sequence number the read
 * model records, read again after each pass, so every write accepted before that last read
 * is applied by this job and every later one has queued a job of its own.
 */
@CommandHandler(ApplyProfileWritesCommand)
export class ApplyProfileWritesHandler implements ICommandHandler<ApplyProfileWritesCommand> {
  private readonly logger = new Logger('ApplyProfileWrites');

  constructor(
    private readonly pipeline: ApplyPipeline,
    private readonly lease: LeaseService,
    private readonly configuration: ConfigurationReader,
    private readonly readModel: ProfileReadModel,
    private readonly scheduler: ApplyJobScheduler,
    private readonly writes: ProfileWriteRepository,
  ) {}

  /**
   * With tracing on, in the span `profile.apply` (the parent of the stages' spans), a child
   * of the job's span; it links to the requests of the other writes it applies.
   */
  execute(command: ApplyProfileWritesCommand): Promise<void> {
    return inSpan('profile.apply', () => this.apply(command), {
      'pcp.client_id': command.clientId,
      'pcp.profile_id': command.profileId,
    });
  }

  private async apply({
    clientId,
    profileId,
    seq,
    busy,
    lane,
    token,
  }: ApplyProfileWritesCommand): Promise<void> {
    // First: from here on a write accepted for this profile queues a job of its own
    // unless this one reads it (ApplyJobScheduler). The read model's small fields are read
    // in the same script, after the flag is cleared: its `acc` counts for this job. The
    // client's configuration stamp is asked in the same turn (one socket write).
    const vocabularyRead = this.configuration.vocabulary(clientId);
    vocabularyRead.catch(() => undefined); // awaited (and its error seen) when a pass needs it
    const start = await this.scheduler.startedReading(clientId, profileId, token);
    // A job whose writes the published profile already holds has nothing to do. Not when
    // the entry records no `acc` (Redis lost it): writes accepted before may follow.
    if (seq !== undefined && start && start.appliedSeq !== null && start.acceptedSeq !== null) {
      const { appliedSeq, acceptedSeq, dirty } = start;
      // A save past the published entry under way: the database is the truth (no shortcut).
      const clean = dirty === null || dirty <= appliedSeq;
      if (clean && appliedSeq >= Math.max(seq, acceptedSeq)) return;
    }
    const name = profileLeaseKey(clientId, profileId);
    const attempt = await this.lease.tryAcquire(name, LEASE_TTL_MS);
    const leaseToken = attempt.token;
    if (!leaseToken) {
      // Another job is applying this profile (and may take these writes with it). Waiting
      // here would hold a worker slot that other profiles and tenants need: the profile's
      // job is asked for again, later, and this one ends. Right after a loss of Redis no
      // lease is granted for a while: the job comes back exactly when it ends.
      const afterLossMs = 'afterLossMs' in attempt ? attempt.afterLossMs : undefined;
      await this.scheduler.schedule({
        clientId,
        profileId,
        seq,
        lane: lane ?? 'interactive',
        delayMs: afterLossMs ?? Math.min(BUSY_DELAY_MAX_MS, BUSY_DELAY_MS * 2 ** (busy ?? 0)),
        busy: afterLossMs === undefined ? (busy ?? 0) + 1 : busy,
      });
      return;
    }
    const hold: LeaseHold = { name, token: leaseToken, saves: 0 };
    const renewal = setInterval(
      () => void this.lease.extend(name, leaseToken, LEASE_TTL_MS).catch(() => undefined),
      LEASE_RENEW_MS,
    );
    renewal.unref();
    try {
      await this.applyPending(hold, clientId, profileId, seq, lane, {
        accepted: start ? start.acceptedSeq : undefined,
        vocabulary: () => vocabularyRead,
      });
    } catch (error) {
      // Another holder carries on; a late save of ours is healed below.
      if (!(error instanceof LeaseLostError)) throw error;
      this.logger.warn(String(error.message));
    } finally {
      clearInterval(renewal);
      const held = await this.lease.release(name, leaseToken).catch(() => true);
      if (!held && hold.saves > 0) await this.healLateSave(clientId, profileId);
      // An extensions' afterSave that failed after a save (the reports' counts): a job of its
      // own, with no sequence number (it never takes the "nothing to do" shortcut), calls it
      // again on its heal path. Should queueing it fail, this job fails and the queue retries it.
      if (hold.afterSaveLeft) {
        await this.scheduler.schedule({
          clientId,
          profileId,
          lane: 'bulk',
          delayMs: AFTER_SAVE_RETRY_MS,
          force: true,
        });
      }
    }
  }

  /**
   * Applies the writes after appliedSeq in passes. A job that names its write (`target`)
   * applies up to it and up to the highest accepted sequence number the read model records
   * (read again whenever it is reached), without probing for one more (a write accepted
   * later brings its own job); a job that names none (the sweeper's) probes until no write
   * follows. When the read model records no `acc` (Redis lost it, with the jobs of the
   * writes it counted), the engine's records tell the highest accepted write, and the read
   * model is told it, so neither this job nor GET takes the applied profile for complete. `known.accepted`: the read model's `acc` as read when the job started (after its
   * flag was cleared; undefined: not read), so the first look needs no round trip; after a
   * pass, the `acc` its publication answered is used the same way.
   */
  private async applyPending(
    hold: LeaseHold,
    clientId: string,
    profileId: number,
    target: number | undefined,
    lane: ApplyProfileWritesCommand['lane'],
    known: { accepted: number | null | undefined; vocabulary: () => Promise<ProfileVocabulary> },
  ): Promise<void> {
    let profile = await this.pipeline.profile(clientId, profileId);
    // The api inserts a profile's shell before it accepts its create: no shell, no writes.
    if (!profile) return;
    const probe = target === undefined;
    let upTo = Math.max(target ?? 0, known.accepted ?? 0);
    /** The `acc` read last and not yet looked at (undefined: read it). */
    let fresh: number | null | undefined = known.accepted;
    let vocabulary: ProfileVocabulary | undefined;
    let applied = 0;
    for (;;) {
      if (profile.appliedSeq >= upTo) {
        let accepted =
          fresh !== undefined ? fresh : await this.readModel.acceptedSeq(clientId, profileId);
        if (accepted === null && !probe) accepted = await this.acceptedFromEngine(profile);
        if (!probe && (accepted === null || accepted <= profile.appliedSeq)) break;
        upTo = Math.max(upTo, accepted ?? 0);
      }
      fresh = undefined;
      vocabulary ??= await known.vocabulary();
      const pass = await this.pipeline.pass(hold, profile, { upTo, probe }, vocabulary);
      profile = pass.profile;
      applied += pass.applied;
      // Read by the pass's publication, after its save: as good as a read here.
      if (pass.acceptedSeq !== undefined) fresh = pass.acceptedSeq;
      if (pass.waitMs !== undefined) {
        // A keyed write whose request may still commit: looked at again later.
        await this.scheduler.schedule({
          clientId,
          profileId,
          lane: lane ?? 'interactive',
          delayMs: pass.waitMs,
        });
        break;
      }
      if (!pass.applied) break;
    }
    annotateActiveSpan({ 'pcp.writes_applied': applied });
    // Nothing to apply: still the extensions' afterSave (the event trigger, the counts) and
    // the publication, which heals what a crash or a Redis error cut short after the last
    // save (readers meanwhile read the database: markDirty).
    if (!applied) {
      await this.pipeline.afterSaveAgain(hold, profile);
      await this.pipeline.publish(profile);
    }
  }

  /**
   * The highest accepted sequence number from the write records (the lease is held: no
   * other worker's retention deletes them meanwhile), recorded in the read model (best
   * effort: a reader without it rebuilds from the engine too). A write accepted meanwhile
   * raises `acc` itself and has a job of its own.
   */
  private async acceptedFromEngine(profile: {
    clientId: string;
    profileId: number;
    appliedSeq: number;
  }): Promise<number> {
    const { clientId, profileId, appliedSeq } = profile;
    const accepted = await this.writes.lastAcceptedSeq(clientId, profileId, appliedSeq);
    if (this.readModel.available) {
      await this.readModel.noteAccepted(clientId, profileId, accepted).catch((error: unknown) => {
        this.logger.warn(`accepted seq of ${profileKey(clientId, profileId)}: ${String(error)}`);
      });
    }
    return accepted;
  }

  /**
   * This job's lease lapsed (a stall past LEASE_TTL_MS) while it saved: the embedded engine
   * has no conditional write by `_id`, so a save of ours may have landed after another
   * holder's later ones and taken the profile back to an older appliedSeq. Writes are applied
   * strictly in sequence from the stored appliedSeq and their records are kept
   * (WRITE_RECORDS_KEPT), so a new job re-applies whatever such a save undid; the read model
   * only ever takes newer versions, so GET never shows the older state.
   */
  private async healLateSave(clientId: string, profileId: number): Promise<void> {
    this.logger.warn(
      `lease of ${profileKey(clientId, profileId)} lapsed while this job saved: re-applying after its saves`,
    );
    await this.scheduler.schedule({ clientId, profileId, lane: 'bulk', force: true });
  }
}
