import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routeOptionsOf, STREAMED_MEDIA_TYPES } from '@app/shared';

type Router = ReturnType<typeof FindMyWay>;

/** Media types a request body may have (the token endpoint has its own: a form). */
const JSON_MEDIA_TYPE = /^application\/(json|json-patch\+json|[\w.+-]+\+json)$|^text\/json$/i;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * HTTP semantics Fastify leaves to the application:
 * - a known path asked with a method it does not serve: 405 with `Allow` (Fastify answers
 *   404, as for an unknown path); also when that method is served only by a route with a
 *   parameter where the path's route has a literal segment (`PATCH .../Programs/IncludeAll`
 *   is not `PATCH .../Programs/:programId` with the id "IncludeAll": that path is the
 *   literal route of GET, so 405 with `Allow: GET, HEAD`);
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
  const shadowing = new ShadowingRoutes();
  fastify.addHook('onRoute', (route) => {
    // `on` drops a trailing slash (ignoreTrailingSlash) but `hasRoute` does not: a plugin
    // route at its prefix's root comes as `/x` and `/x/` (the queue dashboard's page), and
    // declaring the second would throw (failing the plugin's registration).
    const url =
      route.url.length > 1 && route.url.endsWith('/') ? route.url.slice(0, -1) : route.url;
    for (const method of [route.method].flat()) {
      if (!routes.hasRoute(method as HTTPMethod, url)) {
        routes.on(method as HTTPMethod, url, () => undefined, { url });
        shadowing.add(method, url);
      }
    }
  });
  const formRoutes = new Set(options.formRoutes);

  fastify.addHook('onRequest', (request, reply, done) => {
    const allowed = request.is404
      ? allowedMethods(routes, shadowing, request.url)
      : shadowing.allowedInstead(request.method, routeOptionsOf(request).url, request.url);
    // The method serves the path but for a trailing slash (Fastify tells them apart): a 404.
    const wrongMethod = allowed?.length && !(request.is404 && allowed.includes(request.method));
    if (wrongMethod) {
      void reply
        .status(405)
        .header('Allow', allowed.join(', '))
        .send({
          Message: `Method ${request.method} is not allowed on ${pathOf(request.url)}; allowed: ${allowed.join(', ')}`,
        });
      return;
    }
    if (request.is404) return done();
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
function allowedMethods(routes: Router, shadowing: ShadowingRoutes, url: string): string[] {
  const path = pathOf(url);
  const matched = METHODS.filter((method) => routes.find(method, path) !== null);
  // A literal route's path: only its own methods, not those of a parametric route beside it
  // (GET .../Profile/Email, not PUT .../Profile/:profileId).
  for (const method of matched) {
    const route = (routes.find(method, path)?.store as { url?: string } | undefined)?.url;
    const instead = shadowing.allowedInstead(method, route, url);
    if (instead) return instead;
  }
  const allowed: string[] = matched;
  if (allowed.length && routes.find('OPTIONS', path) !== null) allowed.push('OPTIONS');
  return allowed;
}

/** A literal route that may shadow a parametric one: its pattern and its segments. */
interface Shadowing {
  pattern: string;
  segments: string[];
}

/**
 * Routes with a literal segment where another route of the same shape has a parameter
 * (`.../Programs/IncludeAll` beside `.../Programs/:programId`). A request the parametric
 * route serves whose path is such a literal route of other methods is that route asked with
 * a method it does not serve. Which literal routes may shadow a route is worked out once
 * per route (most have none: a request then costs a map lookup).
 */
class ShadowingRoutes {
  /** Route pattern → the methods registered for it. */
  private readonly methods = new Map<string, Set<string>>();
  /** Method → pattern → the literal routes that may shadow it (computed on first use). */
  private readonly candidates = new Map<string, Map<string, Shadowing[]>>();

  add(method: string, url: string): void {
    const key = trimSlash(url);
    let methods = this.methods.get(key);
    if (!methods) this.methods.set(key, (methods = new Set()));
    methods.add(method);
    this.candidates.clear();
  }

  /** The methods of the literal route the request's path is, or null. */
  allowedInstead(method: string, route: string | undefined, url: string): string[] | null {
    if (route === undefined || !route.includes(':')) return null;
    // Maps by method, then pattern: no key string made per request.
    let ofMethod = this.candidates.get(method);
    if (!ofMethod) this.candidates.set(method, (ofMethod = new Map()));
    let candidates = ofMethod.get(route);
    if (!candidates) ofMethod.set(route, (candidates = this.shadowing(method, route)));
    if (!candidates.length) return null;
    const segments = trimSlash(pathOf(url)).split('/');
    for (const candidate of candidates) {
      if (candidate.segments.length !== segments.length) continue;
      const matches = candidate.segments.every(
        (segment, i) => segment.startsWith(':') || segment === safeDecode(segments[i]),
      );
      if (!matches) continue;
      const allowed = METHODS.filter((m) => this.methods.get(candidate.pattern)?.has(m));
      if (allowed.length && this.methods.get(candidate.pattern)?.has('OPTIONS')) {
        allowed.push('OPTIONS');
      }
      return allowed;
    }
    return null;
  }

  /**
   * Patterns not registered for `method`, of as many segments as `route`, equal to it but
   * for at least one segment that is literal there and a parameter in `route` (and none the
   * other way round).
   */
  private shadowing(method: string, route: string): Shadowing[] {
    const own = trimSlash(route).split('/');
    if (own.some((segment) => segment.includes('*'))) return [];
    const found: Shadowing[] = [];
    for (const [pattern, methods] of this.methods) {
      if (methods.has(method)) continue;
      const segments = pattern.split('/');
      if (segments.length !== own.length || segments.some((s) => s.includes('*'))) continue;
      let literalWhereParameter = false;
      const compatible = segments.every((segment, i) => {
        const mine = own[i];
        if (mine.startsWith(':')) {
          if (!segment.startsWith(':')) literalWhereParameter = true;
          return true;
        }
        return segment === mine;
      });
      if (compatible && literalWhereParameter) found.push({ pattern, segments });
    }
    return found;
  }
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

/** Why the request's body is refused for its media type, or null. */
function mediaTypeRefusal(request: FastifyRequest, formRoutes: Set<string>): string | null {
  if (!BODY_METHODS.has(request.method) || !hasBody(request)) return null;
  const route = routeOptionsOf(request).url;
  if (route !== undefined && formRoutes.has(route)) return null;
  const header = request.headers['content-type'];
  const mediaType = header?.split(';')[0].trim();
  if (!mediaType) {
    return 'A request body needs a Content-Type header: send application/json';
  }
  if (JSON_MEDIA_TYPE.test(mediaType)) return null;
  const streamed = (routeOptionsOf(request).config as { [STREAMED_MEDIA_TYPES]?: string[] })?.[
    STREAMED_MEDIA_TYPES
  ];
  if (streamed?.includes(mediaType.toLowerCase())) return null;
  const accepted = ['application/json', ...(streamed ?? [])].join(' or ');
  return `Content-Type ${mediaType} is not supported here: send ${accepted}`;
}
