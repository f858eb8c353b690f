import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance, FastifyRequest } from 'fastify';

type Router = ReturnType<typeof FindMyWay>;

/** Media types a request body may have (the token endpoint has its own: a form). */
const JSON_MEDIA_TYPE = /^application\/(json|json-patch\+json|[\w.+-]+\+json)$|^text\/json$/i;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * HTTP semantics Fastify leaves to the application:
 * - a known path asked with a method it does not serve: 405 with `Allow` (Fastify answers
 *   404, as for an unknown path);
 * - a request body of another media type than JSON: 415 naming the type (Fastify would
 *   parse text/plain and forms and let validation refuse them with 400, or accept them).
 * Both answer in the service's error shape.
 */
export function installHttpSemantics(
  fastify: FastifyInstance,
  options: { formRoutes: string[] },
): void {
  // Every route as it is registered, in a router of our own: asked for a concrete path,
  // it tells which methods serve it.
  const routes = FindMyWay({ ignoreTrailingSlash: true });
  fastify.addHook('onRoute', (route) => {
    // `on` drops a trailing slash (ignoreTrailingSlash) but `hasRoute` does not: a plugin
    // route at its prefix's root comes as `/x` and `/x/` (the queue dashboard's page), and
    // declaring the second would throw (failing the plugin's registration).
    const url =
      route.url.length > 1 && route.url.endsWith('/') ? route.url.slice(0, -1) : route.url;
    for (const method of [route.method].flat()) {
      if (!routes.hasRoute(method as HTTPMethod, url)) {
        routes.on(method as HTTPMethod, url, () => undefined);
      }
    }
  });
  const formRoutes = new Set(options.formRoutes);

  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.is404) {
      const allowed = allowedMethods(routes, request.url);
      if (!allowed.length) return done();
      void reply
        .status(405)
        .header('Allow', allowed.join(', '))
        .send({
          Message: `Method ${request.method} is not allowed on ${pathOf(request.url)}; allowed: ${allowed.join(', ')}`,
        });
      return;
    }
    const refusal = mediaTypeRefusal(request, formRoutes);
    if (refusal) {
      void reply.status(415).send({ Message: refusal });
      return;
    }
    done();
  });
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The methods a path is served with; none for a path nothing serves. OPTIONS (CORS
 * preflights, when enabled, answer every path) counts only beside another method.
 */
function allowedMethods(routes: Router, url: string): string[] {
  const path = pathOf(url);
  const allowed: string[] = METHODS.filter((method) => routes.find(method, path) !== null);
  if (allowed.length && routes.find('OPTIONS', path) !== null) allowed.push('OPTIONS');
  return allowed;
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

/** Why the request's body is refused for its media type, or null. */
function mediaTypeRefusal(request: FastifyRequest, formRoutes: Set<string>): string | null {
  if (!BODY_METHODS.has(request.method) || !hasBody(request)) return null;
  const route = request.routeOptions.url;
  if (route !== undefined && formRoutes.has(route)) return null;
  const header = request.headers['content-type'];
  const mediaType = header?.split(';')[0].trim();
  if (!mediaType) {
    return 'A request body needs a Content-Type header: send application/json';
  }
  if (JSON_MEDIA_TYPE.test(mediaType)) return null;
  return `Content-Type ${mediaType} is not supported here: send application/json`;
}
