import Ajv, { type AnySchema, type ValidateFunction } from 'ajv';
import {
  getMetadataStorage,
  type ValidationArguments,
  ValidationTypes,
  type ValidatorOptions,
} from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { cacheValidationMetadata, metadataGeneration } from './validation-metadata-cache';

type Storage = ReturnType<typeof getMetadataStorage>;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator's type of a class
type Class = Function;
type Condition = (object: object, value: unknown) => unknown;

/**
 * A compiled pre-check of class-validator's validation, generated once per DTO class from the
 * same decorators (class-validator's metadata storage) and compiled with Ajv: it answers
 * "valid" only where class-validator finds no error, so a body it accepts skips
 * class-validator's generic walk (which builds an error object for every declared property),
 * and any other body is validated by class-validator itself, which words the messages.
 *
 * Exact where it can be and stricter elsewhere, never laxer:
 * - the rules of each property are class-validator's own: the conditions (`IsOptional`,
 *   `ValidateIf`) and every constraint (`IsString`, `MaxLength`, `Matches`, custom ones...)
 *   are called as class-validator calls them, `each` and `validateIf` included; an async
 *   result counts as "not valid here" (class-validator decides);
 * - the structure is Ajv's: unknown properties refused (whitelist, forbidNonWhitelisted), a
 *   property without an `IsOptional` required; a nested object (`ValidateNested`, alone or
 *   in an array) is checked by the compiled rules of its own class, looked up by its
 *   constructor as class-validator looks up the rules (an array in an array, a Set or a Map
 *   is left to class-validator);
 * - anything else (`IsDefined` on a present value, promise validation) is left to
 *   class-validator.
 *
 * Only for the options the compiled rules assume (`whitelist` and `forbidNonWhitelisted`, no
 * groups, `always` or skip options; either `forbidUnknownValues`): other calls go to
 * class-validator. Recompiled when a
 * rule is registered after a compilation (see `cacheValidationMetadata`).
 */
export class CompiledValidation {
  private readonly ajv = new Ajv({ allErrors: false, strict: true });
  private readonly conditions: ValidationMetadata[][] = [];
  private readonly constraints: ValidationMetadata[][] = [];
  private readonly absentRules: AbsentRule[][] = [];
  /**
   * By class, then by `forbidUnknownValues` and the schema name class-validator passes down
   * (none at the top): see `modeKey`.
   */
  private compiled = new Map<Class, Map<string, ValidateFunction | null>>();
  private generation = -1;

  constructor() {
    cacheValidationMetadata();
    this.ajv.addKeyword({
      keyword: 'x-nested',
      schemaType: 'string',
      // class-validator's `nestedValidations`: each element of an array, else the value.
      validate: (mode: string, data: unknown) =>
        Array.isArray(data)
          ? data.every((item) => this.objectHolds(item, mode))
          : this.objectHolds(data, mode),
    });
    this.ajv.addKeyword({
      keyword: 'x-conditions',
      schemaType: 'number',
      // class-validator evaluates every condition (no short cut) and validates when all hold.
      validate: (id: number, data: unknown, _schema?: AnySchema, context?: DataContext) =>
        conditionsHold(this.conditions[id], context!.parentData, data),
    });
    this.ajv.addKeyword({
      keyword: 'x-absent',
      schemaType: 'number',
      // The properties class-validator validates although they are absent (undefined).
      validate: (id: number, data: Record<string, unknown>) =>
        this.absentRules[id].every(
          (rule) =>
            data[rule.property] !== undefined ||
            (rule.conditions.length > 0 && !conditionsHold(rule.conditions, data, undefined)) ||
            (!rule.defined && this.constraintsHold(rule.custom, data, undefined)),
        ),
    });
    this.ajv.addKeyword({
      keyword: 'x-constraints',
      schemaType: 'number',
      validate: (id: number, data: unknown, _schema?: AnySchema, context?: DataContext) =>
        this.constraintsHold(this.constraints[id], context!.parentData, data),
    });
  }

  /** Whether `object` is certainly valid for class-validator with these options. */
  accepts(object: unknown, options: ValidatorOptions | undefined): boolean {
    if (!supported(options)) return false;
    if (this.generation !== metadataGeneration()) {
      this.generation = metadataGeneration();
      this.compiled = new Map();
    }
    return this.objectHolds(object, modeKey(options!.forbidUnknownValues !== false, undefined));
  }

  /** class-validator's `execute` of an object (by its constructor's rules) found nothing. */
  private objectHolds(object: unknown, mode: string): boolean {
    if (typeof object !== 'object' || object === null || Array.isArray(object)) return false;
    if (object instanceof Set || object instanceof Map) return false;
    const validate = this.validatorOf(object.constructor, mode);
    return validate !== null && validate(object) === true;
  }

  private validatorOf(target: Class, mode: string): ValidateFunction | null {
    let byMode = this.compiled.get(target);
    if (!byMode) this.compiled.set(target, (byMode = new Map()));
    let validate = byMode.get(mode);
    if (validate === undefined) {
      const schema = this.classSchema(target, mode);
      try {
        validate = schema === false ? null : this.ajv.compile(schema);
      } catch {
        validate = null; // a rule Ajv cannot take: class-validator validates this class
      }
      byMode.set(mode, validate);
    }
    return validate;
  }

