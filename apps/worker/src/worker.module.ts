import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { PROFILE_JOBS, ProfilesWorkerModule } from '@app/profiles';
import { DatabaseModule, QueueModule, RedisModule, Settings, SettingsModule } from '@app/shared';

/** The background process: job handlers only, no HTTP. Scales apart from the api. */
@Module({})
export class WorkerModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        SettingsModule.forRoot(settings),
        DatabaseModule,
        RedisModule,
        CqrsModule.forRoot(),
        QueueModule.forWorker(PROFILE_JOBS),
        ProfilesWorkerModule,
      ],
    };
  }
}
