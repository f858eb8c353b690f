import { AUTH_SETTINGS } from '@app/auth';
import { BULK_SETTINGS } from '@app/bulk';
import { CONFIRMATION_SETTINGS, CONSENT_SETTINGS } from '@app/consents';
import { EVENTS_SETTINGS } from '@app/events';
import { PREFERENCE_CENTRE_SETTINGS } from '@app/preference-centre';
import { PROFILE_SETTINGS } from '@app/profiles';
import { REPORTS_SETTINGS } from '@app/reports';
import {
  scheduledJobSettings,
  SHARED_SETTINGS,
  type SettingsDeclaration,
  TRACING_SETTINGS,
} from '@app/shared';
import { SERVICE_JOBS } from '../../service-jobs';

/**
 * Every variable the api reads, by the lib that declares it: what ConfigModule's
 * `validate` checks the environment against at start (api.module.ts, main.ts).
 */
export const API_SETTINGS: readonly SettingsDeclaration[] = [
  SHARED_SETTINGS,
  TRACING_SETTINGS,
  AUTH_SETTINGS,
  PROFILE_SETTINGS,
  CONSENT_SETTINGS,
  CONFIRMATION_SETTINGS,
  BULK_SETTINGS,
  EVENTS_SETTINGS,
  PREFERENCE_CENTRE_SETTINGS,
  REPORTS_SETTINGS,
  scheduledJobSettings(SERVICE_JOBS),
];
