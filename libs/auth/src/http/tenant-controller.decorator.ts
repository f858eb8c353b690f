import { applyDecorators, Controller } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import { MALFORMED_REQUEST } from '@app/shared';
import { ApiClientIdParam } from './api-auth.decorator';

/** What a tenant controller documents for all its routes. */
export interface TenantControllerDocs {
  /** The OpenAPI tag of its routes. */
  tag: string;
  /** The 400 of every route: MALFORMED_REQUEST unless given; false where none answers one. */
  badRequest?: string | false;
  /** A 404 every route answers (an unknown client, and what else its routes address). */
  notFound?: string;
}

/**
 * A controller of tenant routes at `path` (which holds `:clientId`): its tag, the
 * `{clientId}` parameter and the answers all its routes share, stated once per controller.
 */
export function TenantController(path: string, docs: TenantControllerDocs): ClassDecorator {
  const decorators: ClassDecorator[] = [ApiTags(docs.tag), ApiClientIdParam()];
  if (docs.badRequest !== false) {
    decorators.push(ApiBadRequestResponse({ description: docs.badRequest ?? MALFORMED_REQUEST }));
  }
  if (docs.notFound) decorators.push(ApiNotFoundResponse({ description: docs.notFound }));
  return applyDecorators(...decorators, Controller(path));
}
