import { runProcess } from '../../process-main';
import { closeEventsWorkerApp, createEventsWorkerApp } from './bootstrap';
import { EVENTS_WORKER_SETTINGS } from './events-worker-settings';

runProcess({
  name: 'events-worker',
  declarations: EVENTS_WORKER_SETTINGS,
  create: createEventsWorkerApp,
  close: closeEventsWorkerApp,
  started: () => 'events worker started (serves the events queue)',
});
