import { Logger } from '@nestjs/common';
import { loadSettings, onTermination, SettingsError } from '@app/shared';
import { WORKER_SETTINGS } from './worker-settings';
import { closeWorkerApp, createWorkerApp } from './bootstrap';

async function main(): Promise<void> {
  // The whole environment, checked against every variable the worker declares, before
  // anything reads a setting: a bad value stops here, one line per bad variable.
  const settings = loadSettings(WORKER_SETTINGS);
  const app = await createWorkerApp(settings);
  onTermination('worker', () => closeWorkerApp(app, settings));
  Logger.log('worker started', 'worker');
}

void main().catch((error: unknown) => {
  // Bad settings: their message alone (each bad variable and its value), no stack trace.
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
});
