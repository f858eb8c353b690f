import type { INestApplicationContext } from '@nestjs/common';
import { Settings } from '@app/shared';
import { closeWorkerApp, createJobProcess } from '../../worker/src/bootstrap';
import { EventsWorkerAppModule } from './events-worker-app.module';

/** Builds the lifted events worker (a Nest application context, no HTTP): main.ts and tests. */
export function createEventsWorkerApp(settings = new Settings()): Promise<INestApplicationContext> {
  return createJobProcess('events-worker', EventsWorkerAppModule.register(settings), settings);
}

/** Closes it as the worker closes (closeWorkerApp): running deliveries finish first. */
export function closeEventsWorkerApp(
  app: INestApplicationContext,
  settings: Settings,
): Promise<void> {
  return closeWorkerApp(app, settings);
}
