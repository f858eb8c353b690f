import { Logger } from '@nestjs/common';
import { onTermination, Settings } from '@app/shared';
import { API_PREFIX, closeApiApp, createApiApp, TOKEN_PATH } from './bootstrap';

async function main(): Promise<void> {
  const settings = new Settings();
  const app = await createApiApp(settings);
  await app.listen(settings.port, settings.host);
  onTermination('api', () => closeApiApp(app, settings));
  const origin = `${settings.tlsCertFile ? 'https' : 'http'}://${settings.host}:${settings.port}`;
  Logger.log(`api listening: ${origin}/${API_PREFIX} (token: ${origin}/${TOKEN_PATH})`, 'api');
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
