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
import { ImportedProfileFinisher } from './apply/import/imported-profile-finisher.service';
import { ImportedProfileSlices } from './apply/import/imported-profile-slices.service';
import { PrepareImportedProfilesHandler } from './apply/import/prepare-imported-profiles.handler';
import { SweepPendingWritesHandler } from './apply/sweep-pending-writes/sweep-pending-writes.handler';
import { RecoverLostRedisHandler } from './read/redis-loss/recover-lost-redis/recover-lost-redis.handler';
import { RebuildSearchKeyIndexHandler } from './read/search/rebuild-search-key-index/rebuild-search-key-index.handler';
import { KeyIndexRebuildPlan } from './read/search/key-index-rebuild-plan';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { PROFILE_APPLY_HOOKS, type ProfileApplyHook } from './ports/profile-apply-hook';
import { PROFILE_EVENT_LISTENERS, type ProfileEventListener } from './ports/profile-event-listener';
import { ApplyProfileWritesJob, PendingWriteSweeper } from './apply/profile-write.jobs';
import { ProfileEventNotifier } from './apply/profile-event-notifier.service';
import { ProfileEraser } from './erasure/profile-eraser.service';
import { RecentSaves } from './read/redis-loss/recent-saves';
import { RepairRecentSavesHandler } from './read/redis-loss/repair-recent-saves/repair-recent-saves.handler';
import {
  PROFILE_ERASURE_LISTENERS,
  type ProfileErasureListener,
} from './ports/profile-erasure-listener';
import { ScheduledJobsModule } from './intake/expiry/scheduled-jobs.module';
import { NoProfileCounts, PROFILE_COUNTS, type ProfileCounts } from './ports/profile-counts.port';

/** The worker side of profiles: applies queued writes, sweeps for lost ones, expiry. */
@Module({})
export class ProfilesWorkerModule {
  /**
   * `applyHooks`: the rule modules' apply hooks (classes exported by `hookModules`), run
   * in order in the apply step of every write. `eventListeners`: what hears of each saved
   * write's events (classes exported by `hookModules` too). `erasureListeners`: what must
   * forget an erased profile outside Profiles (classes exported by `hookModules` too).
   * `counts`: the counts kept by the apply step (the reports; exported by `hookModules`);
   * none by default.
   */
  static register(
    options: {
      hookModules?: ModuleMetadata['imports'];
      applyHooks?: Type<ProfileApplyHook>[];
      eventListeners?: Type<ProfileEventListener>[];
      erasureListeners?: Type<ProfileErasureListener>[];
      counts?: Type<ProfileCounts>;
    } = {},
  ): DynamicModule {
    const hooks = options.applyHooks ?? [];
    const listeners = options.eventListeners ?? [];
    const erasureListeners = options.erasureListeners ?? [];
    return {
      module: ProfilesWorkerModule,
      imports: [ScheduledJobsModule, ProfilesPersistenceModule, ...(options.hookModules ?? [])],
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
        ImportedProfileFinisher,
        PrepareImportedProfilesHandler,
        WriteStarts,
        SweepPendingWritesHandler,
        RecoverLostRedisHandler,
        RecentSaves,
        RepairRecentSavesHandler,
        RebuildSearchKeyIndexHandler,
        KeyIndexRebuildPlan,
        ProfileEventNotifier,
        ProfileEraser,
        ApplyProfileWritesJob,
        PendingWriteSweeper,
        {
          provide: PROFILE_APPLY_HOOKS,
          useFactory: (...instances: ProfileApplyHook[]) => instances,
          inject: hooks,
        },
        {
          provide: PROFILE_EVENT_LISTENERS,
          useFactory: (...instances: ProfileEventListener[]) => instances,
          inject: listeners,
        },
        options.counts
          ? { provide: PROFILE_COUNTS, useExisting: options.counts }
          : { provide: PROFILE_COUNTS, useClass: NoProfileCounts },
        {
          provide: PROFILE_ERASURE_LISTENERS,
          useFactory: (...instances: ProfileErasureListener[]) => instances,
          inject: erasureListeners,
        },
      ],
    };
  }
}
