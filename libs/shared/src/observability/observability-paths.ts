/**
 * The operator's routes, outside the API prefix (/Profiles/v4) and without tenant
 * authentication: the api's bootstrap excludes them from its global prefix, and the worker's
 * health listener serves the same paths.
 */
export const HEALTH_LIVE_PATH = 'health/live';
export const HEALTH_READY_PATH = 'health/ready';
export const METRICS_PATH = 'metrics';
export const OBSERVABILITY_PATHS = [HEALTH_LIVE_PATH, HEALTH_READY_PATH, METRICS_PATH];
