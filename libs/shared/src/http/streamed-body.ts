import { ApiExtension } from '@nestjs/swagger';
import type { Readable } from 'node:stream';
import { withRouteConfig } from './route-config';

/** Route config key of the media types a route takes as a stream (see `AcceptsStream`). */
export const STREAMED_MEDIA_TYPES = 'streamedMediaTypes';

/** Media types of newline-delimited JSON (one JSON value per line). */
export const NDJSON_MEDIA_TYPES = ['application/x-ndjson', 'application/ndjson'];

/**
 * A request body handed to its handler unread: the api's parser for a streamed media type
 * wraps the request stream in this, so the handler reads it piece by piece (never the whole
 * body in memory) and hooks that read bodies (the body bounds, the Idempotency-Key
 * fingerprint) can tell it from a parsed JSON body. The route's body limit is the
 * reader's to enforce (Fastify does not count a stream it does not read).
 */
export class StreamedBody {
  constructor(
    readonly stream: Readable,
    readonly mediaType: string,
  ) {}
}

/**
 * A route that takes these media types (e.g. NDJSON) as a stream, besides JSON: the api
 * lets them through its 415 check on this route only, and its parser wraps them in a
 * StreamedBody.
 */
export const AcceptsStream = (mediaTypes: string[]): MethodDecorator =>
  withRouteConfig({ [STREAMED_MEDIA_TYPES]: mediaTypes });

/** The OpenAPI extension `ApiStreamedBody` documents a route's streamed media types by. */
export const STREAMED_BODY = 'x-streamed-body';

/**
 * Documents the streamed media types of an `@AcceptsStream` route, each with its schema (and
 * an example body): the api's document builder moves them into the operation's requestBody,
 * beside JSON.
 */
export const ApiStreamedBody = (
  content: Record<string, { schema: object; example?: string }>,
): MethodDecorator => ApiExtension(STREAMED_BODY, content);
