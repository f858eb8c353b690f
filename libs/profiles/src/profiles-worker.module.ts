import { DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { ApplyProfileWritesHandler } from './apply/apply-profile-writes/apply-profile-writes.handler';
import { WriteStarts } from './apply/apply-profile-writes/write-starts';
import { ApplyPipeline } from './apply/apply-profile-writes/pipeline/apply-pipeline';
import { AfterApplyStage } from './apply/apply-profile-writes/pipeline/after-apply.stage';
import { FoldStage } from './apply/apply-profile-writes/pipeline/fold.stage';
import { ProfileMergeApply } from './merge/profile-merge-apply.service';
import { LoadStage } from './apply/apply-profile-writes/pipeline/load.stage';
import { RecordStage } from './apply/apply-profile-writes/pipeline/record.stage';
import { SaveStage } from './apply/apply-profile-writes/pipeline/save.stage';
import { CreateImportedProfilesHandler } from './apply/import/create-imported-profiles.handler';
import { ImportedProfileSlices } from './apply/import/imported-profile-slices.service';
import { PrepareImportedProfilesHandler } from './apply/import/prepare-imported-profiles.handler';
import { SweepPendingWritesHandler } from './apply/sweep-pending-writes/sweep-pending-writes.handler';
import { RecoverLostRedisHandler } from './read/redis-loss/recover-lost-redis/recover-lost-redis.handler';
import { RebuildSearchKeyIndexHandler } from './read/search/rebuild-search-key-index/rebuild-search-key-index.handler';
import { KeyIndexRebuildPlan } from './read/search/key-index-rebuild-plan';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { PROFILE_EXTENSIONS, type ProfileExtension } from './ports/profile-extension.port';
import { ApplyProfileWritesJob, PendingWriteSweeper } from './apply/profile-write.jobs';
import { ProfileExtensions } from './apply/profile-extensions.service';
import { ProfileEraser } from './erasure/profile-eraser.service';
import { RecentSaves } from './read/redis-loss/recent-saves';
import { RepairRecentSavesHandler } from './read/redis-loss/repair-recent-saves/repair-recent-saves.handler';
import { ScheduledJobsModule } from './intake/expiry/scheduled-jobs.module';

/** The worker side of profiles: applies queued writes, sweeps for lost ones, expiry. */
@Module({})
export class ProfilesWorkerModule {
  /**
   * `extensions`: what other modules do inside the apply of every source of writes (the
   * ProfileExtension port: the consents' follow-up writes, the events' trigger and erasure
   * cleanup, the reports' counts), classes exported by `extensionModules`, each phase
   * called on them in this order; none by default.
   */
  static register(
    options: {
      extensionModules?: ModuleMetadata['imports'];
      extensions?: Type<ProfileExtension>[];
    } = {},
  ): DynamicModule {
    const extensions = options.extensions ?? [];
    return {
      module: ProfilesWorkerModule,
      imports: [
        ScheduledJobsModule,
        ProfilesPersistenceModule,
        ...(options.extensionModules ?? []),
      ],
      providers: [
        ApplyProfileWritesHandler,
        ApplyPipeline,
        LoadStage,
        FoldStage,
        ProfileMergeApply,
        RecordStage,
        SaveStage,
        AfterApplyStage,
        CreateImportedProfilesHandler,
        ImportedProfileSlices,
        PrepareImportedProfilesHandler,
        WriteStarts,
        SweepPendingWritesHandler,
        RecoverLostRedisHandler,
        RecentSaves,
        RepairRecentSavesHandler,
        RebuildSearchKeyIndexHandler,
        KeyIndexRebuildPlan,
        ProfileExtensions,
        ProfileEraser,
        ApplyProfileWritesJob,
        PendingWriteSweeper,
        {
          provide: PROFILE_EXTENSIONS,
          useFactory: (...instances: ProfileExtension[]) => instances,
          inject: extensions,
        },
      ],
    };
  }
}
