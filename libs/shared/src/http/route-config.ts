import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyRequest } from 'fastify';

/**
 * Adds `config` to the Fastify route config of a handler (`request.routeOptions.config`),
 * merged with what other decorators put there (Nest's `@RouteConfig` replaces it whole).
 * The api's Fastify hooks read these flags: the route-specific work of a hook then costs
 * other routes a property read, where a Nest interceptor would cost every request of its
 * route an AsyncResource binding.
 */
export function withRouteConfig(config: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object;
    const existing = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as
      Record<string, unknown> | undefined;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, ...config }, handler);
    return descriptor;
  };
}

const ROUTE_OPTIONS = Symbol('routeOptions');

interface RouteOptionsHolder {
  [ROUTE_OPTIONS]?: FastifyRequest['routeOptions'];
}

/**
 * `request.routeOptions`, made once per request: Fastify's getter builds a new object of 13
 * fields on every read, and the api's hooks read it five or six times per request.
 */
export function routeOptionsOf(request: FastifyRequest): FastifyRequest['routeOptions'] {
  const holder = request as FastifyRequest & RouteOptionsHolder;
  return (holder[ROUTE_OPTIONS] ??= request.routeOptions);
}
