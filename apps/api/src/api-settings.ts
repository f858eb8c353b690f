import { PREFERENCE_CENTRE_SETTINGS } from '@app/preference-centre';
import { REPORTS_SETTINGS } from '@app/reports';
import {
  scheduledJobSettings,
  SHARED_SETTINGS,
  type SettingsDeclaration,
  TRACING_SETTINGS,
} from '@app/shared';
import { SERVICE_JOBS } from '../../service-jobs';
import { SERVICE_LIB_SETTINGS } from '../../service-settings';

/**
 * Every variable the api reads, by the lib that declares it: what ConfigModule's
 * `validate` checks the environment against at start (api.module.ts, main.ts).
 */
export const API_SETTINGS: readonly SettingsDeclaration[] = [
  SHARED_SETTINGS,
  TRACING_SETTINGS,
  ...SERVICE_LIB_SETTINGS,
  PREFERENCE_CENTRE_SETTINGS,
  REPORTS_SETTINGS,
  scheduledJobSettings(SERVICE_JOBS),
];
