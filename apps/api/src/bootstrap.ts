import type { FastifyInstance } from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Settings } from '@app/shared';
import { CONFIRM_ROUTE } from '@app/consents';
import { CENTRE_ROUTE, GPC_WELL_KNOWN_PATH, UNSUBSCRIBE_ROUTE } from '@app/preference-centre';
import { ApiModule } from './api.module';
import { API_PREFIX, closeHttpApp, createHttpApp, type HttpAppSpec } from './http/http-app';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { guardQueueDashboard, QUEUE_DASHBOARD_PATH } from './queue-dashboard';

export { API_PREFIX } from './http/http-app';
export const TOKEN_PATH = 'oauth2/v1/token';

/** The api: every lib's routes (apps/decisions lifts the contact decisions alone). */
function apiSpec(settings: Settings): HttpAppSpec {
  return {
    name: 'api',
    module: ApiModule.register(settings),
    // The double opt-in link's page: a public path of its own (confirmation-paths.ts).
    unprefixed: [TOKEN_PATH, QUEUE_DASHBOARD_PATH, GPC_WELL_KNOWN_PATH, CONFIRM_ROUTE],
    // Forms: the token endpoint, and the preference centre's page and one-click unsubscribe.
    formRoutes: [
      `/${TOKEN_PATH}`,
      `/${API_PREFIX}/:clientId/${CENTRE_ROUTE}`,
      `/${API_PREFIX}/:clientId/${UNSUBSCRIBE_ROUTE}`,
    ],
    installHooks: (fastify: FastifyInstance) => {
      // After the HTTPS check, so a browser is not prompted for the operator token over HTTP.
      if (settings.queueDashboardEnabled) guardQueueDashboard(fastify, settings);
    },
    openApi: (app) => buildOpenApiDocument(app),
  };
}

/**
 * Builds the api application (not yet listening) with the HTTP plumbing every app shares
 * (http/http-app.ts). `main.ts` and the end-to-end tests both use it, so tests see what runs.
 */
export function createApiApp(settings = new Settings()): Promise<NestFastifyApplication> {
  return createHttpApp(settings, apiSpec(settings));
}

/** Closes an api in order (see closeHttpApp): drain, then the modules. */
export function closeApiApp(app: NestFastifyApplication, settings: Settings): Promise<void> {
  return closeHttpApp(app, settings);
}
