import { Logger } from '@nestjs/common';
import { loadSettings, onTermination, SettingsError } from '@app/shared';
import { API_PREFIX } from '../../api/src/http/http-app';
import { closeDecisionsApp, createDecisionsApp } from './bootstrap';
import { DECISIONS_SETTINGS } from './decisions-settings';

async function main(): Promise<void> {
  const settings = loadSettings(DECISIONS_SETTINGS);
  const app = await createDecisionsApp(settings);
  await app.listen(settings.port, settings.host);
  onTermination('decisions', () => closeDecisionsApp(app, settings));
  const origin = `${settings.tlsCertFile ? 'https' : 'http'}://${settings.host}:${settings.port}`;
  Logger.log(
    `decisions listening: ${origin}/${API_PREFIX}/{clientId}/ContactDecision`,
    'decisions',
  );
}

void main().catch((error: unknown) => {
  console.error(error instanceof SettingsError ? error.message : error);
  process.exit(1);
});
