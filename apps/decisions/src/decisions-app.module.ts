import { DynamicModule, Module } from '@nestjs/common';
import { AuthGuardModule } from '@app/auth';
import { DecisionsApiModule } from '@app/decisions';
import { PROFILE_JOBS } from '@app/profiles';
import { ObservabilityModule, QueueModule, Settings } from '@app/shared';
import { processModule } from '../../process-foundation';
import { PROFILE_RULES } from '../../profile-rules';
import { DECISIONS_SETTINGS } from './decisions-settings';

/**
 * The contact decisions lifted into a read-only process of their own (docs/scaling.md,
 * "Lifted apps"): the decisions lib with what it reads through its ports (the profiles' read
 * model, the configuration, the do-not-contact lists) and the auth guards; no write and no
 * route of another lib. Built from the same libs as the api, unchanged.
 */
@Module({})
export class DecisionsAppModule {
  static register(settings: Settings): DynamicModule {
    return processModule(DecisionsAppModule, DECISIONS_SETTINGS, settings, [
      // The profiles' read side takes leases (a search key index rebuild) from the queue
      // module; this app enqueues nothing of its own.
      QueueModule.forProducer([...PROFILE_JOBS]),
      // /health/live, /health/ready, /metrics (outside the prefix) and request timing.
      ObservabilityModule.forApi(),
      PROFILE_RULES,
      AuthGuardModule,
      DecisionsApiModule,
    ]);
  }
}
