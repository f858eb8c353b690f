import { Module } from '@nestjs/common';
import { ApplyProfileWritesHandler } from './commands/apply-profile-writes/apply-profile-writes.handler';
import { WriteStarts } from './commands/apply-profile-writes/write-starts';
import { SweepPendingWritesHandler } from './commands/sweep-pending-writes/sweep-pending-writes.handler';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { ApplyProfileWritesJob, PendingWriteSweeper } from './worker/profile-write.jobs';
import { DoNotContactMarksModule } from './worker/do-not-contact-marks.module';
import { ScheduledJobsModule } from './worker/scheduled-jobs.module';

/** The worker side of profiles: applies queued writes, sweeps for lost ones. */
@Module({
  imports: [ScheduledJobsModule, ProfilesPersistenceModule, DoNotContactMarksModule],
  providers: [
    ApplyProfileWritesHandler,
    WriteStarts,
    SweepPendingWritesHandler,
    ApplyProfileWritesJob,
    PendingWriteSweeper,
  ],
})
export class ProfilesWorkerModule {}
