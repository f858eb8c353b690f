import {
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
  type PipeTransform,
  type Type as ClassType,
} from '@nestjs/common';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { ApiQuery } from '@nestjs/swagger';
import {
  applyPatchOperations,
  describeValidationErrors,
  type EditedDto,
  INT32_MAX,
  InvalidInputError,
  parseBooleanValue,
  parseIntValue,
  type PatchOperation,
  textKey,
} from '@app/shared';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { LOCALE_PATTERN, LOCALE_QUERY_SCHEMA } from './localized-field.dto';

/*
 * Request plumbing of every configuration area: path ids, the list query (Id, locale, flags),
 * PATCH bodies, DTO validation of what the global pipe cannot see, the Edited stamp and name
 * normalisation.
 */

export { INT32_MAX } from '@app/shared';

/** `@EntryIdParam('typeId')`: the path segment as a positive int32, else a 400. */
export const EntryIdParam = createParamDecorator((name: string, ctx: ExecutionContext): number => {
  const request = ctx.switchToHttp().getRequest<{ params: Record<string, string | undefined> }>();
  return parseIntValue(name, request.params[name]);
});

/** The `Id` query parameter of a list: absent or empty is 0 (every entry). */
export function parseIdQuery(value: unknown): number {
  // Empty (`?Id=`) is refused like any non-integer: the document types it integer.
  return value === undefined ? 0 : parseIntValue('Id', value, { min: 0 });
}

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

/** Documents the `Id` query of a list (ListQueryParam, parseIdQuery), and `locale` unless told not to. */
export function ApiListQuery(options: { locale?: boolean } = {}): MethodDecorator {
  const decorators = [
    ApiQuery({
      name: 'Id',
      required: false,
      description: 'The id of one entry; 0 or absent (the default): every entry',
      schema: { type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX, default: 0 },
    }),
  ];
  if (options.locale !== false) {
    decorators.push(
      ApiQuery({
        name: 'locale',
        required: false,
        description: 'A locale code such as en or fr-ca (empty: none)',
        schema: LOCALE_QUERY_SCHEMA,
      }),
    );
  }
  return applyDecorators(...decorators);
}

export function parseListQuery(query: Record<string, unknown>): ListQuery {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      throw new InvalidInputError(`Invalid query parameter ${key}: given more than once`);
    }
    raw[key.toLowerCase()] = String(value);
  }
  const id = parseIdQuery(raw.id);
  const locale = raw.locale === undefined || raw.locale === '' ? undefined : raw.locale;
  if (locale !== undefined && !LOCALE_PATTERN.test(locale)) {
    throw new InvalidInputError(
      `Invalid locale (value ${JSON.stringify(locale)}): must be a locale code such as en or fr-ca`,
    );
  }
  return { id, locale, raw };
}

/** A boolean query flag (`true`/`false`, any case; absent: the default; empty: 400). */
export function booleanQueryFlag(query: ListQuery, name: string, fallback = false): boolean {
  return parseBooleanValue(name, query.raw[name.toLowerCase()], fallback);
}

export interface ValidateOptions {
  /** One message per field: a missing list is "must be an array", not also "too short". */
  firstErrorOnly?: boolean;
}

/**
 * Validates `plain` as `type` with the global pipe's rules (unknown fields refused, read-only
 * fields accepted) and returns the instance; a 400 naming each field otherwise. For what the
 * global pipe cannot see: a patched entry, a body whose class is built at run time.
 */
export function validateInput<T extends object>(
  type: ClassType<T>,
  plain: unknown,
  what: string,
  options: ValidateOptions = {},
): T {
  if (!isObject(plain)) throw new InvalidInputError(`${what} must be a JSON object`);
  const [instance, errors] = check(type, plain, options);
  if (errors.length) throw new InvalidInputError(describeValidationErrors(errors).join('; '));
  return instance;
}

/**
 * What a PATCH makes of an entry: `operations` applied to its wire shape (`Id` and `Edited`
 * read-only), the result validated like a create of `type`.
 */
export function patchedEntry<T extends object>(
  type: ClassType<T>,
  wire: object,
  operations: PatchOperation[],
): T {
  const patched = applyPatchOperations(wire, operations, ['Id', 'Edited']);
  return validateInput(type, patched, 'The patched entry');
}

/**
 * Validates a body that must be a non-empty JSON array of `type` (the global pipe does not
 * look inside a top-level array); every problem of every item is named, `item(i)` first.
 */
export function validateArray<T extends object>(
  type: ClassType<T>,
  body: unknown,
  options: { item: (index: number) => string; notArray?: string },
): T[] {
  if (!Array.isArray(body) || body.length === 0) {
    throw new InvalidInputError(
      options.notArray ?? `Invalid body (value ${show(body)}): must be a non-empty JSON array`,
    );
  }
  const problems: string[] = [];
  const items = body.map((item: unknown, index) => {
    const path = options.item(index);
    if (!isObject(item)) {
      problems.push(`${path} (value ${show(item)}): must be an object`);
      return undefined as unknown as T;
    }
    const [instance, errors] = check(type, item);
    problems.push(...describeValidationErrors(errors, path));
    return instance;
  });
  if (problems.length) throw new InvalidInputError(problems.join('; '));
  return items;
}

/**
 * The rules of the entries of a create: 400 naming every problem `check` finds, each entry
 * named by its place in the body list `list` (`Picklists[0]`).
 */
export function refuseInvalidEntries<T>(
  list: string,
  entries: T[],
  check: (entry: T, path: string) => string[],
): void {
  const problems = entries.flatMap((entry, index) => check(entry, `${list}[${index}]`));
  if (problems.length) throw new InvalidInputError(problems.join('; '));
}

/** Validates a body as `type` when the parameter's class is built at run time. */
export class ValidatedBodyPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(
    private readonly type: ClassType<T>,
    private readonly options: ValidateOptions = {},
  ) {}

  transform(body: unknown): T {
    return validateInput(this.type, body, 'The body', this.options);
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function check<T extends object>(
  type: ClassType<T>,
  plain: object,
  options: ValidateOptions = {},
): [T, ValidationError[]] {
  const instance = plainToInstance(type, plain);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    stopAtFirstError: options.firstErrorOnly === true,
    validationError: { target: false, value: true },
  });
  return [instance, errors];
}

function show(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
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

/**
 * Refuses a change of an entry's identifying name (400): type names and custom field names
 * are how stored profiles, alternate-id claims and search keys refer to an entry, so a new
 * name would leave them naming nothing. A change of case or spacing only (the same
 * `textKey`) is allowed; labels live in the localized fields. (Consent types can be
 * renamed: they keep their former names, see StoredConsentType.FormerNames.)
 */
export function refuseRename(
  field: string,
  stored: string,
  patched: string,
  what: { entry: string; labels: string },
): void {
  if (textKey(stored) === textKey(patched)) return;
  throw new InvalidInputError(
    `Invalid ${field} (value ${JSON.stringify(patched)}): the ${field} of ${what.entry} "${stored}" cannot be changed, ` +
      `as profiles refer to it by this name; change its ${what.labels}, or create an entry with the new name and deactivate this one`,
  );
}

/** The names of `names` that appear more than once (compared by `textKey`). */
export function repeatedNames(names: string[]): string[] {
  const seen = new Set<string>();
  const repeated: string[] = [];
  for (const name of names) {
    const key = textKey(name);
    if (seen.has(key) && !repeated.some((other) => textKey(other) === key)) repeated.push(name);
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
