import { Logger } from '@nestjs/common';
import { loadSettings, onTermination, SettingsError } from '@app/shared';
import { closeEventsWorkerApp, createEventsWorkerApp } from './bootstrap';
import { EVENTS_WORKER_SETTINGS } from './events-worker-settings';

async function main(): Promise<void> {
  // Checked against every variable it declares before anything reads a setting.
  const settings = loadSettings(EVENTS_WORKER_SETTINGS);
  const app = await createEventsWorkerApp(settings);
  onTermination('events-worker', () => closeEventsWorkerApp(app, settings));
  Logger.log('events worker started (serves the events queue)', 'events-worker');
}

void main().catch((error: unknown) => {
  // Bad settings: their message alone (each bad variable and its value), no stack trace.
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
});
