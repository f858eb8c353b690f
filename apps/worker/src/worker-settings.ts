import { REPORTS_SETTINGS } from '@app/reports';
import {
  defineSettings,
  EnvReader,
  scheduledJobSettings,
  type Settings,
  SHARED_SETTINGS,
  type SettingsDeclaration,
  TRACING_SETTINGS,
} from '@app/shared';
import { SERVICE_JOBS } from '../../service-jobs';
import { SERVICE_LIB_SETTINGS } from '../../service-settings';

/** The worker app's own variable: who takes the event deliveries (docs/scaling.md, "Lifted apps"). */
export const WORKER_APP_SETTINGS = defineSettings('worker', [
  {
    name: 'EVENTS_DELIVERY',
    type: 'text',
    default: 'embedded',
    values: ['embedded', 'lifted'],
    meaning:
      'embedded: the worker also serves the events queue (deliveries, handshakes); lifted: it leaves that queue to the events worker (apps/events-worker)',
  },
] as const);

/** Whether this worker leaves the events queue to the lifted events worker. */
export function eventsDeliveryLifted(settings: Settings): boolean {
  return new EnvReader(settings.env).read(WORKER_APP_SETTINGS).EVENTS_DELIVERY === 'lifted';
}

/**
 * Every variable the worker reads, by the lib that declares it: what ConfigModule's
 * `validate` checks the environment against at start (worker.module.ts, main.ts).
 */
export const WORKER_SETTINGS: readonly SettingsDeclaration[] = [
  SHARED_SETTINGS,
  TRACING_SETTINGS,
  WORKER_APP_SETTINGS,
  ...SERVICE_LIB_SETTINGS,
  REPORTS_SETTINGS,
  scheduledJobSettings(SERVICE_JOBS),
];
