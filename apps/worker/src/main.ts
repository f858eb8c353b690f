import { Logger } from '@nestjs/common';
import { onTermination, Settings } from '@app/shared';
import { closeWorkerApp, createWorkerApp } from './bootstrap';

async function main(): Promise<void> {
  const settings = new Settings();
  const app = await createWorkerApp(settings);
  onTermination('worker', () => closeWorkerApp(app, settings));
  Logger.log('worker started', 'worker');
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
