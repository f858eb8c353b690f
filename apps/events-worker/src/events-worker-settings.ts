import { AUTH_SETTINGS } from '@app/auth';
import { EVENT_JOBS, EVENTS_SETTINGS } from '@app/events';
import { PROFILE_SETTINGS } from '@app/profiles';
import {
  scheduledJobSettings,
  SHARED_SETTINGS,
  type SettingsDeclaration,
  TRACING_SETTINGS,
} from '@app/shared';

/**
 * Every variable the lifted events worker reads, by the lib that declares it: a subset of
 * the worker's (apps/worker/src/worker-settings.ts), so one environment serves both.
 * WORKER_HEALTH_PORT is its health listener's port too: give it a port of its own where it
 * runs beside a worker.
 */
export const EVENTS_WORKER_SETTINGS: readonly SettingsDeclaration[] = [
  SHARED_SETTINGS,
  TRACING_SETTINGS,
  AUTH_SETTINGS,
  PROFILE_SETTINGS,
  EVENTS_SETTINGS,
  scheduledJobSettings(EVENT_JOBS),
];
