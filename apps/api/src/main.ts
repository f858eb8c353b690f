import { listeningOrigin, runProcess } from '../../process-main';
import { API_SETTINGS } from './api-settings';
import { API_PREFIX, closeApiApp, createApiApp, TOKEN_PATH } from './bootstrap';

runProcess({
  name: 'api',
  declarations: API_SETTINGS,
  create: createApiApp,
  close: closeApiApp,
  serve: (app, settings) => app.listen(settings.port, settings.host),
  started: (settings) => {
    const origin = listeningOrigin(settings);
    return `api listening: ${origin}/${API_PREFIX} (token: ${origin}/${TOKEN_PATH})`;
  },
});