  /** The schema of an instance of `target`, as class-validator's `execute` checks it. */
  private classSchema(target: Class, mode: string): AnySchema {
    const storage: Storage = getMetadataStorage();
    const forbidUnknownValues = mode[0] === '1';
    const schemaName = mode.length > 1 ? mode.slice(2) : undefined;
    const all = storage.getTargetValidationMetadatas(target, schemaName!, false, false, undefined);
    if (!all.length) {
      // A class without rules: refused (forbidUnknownValues), else whitelisted to nothing.
      return forbidUnknownValues ? false : { type: 'object', maxProperties: 0 };
    }
    const grouped = storage.groupByPropertyName(all);
    const properties: Record<string, AnySchema> = {};
    const absent: AbsentRule[] = [];
    for (const [property, list] of Object.entries(grouped)) {
      const rules = list.filter(
        (m) => m.type !== ValidationTypes.WHITELIST && m.type !== ValidationTypes.IS_DEFINED,
      );
      const conditions = rules.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION);
      const custom = rules.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION);
      const nested = rules.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION);
      const defined = list.some((m) => m.type === ValidationTypes.IS_DEFINED);
      const unknown = defined || rules.length !== conditions.length + custom.length + nested.length;
      const optional = conditions.some((m) => m.name === 'isOptional');
      // Absent (undefined): class-validator still runs its conditions, then its constraints
      // (nested rules skip undefined); IsOptional alone skips it for certain.
      if ((rules.length || defined) && !optional) {
        absent.push({ property, conditions, custom, defined });
      }
      if (unknown) {
        properties[property] = false;
        continue;
      }
      const checks: AnySchema[] = [];
      if (custom.length) checks.push({ 'x-constraints': this.register(this.constraints, custom) });
      // The name class-validator passes down when it validates a nested object.
      for (const { target: declaring } of nested) {
        const name = typeof declaring === 'string' ? declaring : declaring.name;
        checks.push({ 'x-nested': modeKey(forbidUnknownValues, name) });
      }
      const then: AnySchema = checks.length === 1 ? checks[0] : { allOf: checks };
      properties[property] = !checks.length
        ? true
        : conditions.length
          ? { if: { 'x-conditions': this.register(this.conditions, conditions) }, then }
          : then;
    }
    return {
      type: 'object',
      properties,
      additionalProperties: false,
      ...(absent.length ? { 'x-absent': this.register(this.absentRules, absent) } : {}),
    };
  }

  /** class-validator's `customValidations`, answering whether no constraint failed. */
  private constraintsHold(
    metadatas: ValidationMetadata[],
    object: object,
    value: unknown,
  ): boolean {
    const storage = getMetadataStorage();
    for (const metadata of metadatas) {
      if (metadata.validateIf && !metadata.validateIf(object, value)) continue;
      for (const constraint of storage.getTargetValidatorConstraints(metadata.constraintCls)) {
        const args: ValidationArguments = {
          targetName: (object.constructor ? object.constructor.name : undefined) as string,
          property: metadata.propertyName,
          object,
          value,
          constraints: metadata.constraints,
        };
        const each =
          metadata.each && (Array.isArray(value) || value instanceof Set || value instanceof Map);
        const results: unknown[] = each
          ? convertToArray(value).map((item) => constraint.instance.validate(item, args))
          : [constraint.instance.validate(value, args)];
        for (const result of results) if (!result || isThenable(result)) return false;
      }
    }
    return true;
  }

  private register<T>(list: T[][], entries: T[]): number {
    return list.push(entries) - 1;
  }
}

/** What class-validator checks of a property that is absent. */
interface AbsentRule {
  property: string;
  conditions: ValidationMetadata[];
  custom: ValidationMetadata[];
  /** IsDefined: absent, it fails (unless a condition skips it). */
  defined: boolean;
}

/** class-validator's `conditionalValidations`: every condition evaluated, all must hold. */
function conditionsHold(conditions: ValidationMetadata[], object: object, value: unknown): boolean {
  let all = true;
  for (const metadata of conditions) {
    all = Boolean((metadata.constraints[0] as Condition)(object, value)) && all;
  }
  return all;
}

/** What Ajv passes a keyword about the value's place. */
interface DataContext {
  parentData: object;
}

/** The options the compiled rules stand for (those of the api's global pipe). */
function supported(options: ValidatorOptions | undefined): boolean {
  return (
    options?.whitelist === true &&
    options.forbidNonWhitelisted === true &&
    !options.groups?.length &&
    !options.always &&
    !options.strictGroups &&
    !options.skipMissingProperties &&
    !options.skipNullProperties &&
    !options.skipUndefinedProperties
  );
}

/** `forbidUnknownValues` and the schema name in one key: `1` or `0`, then `|<name>` if any. */
function modeKey(forbidUnknownValues: boolean, schemaName: string | undefined): string {
  const flag = forbidUnknownValues ? '1' : '0';
  return schemaName === undefined ? flag : `${flag}|${schemaName}`;
}

function convertToArray(value: unknown): unknown[] {
  if (value instanceof Map) return Array.from(value.values());
  return Array.isArray(value) ? value : Array.from(value as Set<unknown>);
}

function isThenable(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

let shared: CompiledValidation | undefined;

/** The process's compiled validation (its compiled classes are shared). */
export function compiledValidation(): CompiledValidation {
  return (shared ??= new CompiledValidation());
}
