import { AUTH_SETTINGS } from '@app/auth';
import { BULK_JOBS, BULK_SETTINGS } from '@app/bulk';
import { CONFIRMATION_SETTINGS, CONSENT_JOBS, CONSENT_SETTINGS } from '@app/consents';
import { EVENT_JOBS, EVENTS_SETTINGS } from '@app/events';
import { PREFERENCE_CENTRE_SETTINGS } from '@app/preference-centre';
import { PROFILE_JOBS, PROFILE_SETTINGS } from '@app/profiles';
import { REPORT_JOBS, REPORTS_SETTINGS } from '@app/reports';
import {
  scheduledJobSettings,
  SHARED_SETTINGS,
  type SettingsDeclaration,
  TRACING_SETTINGS,
} from '@app/shared';

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
  scheduledJobSettings([
    ...PROFILE_JOBS,
    ...CONSENT_JOBS,
    ...BULK_JOBS,
    ...EVENT_JOBS,
    ...REPORT_JOBS,
  ]),
];
