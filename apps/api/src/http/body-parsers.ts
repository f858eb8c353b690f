import { HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseForm } from 'node:querystring';
import secureJson from 'secure-json-parse';
import {
  ApiError,
  BODY_LIMIT,
  type BodyLimitOf,
  NDJSON_MEDIA_TYPES,
  StreamedBody,
} from '@app/shared';

/** Request bodies the spec accepts as JSON, besides application/json. */
const JSON_TYPES = ['application/json', 'text/json', 'application/json-patch+json'];
const VENDOR_JSON_TYPE = /^application\/[\w.+-]+\+json$/;

type Done = (error: Error | null, body?: unknown) => void;

function badBody(message: string): Error {
  return new ApiError(HttpStatus.BAD_REQUEST, message);
}

/**
 * JSON bodies, parsed as Fastify would (a `__proto__` or `constructor.prototype` key is
 * refused: prototype poisoning), with a message that says what is wrong: Fastify's own
 * parser answers "not valid JSON" for a valid body holding such a key, too.
 */
function parseJson(_request: FastifyRequest, body: string, done: Done): void {
  if (body.trim() === '') {
    done(badBody('The request body is empty: send a JSON value'));
    return;
  }
  try {
    done(null, secureJson.parse(body, { protoAction: 'error', constructorAction: 'error' }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/forbidden prototype property/i.test(message)) {
      done(badBody('The body holds a "__proto__" key, which is refused; remove it'));
    } else if (/forbidden constructor property/i.test(message)) {
      done(
        badBody(
          'The body holds a "constructor" key with a "prototype", which is refused; remove it',
        ),
      );
    } else {
      done(badBody(`The body is not valid JSON: ${message}`));
    }
  }
}

/**
 * The api's body parsers (Nest's are turned off): JSON for every JSON media type, and the
 * form of the OAuth token endpoint (which http-semantics.ts keeps to that route).
 */
export function installBodyParsers(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, parseJson);
  fastify.addContentTypeParser(VENDOR_JSON_TYPE, { parseAs: 'string' }, parseJson);
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, { ...parseForm(body as string) }),
  );
  // Unread: the route's handler reads it as it arrives (http-semantics.ts lets these media
  // types through only on routes marked `@AcceptsStream`).
  fastify.addContentTypeParser(NDJSON_MEDIA_TYPES, (request, payload, done) =>
    done(null, new StreamedBody(payload, String(request.headers['content-type']))),
  );
}

/**
 * Routes declared with `@BodyLimit` get their own Fastify `bodyLimit` (the setting it
 * reads, e.g. the bulk stage's); every other route keeps Fastify's default of 1 MiB. A body
 * over the limit is refused before it is parsed: 413 in the `{"Message"}` shape.
 */
export function installRouteBodyLimits(fastify: FastifyInstance, env: NodeJS.ProcessEnv): void {
  fastify.addHook('onRoute', (route) => {
    const limitOf = (route.config as { [BODY_LIMIT]?: BodyLimitOf } | undefined)?.[BODY_LIMIT];
    if (limitOf) route.bodyLimit = limitOf(env);
  });
}
