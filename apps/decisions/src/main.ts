import { API_PREFIX } from '../../api/src/http/http-app';
import { listeningOrigin, runProcess } from '../../process-main';
import { closeDecisionsApp, createDecisionsApp } from './bootstrap';
import { DECISIONS_SETTINGS } from './decisions-settings';

runProcess({
  name: 'decisions',
  declarations: DECISIONS_SETTINGS,
  create: createDecisionsApp,
  close: closeDecisionsApp,
  serve: (app, settings) => app.listen(settings.port, settings.host),
  started: (settings) =>
    `decisions listening: ${listeningOrigin(settings)}/${API_PREFIX}/{clientId}/ContactDecision`,
});
