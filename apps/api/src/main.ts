import { Logger } from '@nestjs/common';
import { loadSettings, onTermination, SettingsError } from '@app/shared';
import { API_SETTINGS } from './api-settings';
import { API_PREFIX, closeApiApp, createApiApp, TOKEN_PATH } from './bootstrap';

async function main(): Promise<void> {
  // The whole environment, checked against every variable the api declares, before
  // anything reads a setting: a bad value stops here, one line per bad variable.
  const settings = loadSettings(API_SETTINGS);
  const app = await createApiApp(settings);
  await app.listen(settings.port, settings.host);
  onTermination('api', () => closeApiApp(app, settings));
  const origin = `${settings.tlsCertFile ? 'https' : 'http'}://${settings.host}:${settings.port}`;
  Logger.log(`api listening: ${origin}/${API_PREFIX} (token: ${origin}/${TOKEN_PATH})`, 'api');
}

void main().catch((error: unknown) => {
  // Bad settings: their message alone (each bad variable and its value), no stack trace.
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
});
