import { BullAdapter } from '@bull-board/api/bullAdapter';
import { FastifyAdapter as BullBoardFastifyAdapter } from '@bull-board/fastify';
import { BullBoardModule } from '@bull-board/nestjs';
import { type DynamicModule, Module } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  JOBS_QUEUE,
  OPERATOR_BROWSER_CHALLENGE,
  operatorRefusal,
  routeOptionsOf,
  type Settings,
} from '@app/shared';

/**
 * The queue dashboard (bull-board) of the api only (the worker does not load it): its page,
 * its assets and its JSON API under /admin/queues, outside the API prefix like /health and
 * /metrics, and not in the OpenAPI document (bull-board's routes are Fastify routes, not
 * Nest controllers).
 */
export const QUEUE_DASHBOARD_PATH = 'admin/queues';
const BASE = `/${QUEUE_DASHBOARD_PATH}`;

/** Methods that only read: a browser sends any other one from another site only on purpose. */
const READ_METHODS = new Set(['GET', 'HEAD']);
/** Sec-Fetch-Site values of a request the dashboard's own page (or no page) sent. */
const OWN_SITE = new Set(['same-origin', 'none']);

/** bull-board's Nest module, mounted at QUEUE_DASHBOARD_PATH, over the job queue. */
@Module({})
export class QueueDashboardModule {
  static register(): DynamicModule {
    return {
      module: QueueDashboardModule,
      imports: [
        // Registers its Fastify plugin at `BASE` when Nest configures middleware (app.init):
        // the global prefix excludes QUEUE_DASHBOARD_PATH (bootstrap.ts), so no prefix.
        BullBoardModule.forRoot({
          route: BASE,
          adapter: BullBoardFastifyAdapter,
          boardOptions: { uiConfig: { boardTitle: 'PCP queues' } },
        }),
        BullBoardModule.forFeature({ name: JOBS_QUEUE, adapter: BullAdapter }),
      ],
    };
  }
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function isDashboardRequest(request: FastifyRequest): boolean {
  // The route a request matched (however its path was encoded), or else its path.
  const route = routeOptionsOf(request).url ?? pathOf(request.url);
  return route === BASE || route.startsWith(`${BASE}/`);
}

/**
 * Every dashboard request (page, assets, JSON API) needs the operator credential, checked
 * as OperatorGuard checks it (operatorRefusal): 403 while OPERATOR_TOKEN is unset, else 401
 * with a Basic challenge (a browser prompts; the token is the password, any user name).
 * Basic credentials a browser keeps are sent with any request to the api, another site's
 * too: a dashboard request that changes something (PUT, POST, PATCH) is refused 403 when the
 * browser says another page sent it (Sec-Fetch-Site).
 */
export function guardQueueDashboard(fastify: FastifyInstance, settings: Settings): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!isDashboardRequest(request)) return done();
    const refusal = operatorRefusal(
      settings,
      request.headers.authorization,
      OPERATOR_BROWSER_CHALLENGE,
    );
    if (refusal) {
      void reply
        .status(refusal.getStatus())
        .headers(refusal.headers)
        .send({ Message: refusal.message });
      return;
    }
    const site = request.headers['sec-fetch-site'];
    if (!READ_METHODS.has(request.method) && typeof site === 'string' && !OWN_SITE.has(site)) {
      void reply
        .status(403)
        .send({ Message: `The queue dashboard refuses a ${request.method} sent by another site` });
      return;
    }
    done();
  });
}
