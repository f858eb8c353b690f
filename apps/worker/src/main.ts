import { Logger } from '@nestjs/common';
import { createWorkerApp } from './bootstrap';

async function main(): Promise<void> {
  await createWorkerApp();
  Logger.log('worker started', 'worker');
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
