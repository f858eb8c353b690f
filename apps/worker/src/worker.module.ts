import { DynamicModule, Module } from '@nestjs/common';
import { ApiAuthSupportModule } from '@app/auth';
import { BulkWorkerModule } from '@app/bulk';
import {
  ConfirmationRequests,
  ConfirmationRequestsModule,
  ConsentsWorkerModule,
  DoNotContactMarks,
  DoNotContactMarksModule,
} from '@app/consents';
import {
  EventDeliveryTrigger,
  EventDeliveryTriggerModule,
  EventErasureCleanup,
  EventsWorkerModule,
} from '@app/events';
import { ProfilesWorkerModule } from '@app/profiles';
import { ApplyStepCounts, ReportsWorkerModule } from '@app/reports';
import { JOBS_QUEUE, ObservabilityModule, QueueModule, Settings } from '@app/shared';
import { processModule } from '../../process-foundation';
import { PROFILE_RULES } from '../../profile-rules';
import { SERVICE_JOBS } from '../../service-jobs';
import { eventsDeliveryLifted, WORKER_SETTINGS } from './worker-settings';

/**
 * The background process: job handlers only, no HTTP. Scales apart from the api. With
 * EVENTS_DELIVERY=lifted it serves the `jobs` queue only and leaves the events queue
 * (deliveries, redeliveries, replays, handshakes) to the events worker (apps/events-worker):
 * it still queues deliveries after each saved write (EventDeliveryTrigger), and moves event
 * items queued in `jobs` before the events queue existed over to it (JobRunner).
 */
@Module({})
export class WorkerModule {
  static register(settings: Settings): DynamicModule {
    const lifted = eventsDeliveryLifted(settings);
    return processModule(WorkerModule, WORKER_SETTINGS, settings, [
      // The configuration areas the worker reads bring controllers whose guards read these.
      ApiAuthSupportModule,
      QueueModule.forWorker(SERVICE_JOBS, lifted ? { serve: [JOBS_QUEUE] } : {}),
      // Metrics the jobs count; health and metrics on WORKER_HEALTH_PORT when set.
      ObservabilityModule.forWorker(),
      PROFILE_RULES,
      ProfilesWorkerModule.register({
        extensionModules: [
          DoNotContactMarksModule,
          ConfirmationRequestsModule,
          EventDeliveryTriggerModule,
          ReportsWorkerModule,
        ],
        // Each phase in this order: the do-not-contact marks before the confirmation
        // requests (beforeSave), the events' cleanup before the confirmations' (erased);
        // the counts the apply step keeps (docs/reports.md).
        extensions: [
          DoNotContactMarks,
          EventErasureCleanup,
          ConfirmationRequests,
          EventDeliveryTrigger,
          ApplyStepCounts,
        ],
      }),
      ConsentsWorkerModule,
      BulkWorkerModule,
      ...(lifted ? [] : [EventsWorkerModule]),
    ]);
  }
}
