import { hash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { routeOptionsOf, withRouteConfig } from './route-config';

/** Route config flag of a GET whose 200 answers carry an `ETag` (see `EntityTagged`). */
const ENTITY_TAGGED = 'entityTagged';

/**
 * The strong entity tag of a JSON answer: a hash of its bytes as sent. The one-shot
 * `crypto.hash` (no Hash object per answer) gives the same tag as createHash did.
 */
export function entityTagOf(json: string): string {
  let etag = recentTags.get(json);
  if (etag === undefined) {
    etag = `"${hash('sha256', json, 'base64url').slice(0, 27)}"`;
    if (recentTags.size >= RECENT_TAGS_MAX) recentTags.clear();
    recentTags.set(json, etag);
  }
  return etag;
}

/**
 * The tags of recent answers by their text. A warm GET sends the very string the read
 * model's rendering cache holds, and V8 keeps a string's hash in the string, so a hit costs
 * a pointer comparison instead of hashing the bytes (3 % of a GET's CPU, profile-api.js).
 * Bounded: cleared whole when full (a few MB of strings most of which are held elsewhere).
 */
const recentTags = new Map<string, string>();
const RECENT_TAGS_MAX = 2000;

/** Whether an If-None-Match / If-Match header lists the tag (`*` matches any). */
export function listsEntityTag(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * A GET whose 200 answer carries `ETag` (the hash of the bytes sent) and answers 304 without
 * a body when If-None-Match lists it. Done by the api's onSend hook (`installEntityTags`)
 * on the serialized answer, so the body is neither serialized twice nor intercepted.
 */
export const EntityTagged = (): MethodDecorator => withRouteConfig({ [ENTITY_TAGGED]: true });

export function installEntityTags(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const config = routeOptionsOf(request).config as { [ENTITY_TAGGED]?: boolean } | undefined;
    if (!config?.[ENTITY_TAGGED] || reply.statusCode !== 200 || typeof payload !== 'string') {
      return done(null, payload);
    }
    const etag = entityTagOf(payload);
    void reply.header('ETag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch === undefined || !listsEntityTag(ifNoneMatch, etag)) {
      return done(null, payload);
    }
    void reply.code(304).removeHeader('content-type');
    done(null, null);
  });
}
