import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { ApiAuth, type PermissionAccess, TenantController } from '@app/auth';
import { ApiIntParam, type BodyExamples, LocationHeader, patchBodySchema } from '@app/shared';
import type { LinkObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiListQuery } from './entry-request';
import { PatchOperationDto } from './patch-operation.dto';

/*
 * The kinds of route every configuration area has, each one decorator: who may call it, its
 * path id and what it answers, so the areas' controllers say only what differs.
 */

/** The 409 of a create whose names must be new and distinct. */
export const NAME_TAKEN_OR_REPEATED = 'A name exists already or is given twice in the body';

/**
 * A configuration controller at `path` (under `:clientId`): its tag, the `{clientId}`
 * parameter, the 400 of every route and a shared 404.
 */
export function ConfigController(
  path: string,
  options: { tag?: string; notFound?: string } = {},
): ClassDecorator {
  return TenantController(path, {
    tag: options.tag ?? 'Configuration',
    notFound: options.notFound,
  });
}

/** What a configuration route documents besides its answers. */
export interface ConfigRouteDocs {
  summary: string;
  description?: string;
  /** The int32 path id of the entry (EntryIdParam): its name, or name and description. */
  id?: string | { name: string; description: string };
  /** A 404 of this route, besides the controller's. */
  notFound?: string;
}

type OkRouteDocs = ConfigRouteDocs & { ok: Type<unknown> };

/** A read: configuration read permission, 200 with `ok`. */
export function ConfigRead(docs: OkRouteDocs): MethodDecorator {
  return answersOk('read', docs);
}

/** Another change of one entry (a PUT, say): configuration write permission, 200 with `ok`. */
export function ConfigWrite(docs: OkRouteDocs): MethodDecorator {
  return answersOk('write', docs);
}

/**
 * A list of entries: configuration read permission, the `Id` query and, unless `locale` is
 * false, the `locale` query (what ListQueryParam reads); 200 with `ok`.
 */
export function ConfigList(docs: OkRouteDocs & { locale?: boolean }): MethodDecorator {
  return applyDecorators(ConfigRead(docs), ApiListQuery({ locale: docs.locale }));
}

/**
 * A create of entries: configuration write permission, 201 with `created` (`Location`: the
 * collection posted to, where the new entries are listed: one create makes several), 409
 * `conflict` (by default: a name taken or repeated). `body` documents the body (needed where the
 * explorer cannot see it, one validated by a pipe of its own, and with `examples`).
 */
export function ConfigCreate(
  docs: ConfigRouteDocs & {
    created: Type<unknown>;
    conflict?: string;
    body?: Type<unknown>;
    /** Request-body examples (the configuration module's `*_EXAMPLES`). */
    examples?: BodyExamples<unknown>;
    /** OpenAPI links of the 201: where the (first) created entry is read and changed. */
    links?: Record<string, LinkObject>;
  },
): MethodDecorator {
  return applyDecorators(
    HttpCode(201),
    LocationHeader((_created, path) => ({ location: path })),
    ...routeDocs('write', docs),
    ...(docs.body ? [ApiBody({ type: docs.body, examples: docs.examples })] : []),
    ApiCreatedResponse({
      type: docs.created,
      description: 'Created; Location: the collection, where the new entries are listed',
      ...(docs.links ? { links: docs.links } : {}),
    }),
    ApiConflictResponse({ description: docs.conflict ?? NAME_TAKEN_OR_REPEATED }),
  );
}

/**
 * A PATCH of one entry: configuration write permission, a JSON array of operations (with
 * `examples` of it), 200 with `ok`, 409 `conflict`.
 */
export function ConfigPatch(
  docs: OkRouteDocs & { conflict: string; examples: BodyExamples<PatchOperationDto[]> },
): MethodDecorator {
  return applyDecorators(
    answersOk('write', docs),
    ApiExtraModels(PatchOperationDto),
    ApiBody({ schema: patchBodySchema(PatchOperationDto), examples: docs.examples }),
    ApiConflictResponse({ description: docs.conflict }),
  );
}

function answersOk(access: PermissionAccess, docs: OkRouteDocs): MethodDecorator {
  return applyDecorators(...routeDocs(access, docs), ApiOkResponse({ type: docs.ok }));
}

/** Who may call the route (configuration `access`) and what it documents besides answers. */
function routeDocs(
  access: PermissionAccess,
  { summary, description, id, notFound }: ConfigRouteDocs,
): MethodDecorator[] {
  const decorators: MethodDecorator[] = [
    ApiAuth('configuration', access),
    ApiOperation({ summary, description }),
  ];
  if (id !== undefined) {
    decorators.push(
      typeof id === 'string' ? ApiIntParam(id) : ApiIntParam(id.name, id.description),
    );
  }
  if (notFound) decorators.push(ApiNotFoundResponse({ description: notFound }));
  return decorators;
}
