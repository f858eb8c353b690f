import { DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { ApplyProfileWritesHandler } from './commands/apply-profile-writes/apply-profile-writes.handler';
import { WriteStarts } from './commands/apply-profile-writes/write-starts';
import { ApplyPipeline } from './commands/apply-profile-writes/pipeline/apply-pipeline';
import { AfterApplyStage } from './commands/apply-profile-writes/pipeline/after-apply.stage';
import { FoldStage } from './commands/apply-profile-writes/pipeline/fold.stage';
import { ProfileMergeApply } from './services/profile-merge-apply.service';
import { LoadStage } from './commands/apply-profile-writes/pipeline/load.stage';
import { RecordStage } from './commands/apply-profile-writes/pipeline/record.stage';
import { SaveStage } from './commands/apply-profile-writes/pipeline/save.stage';
import { CreateImportedProfilesHandler } from './commands/create-imported-profiles/create-imported-profiles.handler';
import { ImportedProfileFinisher } from './commands/create-imported-profiles/imported-profile-finisher.service';
import { ImportedProfileSlices } from './commands/create-imported-profiles/imported-profile-slices.service';
import { PrepareImportedProfilesHandler } from './commands/create-imported-profiles/prepare-imported-profiles.handler';
import { SweepPendingWritesHandler } from './commands/sweep-pending-writes/sweep-pending-writes.handler';
import { RecoverLostRedisHandler } from './commands/recover-lost-redis/recover-lost-redis.handler';
import { RebuildSearchKeyIndexHandler } from './commands/rebuild-search-key-index/rebuild-search-key-index.handler';
import { KeyIndexRebuildPlan } from './search-index/key-index-rebuild-plan';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { PROFILE_APPLY_HOOKS, type ProfileApplyHook } from './services/profile-apply-hook';
import {
  PROFILE_EVENT_LISTENERS,
  type ProfileEventListener,
} from './services/profile-event-listener';
import { ApplyProfileWritesJob, PendingWriteSweeper } from './worker/profile-write.jobs';
import { ProfileEventNotifier } from './services/profile-event-notifier.service';
import { ProfileEraser } from './services/profile-eraser.service';
import { RecentSaves } from './services/recent-saves';
import { RepairRecentSavesHandler } from './commands/repair-recent-saves/repair-recent-saves.handler';
import {
  PROFILE_ERASURE_LISTENERS,
  type ProfileErasureListener,
} from './services/profile-erasure-listener';
import { ScheduledJobsModule } from './worker/scheduled-jobs.module';
import {
  NoProfileCounts,
  PROFILE_COUNTS,
  type ProfileCounts,
} from './services/profile-counts.port';

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
