import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Settings } from '@app/shared';
import { WorkerModule } from './worker.module';

/** Builds the worker (a Nest application context, no HTTP); used by main.ts and tests. */
export async function createWorkerApp(settings = new Settings()): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.register(settings), {
    logger: settings.logLevels,
    abortOnError: false,
  });
  app.enableShutdownHooks();
  return app;
}
