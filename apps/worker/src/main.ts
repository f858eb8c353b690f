import { runProcess } from '../../process-main';
import { WORKER_SETTINGS } from './worker-settings';
import { closeWorkerApp, createWorkerApp } from './bootstrap';

runProcess({
  name: 'worker',
  declarations: WORKER_SETTINGS,
  create: createWorkerApp,
  close: closeWorkerApp,
  started: () => 'worker started',
});
