import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Settings } from '@app/shared';
import { closeHttpApp, createHttpApp } from '../../api/src/http/http-app';
import { buildOpenApiDocument } from '../../api/src/openapi/openapi-document';
import { DecisionsAppModule } from './decisions-app.module';

/**
 * Builds the lifted decisions app (not yet listening) with the HTTP plumbing the api uses
 * (apps/api/src/http/http-app.ts): the same prefix, errors, deadlines and auth, the
 * contact decision routes and health only. Bearer tokens come from the api's token
 * endpoint (the same JWT_SECRET); CUSTOMAUTH3 headers are checked here as there.
 */
export function createDecisionsApp(settings = new Settings()): Promise<NestFastifyApplication> {
  return createHttpApp(settings, {
    name: 'decisions',
    module: DecisionsAppModule.register(settings),
    unprefixed: [],
    formRoutes: [],
    openApi: (app) =>
      buildOpenApiDocument(app, {
        title: 'Contact decisions (lifted from the Preference, Consent and Profile service)',
      }),
  });
}

/** Closes the app in order (see closeHttpApp): drain, then the modules. */
export function closeDecisionsApp(app: NestFastifyApplication, settings: Settings): Promise<void> {
  return closeHttpApp(app, settings);
}
