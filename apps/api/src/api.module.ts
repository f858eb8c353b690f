import { DynamicModule, Module } from '@nestjs/common';
import { AuthApiModule } from '@app/auth';
import { BulkApiModule } from '@app/bulk';
import { ConfigurationApiModule } from '@app/config';
import { ConsentsApiModule } from '@app/consents';
import { DecisionsApiModule } from '@app/decisions';
import { EventsApiModule } from '@app/events';
import { PreferenceCentreApiModule } from '@app/preference-centre';
import { PreferencesApiModule } from '@app/preferences';
import { ProfilesApiModule } from '@app/profiles';
import { ReportsApiModule } from '@app/reports';
import { ObservabilityModule, QueueModule, Settings } from '@app/shared';
import { processModule } from '../../process-foundation';
import { PROFILE_RULES } from '../../profile-rules';
import { SERVICE_JOBS } from '../../service-jobs';
import { API_SETTINGS } from './api-settings';
import { QueueDashboardModule } from './queue-dashboard';

/** The HTTP process: each area contributes its own controllers and use cases. */
@Module({})
export class ApiModule {
  static register(settings: Settings): DynamicModule {
    return processModule(ApiModule, API_SETTINGS, settings, [
      QueueModule.forProducer(SERVICE_JOBS),
      // /health/live, /health/ready, /metrics (outside the prefix) and request timing.
      ObservabilityModule.forApi(),
      PROFILE_RULES,
      AuthApiModule,
      ConfigurationApiModule,
      ProfilesApiModule,
      PreferencesApiModule,
      ConsentsApiModule,
      BulkApiModule,
      EventsApiModule,
      DecisionsApiModule,
      PreferenceCentreApiModule,
      ReportsApiModule,
      // /admin/queues (outside the prefix; bootstrap.ts guards it): unless turned off.
      ...(settings.queueDashboardEnabled ? [QueueDashboardModule.register()] : []),
    ]);
  }
}
