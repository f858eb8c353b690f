import { DynamicModule, Module } from '@nestjs/common';
import { EVENT_JOBS, EVENTS_QUEUE, EventsWorkerModule } from '@app/events';
import { ObservabilityModule, QueueModule, Settings } from '@app/shared';
import { processModule } from '../../process-foundation';
import { PROFILE_RULES } from '../../profile-rules';
import { EVENTS_WORKER_SETTINGS } from './events-worker-settings';

/**
 * The event deliveries lifted into a worker of their own (docs/scaling.md, "Lifted apps"):
 * the events lib's worker module (deliveries, redeliveries, paused-event replays,
 * subscription handshakes) serving the events queue only, with what it reads through its
 * ports (the profiles' events and read side). No profile write is applied here: the
 * worker, run with EVENTS_DELIVERY=lifted, applies them and queues the deliveries. Built
 * from the same libs as the worker.
 */
@Module({})
export class EventsWorkerAppModule {
  static register(settings: Settings): DynamicModule {
    return processModule(EventsWorkerAppModule, EVENTS_WORKER_SETTINGS, settings, [
      QueueModule.forWorker([...EVENT_JOBS], { serve: [EVENTS_QUEUE] }),
      // Metrics the jobs count; health and metrics on WORKER_HEALTH_PORT when set.
      ObservabilityModule.forWorker(),
      PROFILE_RULES,
      EventsWorkerModule,
    ]);
  }
}
