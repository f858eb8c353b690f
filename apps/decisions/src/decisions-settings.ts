import { AUTH_SETTINGS } from '@app/auth';
import { CONSENT_SETTINGS } from '@app/consents';
import { PROFILE_SETTINGS } from '@app/profiles';
import { SHARED_SETTINGS, type SettingsDeclaration, TRACING_SETTINGS } from '@app/shared';

/**
 * Every variable the lifted decisions app reads, by the lib that declares it: a subset of
 * the api's (apps/api/src/api-settings.ts), so one environment serves both.
 */
export const DECISIONS_SETTINGS: readonly SettingsDeclaration[] = [
  SHARED_SETTINGS,
  TRACING_SETTINGS,
  AUTH_SETTINGS,
  PROFILE_SETTINGS,
  CONSENT_SETTINGS,
];
