import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createNestLogger, createRootLogger, HealthChecks, JobRunner, Settings } from '@app/shared';
import { WorkerModule } from './worker.module';

/** Builds the worker (a Nest application context, no HTTP); used by main.ts and tests. */
export async function createWorkerApp(settings = new Settings()): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.register(settings), {
    // JSON lines through pino at LOG_LEVEL (libs/shared/src/observability/logging.ts).
    logger: createNestLogger(createRootLogger(settings, 'worker')),
    abortOnError: false,
  });
  return app;
}

/**
 * Closes a worker built by createWorkerApp in order: its readiness answers 503 (shutting
 * down), it takes no new job, the running ones
 * finish (up to `settings.shutdownGraceMs`; one still running is handed back to another
 * worker), then the modules close their connections. Nest's own shutdown hooks would close
 * the modules (Redis, the engine) under the running jobs, so the worker does not enable
 * them: main.ts calls this on SIGTERM and SIGINT, tests call it to stop a worker.
 */
export async function closeWorkerApp(
  app: INestApplicationContext,
  settings: Settings,
): Promise<void> {
  app.get(HealthChecks, { strict: false }).shuttingDown();
  await app.get(JobRunner, { strict: false }).stop(settings.shutdownGraceMs);
  await app.close();
}
