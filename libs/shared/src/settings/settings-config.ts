import type { DynamicModule } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { checkSettings, type SettingsDeclaration } from './setting-spec';
import { Settings } from './settings';
import { SHARED_SETTINGS } from './shared-settings';

/**
 * Every declaration a process reads: the process settings' own and those the app lists
 * (its libs' declarations and its scheduled jobs' intervals: `scheduledJobSettings`).
 */
function processDeclarations(
  declarations: readonly SettingsDeclaration[],
): readonly SettingsDeclaration[] {
  return [
    SHARED_SETTINGS,
    ...declarations.filter((declaration) => declaration !== SHARED_SETTINGS),
  ];
}

/**
 * The process settings, after the whole environment was checked against every declaration
 * of the process: a bad value anywhere stops the start with one SettingsError naming every
 * bad variable and its value (main.ts prints it and exits 1). main.ts starts with this,
 * before anything reads a setting (the listener's PORT, TLS, LOG_LEVEL).
 */
export function loadSettings(
  declarations: readonly SettingsDeclaration[],
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  checkSettings(processDeclarations(declarations), env);
  return new Settings(env);
}

/**
 * @nestjs/config for an app: `validate` checks the environment the process settings were
 * read from (process.env in main.ts, a test's own) against every declaration of the
 * process, at start (when the app's module is built), and throws one SettingsError naming
 * every bad variable and its value (secrets masked), which stops the start. No .env file
 * is read, and process.env is neither read (a test's app has its own environment) nor
 * written (the checked values are returned by owner, `{ auth: { JWT_SECRET } }`, which
 * ConfigService serves as `auth.JWT_SECRET` and @nestjs/config does not copy into
 * process.env). The settings classes read the same values through the same declarations.
 */
export function settingsConfigModule(
  declarations: readonly SettingsDeclaration[],
  settings: Settings,
): Promise<DynamicModule> {
  return ConfigModule.forRoot({
    isGlobal: true,
    ignoreEnvFile: true,
    validatePredefined: false,
    skipProcessEnv: true,
    validate: () => checkSettings(processDeclarations(declarations), settings.env),
  });
}
