import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ApiError, describeValidationErrors, type EditedDto } from '@app/shared';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate } from 'class-validator';
import { LOCALE_PATTERN } from '../common/localized-field.dto';
import { PatchOperationDto } from '../common/patch-operation.dto';

/*
 * Request plumbing shared by the consent-type, custom-field and picklist areas: path ids,
 * the list query (Id, locale, flags), PATCH bodies, DTO validation of a patched entry, the
 * Edited stamp and name normalisation. Candidates for libs/config/src/common.
 */

export const INT32_MAX = 2147483647;

/** A path id: a positive int32, else a 400 quoting the value as sent. */
export function parseEntryId(name: string, value: string | undefined): number {
  const id = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || id < 1 || id > INT32_MAX) {
    throw ApiError.badRequest(
      `Invalid ${name} (value ${JSON.stringify(value ?? null)}): must be an integer from 1 to ${INT32_MAX}`,
    );
  }
  return id;
}

/** `@EntryIdParam('typeId')`: the path segment parsed by `parseEntryId`. */
export const EntryIdParam = createParamDecorator((name: string, ctx: ExecutionContext): number => {
  const request = ctx.switchToHttp().getRequest<{ params: Record<string, string | undefined> }>();
  return parseEntryId(name, request.params[name]);
});

export interface ListQuery {
  /** 0: every entry. */
  id: number;
  locale?: string;
  /** Other query parameters, keyed by their lower-case names. */
  raw: Record<string, string>;
}

/**
 * `@ListQueryParam()`: the `Id` (int32, default 0) and `locale` query parameters of a
 * configuration list. Names match case-insensitively (`id`, `Locale`), as the original
 * service's clients send both spellings.
 */
export const ListQueryParam = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const request = ctx.switchToHttp().getRequest<{ query?: Record<string, unknown> }>();
  return parseListQuery(request.query ?? {});
});

export function parseListQuery(query: Record<string, unknown>): ListQuery {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      throw ApiError.badRequest(`Invalid query parameter ${key}: given more than once`);
    }
    raw[key.toLowerCase()] = String(value);
  }
  let id = 0;
  if (raw.id !== undefined && raw.id !== '') {
    if (!/^\d+$/.test(raw.id) || Number(raw.id) > INT32_MAX) {
      throw ApiError.badRequest(
        `Invalid Id (value ${JSON.stringify(raw.id)}): must be an integer from 0 to ${INT32_MAX}`,
      );
    }
    id = Number(raw.id);
  }
  const locale = raw.locale === undefined || raw.locale === '' ? undefined : raw.locale;
  if (locale !== undefined && !LOCALE_PATTERN.test(locale)) {
    throw ApiError.badRequest(
      `Invalid locale (value ${JSON.stringify(locale)}): must be a locale code such as en or fr-ca`,
    );
  }
  return { id, locale, raw };
}

/** A boolean query flag (`true`/`false`, any case; absent or empty: the default). */
export function booleanQueryFlag(query: ListQuery, name: string, fallback = false): boolean {
  const value = query.raw[name.toLowerCase()];
  if (value === undefined || value === '') return fallback;
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  throw ApiError.badRequest(
    `Invalid ${name} (value ${JSON.stringify(value)}): must be true or false`,
  );
}

/** Validates a PATCH body: a non-empty array of `{op, path, value, from}` operations. */
export async function parsePatchOperations(body: unknown): Promise<PatchOperationDto[]> {
  if (!Array.isArray(body) || body.length === 0) {
    throw ApiError.badRequest('The body must be a non-empty array of PATCH operations');
  }
  const problems: string[] = [];
  const operations: PatchOperationDto[] = [];
  for (const [index, item] of body.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(
        `Invalid Operations[${index}] (value ${JSON.stringify(item)}): must be an object`,
      );
      continue;
    }
    const [operation, errors] = await validatePlain(PatchOperationDto, item);
    problems.push(...describeValidationErrors(errors, `Operations[${index}]`));
    operations.push(operation);
  }
  if (problems.length) throw ApiError.badRequest(problems.join('; '));
  return operations;
}

async function validatePlain<T extends object>(
  type: ClassConstructor<T>,
  plain: object,
): Promise<[T, Awaited<ReturnType<typeof validate>>]> {
  const instance = plainToInstance(type, plain);
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: true },
  });
  return [instance, errors];
}

/**
 * Validates a patched entry with the same DTO rules as a create (the global pipe's
 * options), answering 400 with every problem named by its path.
 */
export async function validateEntry<T extends object>(
  type: ClassConstructor<T>,
  plain: unknown,
  path = '',
): Promise<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw ApiError.badRequest('The patched entry must be an object');
  }
  const [instance, errors] = await validatePlain(type, plain);
  if (errors.length) throw ApiError.badRequest(describeValidationErrors(errors, path).join('; '));
  return instance;
}

/** Edited as stored: ISO strings and user ids. */
@Schema({ _id: false })
export class StoredEdited {
  @Prop({ type: String }) CreateDate: string;
  @Prop({ type: String }) CreatedBy: string;
  @Prop({ type: String }) ModifiedDate: string;
  @Prop({ type: String }) ModifiedBy: string;
}
export const StoredEditedSchema = SchemaFactory.createForClass(StoredEdited);

export function editedOnCreate(userId: string, now: Date): StoredEdited {
  const at = now.toISOString();
  return { CreateDate: at, CreatedBy: userId, ModifiedDate: at, ModifiedBy: userId };
}

export function editedOnUpdate(
  previous: StoredEdited | undefined,
  userId: string,
  now: Date,
): StoredEdited {
  const at = now.toISOString();
  return {
    CreateDate: previous?.CreateDate ?? at,
    CreatedBy: previous?.CreatedBy ?? userId,
    ModifiedDate: at,
    ModifiedBy: userId,
  };
}

export function toEditedDto(edited: StoredEdited | undefined): EditedDto {
  return {
    CreateDate: edited?.CreateDate,
    CreatedBy: edited?.CreatedBy,
    ModifiedDate: edited?.ModifiedDate,
    ModifiedBy: edited?.ModifiedBy,
  };
}

/** How names compare for uniqueness: trimmed, runs of spaces folded, case-insensitive. */
export function nameKeyOf(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The names of `names` that appear more than once (compared by `nameKeyOf`). */
export function repeatedNames(names: string[]): string[] {
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const name of names) {
    const key = nameKeyOf(name);
    if (seen.has(key) && !repeated.some((other) => nameKeyOf(other) === key)) repeated.push(name);
    seen.add(key);
  }
  return repeated;
}

/** `null` for absent optional fields on the wire (so a PATCH `replace` can reach them). */
export function orNull<T>(value: T | undefined | null): T | null {
  return value === undefined || value === null ? null : value;
}

/** `undefined` for null (stored documents omit absent fields). */
export function orUndefined<T>(value: T | undefined | null): T | undefined {
  return value === undefined || value === null ? undefined : value;
}

/**
 * How often a change starts over when another writer saved the entry meanwhile: every lost
 * attempt means another writer succeeded, so this bounds the concurrent writers served.
 */
export const SAVE_ATTEMPTS = 10;
