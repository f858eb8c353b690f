import { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  createNestLogger,
  createRootLogger,
  HealthChecks,
  JobRunner,
  Settings,
  startTracing,
} from '@app/shared';
import { WorkerModule } from './worker.module';

/** Each traced worker's end of tracing (its spans exported), after it closed. */
const tracings = new WeakMap<INestApplicationContext, () => Promise<void>>();

/** Builds the worker (a Nest application context, no HTTP); used by main.ts and tests. */
export function createWorkerApp(settings = new Settings()): Promise<INestApplicationContext> {
  return createJobProcess('worker', WorkerModule.register(settings), settings);
}

/**
 * A process that only runs jobs (the worker, the lifted events worker: apps/events-worker),
 * logging and tracing as `name`; closed by closeWorkerApp.
 */
export async function createJobProcess(
  name: string,
  module: DynamicModule,
  settings: Settings,
): Promise<INestApplicationContext> {
  // Only with an OTLP endpoint (docs/operations.md, "Tracing"): each job then runs in a span.
  const stopTracing = await startTracing(settings.env, name);
  try {
    const app = await NestFactory.createApplicationContext(module, {
      // JSON lines through pino at LOG_LEVEL (libs/shared/src/observability/logging.ts).
      logger: createNestLogger(createRootLogger(settings, name)),
      abortOnError: false,
    });
    if (stopTracing) tracings.set(app, stopTracing);
    return app;
  } catch (error) {
    await stopTracing?.();
    throw error;
  }
}

/**
 * Closes a worker built by createWorkerApp (or createJobProcess) in order: its readiness answers 503 (shutting
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
  await tracings.get(app)?.();
}
