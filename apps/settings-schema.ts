import { defineSettings, type SettingsDeclaration } from '@app/shared';
import { API_SETTINGS } from './api/src/api-settings';
import { WORKER_SETTINGS } from './worker/src/worker-settings';

/**
 * Variables the npm scripts read, not the processes (`npm start`'s launcher, the setup
 * script): in the README's table too, so declared here.
 */
export const SCRIPT_SETTINGS = defineSettings('scripts', [
  {
    name: 'ENGINE_PORT',
    type: 'int',
    default: 0,
    documentedDefault: 'free port',
    meaning: 'port of the embedded engine under npm start (scripts/launch.js)',
  },
  {
    name: 'DATA_DIR',
    type: 'text',
    documentedDefault: '`.data/`',
    meaning:
      "the folder of npm start's and npm run admin's local data: the embedded engine's and Redis's files, the generated JWT_SECRET, and runtime.json (where npm run admin finds the running stack)",
  },
  {
    name: 'MAIL_CATCHER_PORT',
    type: 'int',
    default: 0,
    documentedDefault: 'free port',
    meaning:
      "port of the embedded mail catcher's web inbox under npm start, when SMTP_URL is unset (scripts/mail-catcher.js)",
  },
  {
    name: 'MAIL_CATCHER_SMTP_PORT',
    type: 'int',
    default: 0,
    documentedDefault: 'free port',
    meaning: 'SMTP port of the embedded mail catcher under npm start, when SMTP_URL is unset',
  },
  {
    name: 'WITH_BROWSER',
    type: 'text',
    meaning: "1: scripts/setup.sh also installs Debian's chromium (the browser tests need it)",
  },
] as const);

/** Every declared variable of the service: the README's configuration table lists each. */
export const ALL_SETTINGS: readonly SettingsDeclaration[] = [
  ...new Set([...API_SETTINGS, ...WORKER_SETTINGS]),
  SCRIPT_SETTINGS,
];
