import { collectDefaultMetrics, Counter, Registry } from 'prom-client';

/**
 * What belongs to the process rather than to one application in it: Node's default metrics
 * (CPU, memory, event loop lag, GC, handles) and the count of engine and Redis errors. Kept
 * once per process (tests run an api and workers in one process; each scrape shows the same
 * process figures) and merged into every scrape of the process's apps (Metrics.render).
 */
let processRegistry: Registry | undefined;
let dependencyErrors: Counter<'dependency'> | undefined;

export type Dependency = 'engine' | 'redis';

export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    dependencyErrors = new Counter({
      name: 'pcp_dependency_errors_total',
      help: 'Errors of the engine (MongoDB/FerretDB) or Redis that failed a request or a job, by dependency',
      labelNames: ['dependency'],
      registers: [processRegistry],
    });
    // Both series from the start, so a rate() over them is defined before the first error.
    dependencyErrors.inc({ dependency: 'engine' }, 0);
    dependencyErrors.inc({ dependency: 'redis' }, 0);
  }
  return processRegistry;
}

/**
 * Which dependency an error comes from: the MongoDB driver's and mongoose's errors are the
 * engine's (`MongoNotConnectedError`, `MongoServerSelectionError`, `MongooseError`...), and
 * ioredis's (a reply error, a command timeout, a closed connection, retries exhausted) are
 * Redis's. Causes are followed (an error wrapping one of those counts too).
 */
export function dependencyOf(error: unknown): Dependency | undefined {
  for (let depth = 0, current = error; current && depth < 5; depth++) {
    if (!(current instanceof Error)) return undefined;
    if (/^Mongo/.test(current.name)) return 'engine';
    if (/^(ReplyError|MaxRetriesPerRequestError|ClusterAllFailedError)$/.test(current.name))
      return 'redis';
    if (
      /^(Command timed out|Connection is closed|Stream isn't writeable|Reached the max retries)/.test(
        current.message,
      )
    )
      return 'redis';
    current = (current as { cause?: unknown }).cause as Error | undefined;
  }
  return undefined;
}

/**
 * Counts an error in `pcp_dependency_errors_total` when it is the engine's or Redis's (see
 * dependencyOf); other errors are not counted. Called where errors surface: the api's
 * exception filter (the 503 of an unexpected condition) and the worker's failed jobs.
 */
export function recordDependencyError(error: unknown): Dependency | undefined {
  const dependency = dependencyOf(error);
  if (dependency) {
    processMetrics();
    dependencyErrors!.inc({ dependency });
  }
  return dependency;
}
