import { DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AuthGuardModule } from '@app/auth';
import { DecisionsApiModule } from '@app/decisions';
import { PROFILE_JOBS } from '@app/profiles';
import {
  DatabaseModule,
  ObservabilityModule,
  QueueModule,
  RedisModule,
  Settings,
  settingsConfigModule,
  SettingsModule,
} from '@app/shared';
import { PROFILE_RULES } from '../../profile-rules';
import { DECISIONS_SETTINGS } from './decisions-settings';

/**
 * The contact decisions lifted into a read-only process of their own (docs/scaling.md,
 * "Lifted apps"): the decisions lib with what it reads through its ports (the profiles' read
 * model, the configuration, the do-not-contact lists) and the auth guards, no write, no
 * queue, no other route. Built from the same libs as the api, unchanged.
 */
@Module({})
export class DecisionsAppModule {
  static register(settings: Settings): DynamicModule {
    return {
      module: DecisionsAppModule,
      imports: [
        settingsConfigModule(DECISIONS_SETTINGS, settings),
        SettingsModule.forRoot(settings),
        DatabaseModule,
        RedisModule,
        CqrsModule.forRoot(),
        // The profiles' read side takes leases (a search key index rebuild) from the queue
        // module; this app enqueues nothing of its own.
        QueueModule.forProducer([...PROFILE_JOBS]),
        // /health/live, /health/ready, /metrics (outside the prefix) and request timing.
        ObservabilityModule.forApi(),
        PROFILE_RULES,
        AuthGuardModule,
        DecisionsApiModule,
      ],
    };
  }
}
