import { DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { ApplyProfileWritesHandler } from './commands/apply-profile-writes/apply-profile-writes.handler';
import { WriteStarts } from './commands/apply-profile-writes/write-starts';
import { CreateImportedProfilesHandler } from './commands/create-imported-profiles/create-imported-profiles.handler';
import { SweepPendingWritesHandler } from './commands/sweep-pending-writes/sweep-pending-writes.handler';
import { ProfilesPersistenceModule } from './profiles-persistence.module';
import { PROFILE_APPLY_HOOKS, type ProfileApplyHook } from './services/profile-apply-hook';
import { ApplyProfileWritesJob, PendingWriteSweeper } from './worker/profile-write.jobs';
import { ScheduledJobsModule } from './worker/scheduled-jobs.module';

/** The worker side of profiles: applies queued writes, sweeps for lost ones, expiry. */
@Module({})
export class ProfilesWorkerModule {
  /**
   * `applyHooks`: the rule modules' apply hooks (classes exported by `hookModules`), run
   * in order in the apply step of every write.
   */
  static register(
    options: {
      hookModules?: ModuleMetadata['imports'];
      applyHooks?: Type<ProfileApplyHook>[];
    } = {},
  ): DynamicModule {
    const hooks = options.applyHooks ?? [];
    return {
      module: ProfilesWorkerModule,
      imports: [ScheduledJobsModule, ProfilesPersistenceModule, ...(options.hookModules ?? [])],
      providers: [
        ApplyProfileWritesHandler,
        CreateImportedProfilesHandler,
        WriteStarts,
        SweepPendingWritesHandler,
        ApplyProfileWritesJob,
        PendingWriteSweeper,
        {
          provide: PROFILE_APPLY_HOOKS,
          useFactory: (...instances: ProfileApplyHook[]) => instances,
          inject: hooks,
        },
      ],
    };
  }
}
