import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { PendingProfile } from '../../domain/pending-profile.schema';
import { PendingProfileRepository } from '../../persistence/pending-profile.repository';
import { ProfileRepository } from '../../persistence/profile.repository';
import { ProfileWriteRepository } from '../../persistence/profile-write.repository';
import { SweepPendingWritesCommand } from './sweep-pending-writes.command';
import { ApplyJobScheduler } from '../../intake/apply-job-scheduler';
import { ProfileSettings } from '../../profile-settings';

const MARKERS_PER_SWEEP = 500;

/**
 * Finds accepted writes no job carries (a lost job, a lost Redis) through the
 * pending_profiles markers: a profile marked longer than STALE_WRITE_MS ago with a write
 * after its appliedSeq is enqueued again; one with none is caught up and its marker goes.
 * The marker is removed first and the profile looked at again after: the api inserts the
 * marker after the write, so a write accepted meanwhile is either seen here or re-marks.
 * Markers younger than STALE_WRITE_MS are not touched at all, except by the sweep of every
 * marker that follows a loss of Redis (RecoverLostRedis): it enqueues each profile with a
 * write waiting at once (and still removes no young marker).
 */
@CommandHandler(SweepPendingWritesCommand)
export class SweepPendingWritesHandler implements ICommandHandler<SweepPendingWritesCommand> {
  private readonly logger = new Logger('SweepPendingWrites');

  constructor(
    private readonly markers: PendingProfileRepository,
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly scheduler: ApplyJobScheduler,
    private readonly settings: ProfileSettings,
  ) {}

  async execute({ everyMarker }: SweepPendingWritesCommand): Promise<number> {
    const before = Date.now() - this.settings.staleWriteMs;
    let requeued = 0;
    const markers: AsyncIterable<PendingProfile> | PendingProfile[] = everyMarker
      ? this.markers.scanAcrossTenants(MARKERS_PER_SWEEP)
      : await this.markers.listAcrossTenants(MARKERS_PER_SWEEP);
    for await (const marker of markers) {
      const { clientId, profileId } = marker;
      // A marker younger than STALE_WRITE_MS is never removed, even when caught up: the api
      // relies on a marker it inserted staying that long (ProfileWriteIntake.mark).
      const stale = marker.since.getTime() <= before;
      if (!stale) {
        if (!everyMarker || !(await this.hasPending(clientId, profileId))) continue;
      } else if (!(await this.hasPending(clientId, profileId))) {
        await this.markers.clear(clientId, profileId);
        if (!(await this.hasPending(clientId, profileId))) continue;
        await this.markers.mark(clientId, profileId, marker.since);
      }
      // A stale marker's job is forced: a "job queued" flag whose job was lost must not hold
      // the profile back. A young one (the sweep after a loss of Redis) asks the flag: the
      // loss took the flags with the jobs, and a flag there now has its job in this Redis
      // (as at a first start, when the epoch is new and the writes' jobs are queued).
      // Idempotent: a profile enqueued twice is applied once (its lease, its appliedSeq).
      await this.scheduler.schedule({ clientId, profileId, lane: 'bulk', force: stale });
      requeued++;
    }
    if (requeued) this.logger.log(`re-enqueued ${requeued} profile(s) with pending writes`);
    return requeued;
  }

  private async hasPending(clientId: string, profileId: number): Promise<boolean> {
    const profile = await this.profiles.findOne(clientId, profileId);
    // A deleted profile counts too: writes accepted after its delete are still recorded
    // (as failed) by the worker.
    if (!profile) return false;
    return this.writes.hasPendingAfter(clientId, profileId, profile.appliedSeq);
  }
}
