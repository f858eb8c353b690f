import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routeOptionsOf, withRouteConfig } from './route-config';

/** Where a created or accepted resource is, relative to the api's base (prefix + client). */
export interface ResourceLocation {
  /** Path below `/{prefix}/{clientId}/`, e.g. `Profile/42`. */
  location: string;
  /** Further links of the answer: `Link: <{base}/{path}>; rel="{rel}"`. */
  links?: { path: string; rel: string }[];
}

/** Finds the location in the handler's answer; `path` is the request's, below the base. */
type Locate = (result: unknown, path: string) => ResourceLocation | undefined;

/**
 * The base the client addressed: the prefix as it was sent (the legacy /Profiles/v2 stays
 * v2) and the client id of the route.
 */
function baseOf(request: FastifyRequest): string {
  const original = request.originalUrl ?? request.url;
  const prefix = /^\/profiles\/v[24](?=\/|$|\?)/i.exec(original)?.[0] ?? '/Profiles/v4';
  const clientId = (request.params as { clientId?: string } | undefined)?.clientId;
  return clientId === undefined ? prefix : `${prefix}/${encodeURIComponent(clientId)}`;
}

/** The request's path below the base (no query). */
function pathBelow(request: FastifyRequest, base: string): string {
  const path = (request.originalUrl ?? request.url).split('?')[0];
  return path.length > base.length ? path.slice(base.length + 1) : '';
}

/** Route config key of the `locate` function of a route (see `LocationHeader`). */
const LOCATE = 'locate';

/**
 * Sets `Location` (and `Link`) on a 201 or 202 from what the handler answered; nothing when
 * `locate` finds no resource in it. Done by the api's preSerialization hook
 * (`installLocationHeaders`), which sees the answer before it is serialized.
 */
export function LocationHeader(locate: Locate): MethodDecorator {
  return withRouteConfig({ [LOCATE]: locate });
}

export function installLocationHeaders(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const config = routeOptionsOf(request).config as { [LOCATE]?: Locate } | undefined;
    const locate = config?.[LOCATE];
    if (!locate || reply.statusCode >= 300) return done(null, payload);
    const base = baseOf(request);
    const found = locate(payload, pathBelow(request, base));
    if (found) {
      void reply.header('Location', `${base}/${found.location}`);
      if (found.links?.length) {
        void reply.header(
          'Link',
          found.links.map((link) => `<${base}/${link.path}>; rel="${link.rel}"`).join(', '),
        );
      }
    }
    done(null, payload);
  });
}
