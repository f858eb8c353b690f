import { withRouteConfig } from './route-config';

/** Route config key of a route's own body limit (see `BodyLimit`). */
export const BODY_LIMIT = 'bodyLimitOf';

/** Reads a route's body limit, in bytes, from the process environment (its settings). */
export type BodyLimitOf = (env: NodeJS.ProcessEnv) => number;

/**
 * A route whose request body may be larger than the api's default (1 MiB): the limit is a
 * setting, read from the process environment when the route is registered (the api's
 * `onRoute` hook sets Fastify's `bodyLimit` of the route from it). Above it: 413.
 */
export const BodyLimit = (limitOf: BodyLimitOf): MethodDecorator =>
  withRouteConfig({ [BODY_LIMIT]: limitOf });
