import { AUTH_SETTINGS } from '@app/auth';
import { BULK_SETTINGS } from '@app/bulk';
import { CONFIRMATION_SETTINGS, CONSENT_SETTINGS } from '@app/consents';
import { EVENTS_SETTINGS } from '@app/events';
import { PROFILE_SETTINGS } from '@app/profiles';
import type { SettingsDeclaration } from '@app/shared';

/**
 * The feature libs' declarations the api and the worker both read, in one run: each
 * process's list (api-settings.ts, worker-settings.ts) puts its others around it in the
 * order of the README's configuration table (the api's list sets that order).
 */
export const SERVICE_LIB_SETTINGS: readonly SettingsDeclaration[] = [
  AUTH_SETTINGS,
  PROFILE_SETTINGS,
  CONSENT_SETTINGS,
  CONFIRMATION_SETTINGS,
  BULK_SETTINGS,
  EVENTS_SETTINGS,
];
