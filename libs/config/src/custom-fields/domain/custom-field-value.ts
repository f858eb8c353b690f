import { LRUCache } from 'lru-cache';
import safeRegex from 'safe-regex2';
import { DateTime } from 'luxon';
import { UpdateRule, updateRuleName } from './update-rules';

/*
 * The checks a custom field value of a profile must pass: its type (Numeric, DateTime,
 * Text, SelectList) and its update rule. Pure functions: the profile validation calls
 * them with the definition and the picklist values from CustomFieldCatalog.
 */

export const CUSTOM_FIELD_TYPES = ['Text', 'Numeric', 'DateTime', 'SelectList'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export const SELECT_LIST_DISPLAY_TYPES = ['SingleSelect', 'MultiSelect'] as const;
export type SelectListDisplayType = (typeof SELECT_LIST_DISPLAY_TYPES)[number];

/** Values of a custom field on a profile are at most this long (all types). */
export const CUSTOM_FIELD_VALUE_MAX_LENGTH = 4000;

/** Several values of a MultiSelect field are joined with this delimiter. */
export const MULTI_SELECT_DELIMITER = '::';

const RULES_REFUSING_CLEARING = new Set<number>([
  UpdateRule.IfCurrentValueIsBlank,
  UpdateRule.IfNewValueIsNotBlank,
  UpdateRule.Never,
]);

/** What the value checks need of a definition (the wire shape plus its type). */
export interface CustomFieldDefinition {
  FieldType: CustomFieldType;
  Name: string;
  /** UpdateRule id; absent or null: Always. */
  UpdateRuleId?: number | null;
  IsRequired?: boolean | null;
  MinLength?: number | null;
  MaxLength?: number | null;
  /** JavaScript (ECMAScript) regular expression, no flags; it must match somewhere in the value. */
  ValidationRegex?: string | null;
  MinValue?: number | null;
  MaxValue?: number | null;
  DecimalPlaces?: number | null;
  MinDate?: string | null;
  MaxDate?: string | null;
  DisplayType?: SelectListDisplayType | null;
}

const DECIMAL = /^[+-]?(\d+(\.\d+)?|\.\d+)$/;

export function isBlank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim() === '';
}

/**
 * Checks that `newValue` may replace `currentValue` (null: the profile has none) in the
 * custom field `definition`. Returns null when it may, else a message naming the field
 * and the value. `picklistValues` are the values a SelectList field may newly take (the
 * active options of its picklist; null when the picklist is missing); other types ignore it.
 *
 * - A value equal to the current one always passes (a retrieved profile can be sent back
 *   unchanged even if the definition was tightened since). Numbers compare numerically,
 *   dates as instants, MultiSelect values as sets.
 * - Update rules: Always: anything. IfCurrentValueIsBlank: no change once a non-blank value
 *   exists. IfNewValueIsNotBlank: a blank value (clearing) is refused once a value exists.
 *   Never: once a value exists it can be neither changed nor removed. (For a single value
 *   IfCurrentValueIsBlank and Never refuse the same changes; they differ in intent only.)
 * - IsRequired: a blank value is refused.
 * - Types: Numeric is a decimal number within MinValue..MaxValue with at most DecimalPlaces
 *   decimals (trailing zeros ignored); DateTime is ISO 8601 within MinDate..MaxDate (no
 *   offset: UTC); Text is MinLength..MaxLength long and matches ValidationRegex; SelectList
 *   values are values of the picklist (several, joined with "::", for MultiSelect only).
 *   Every value is at most 4000 characters.
 */
export function checkCustomFieldValue(
  definition: CustomFieldDefinition,
  picklistValues: readonly string[] | null,
  newValue: string | null,
  currentValue: string | null,
): string | null {
  const fail = (reason: string) =>
    `Custom field ${definition.Name} (value ${show(newValue)}): ${reason}`;
  const hadValue = !isBlank(currentValue);

  if (isBlank(newValue)) {
    if (hadValue) {
      const rule = definition.UpdateRuleId ?? UpdateRule.Always;
      if (RULES_REFUSING_CLEARING.has(rule)) {
        return fail(
          `cannot be cleared (current value ${show(currentValue)}): its update rule is ${updateRuleName(rule)}`,
        );
      }
    }
    return definition.IsRequired ? fail('is required and cannot be blank') : null;
  }
  const value = newValue as string;
  if (hadValue && sameValue(definition, value, currentValue as string)) return null;
  if (hadValue) {
    const rule = definition.UpdateRuleId ?? UpdateRule.Always;
    if (rule === UpdateRule.IfCurrentValueIsBlank || rule === UpdateRule.Never) {
      return fail(
        `cannot be changed (current value ${show(currentValue)}): its update rule is ${updateRuleName(rule)}`,
      );
    }
  }
  const problem = customFieldValueProblem(definition, picklistValues, value, currentValue);
  return problem ? fail(problem) : null;
}

/**
 * The type checks alone, for a non-blank value: the reason it is refused, or null.
 * Values of `currentValue` stay acceptable for a SelectList (an option deactivated since).
 */
export function customFieldValueProblem(
  definition: CustomFieldDefinition,
  picklistValues: readonly string[] | null,
  value: string,
  currentValue: string | null = null,
): string | null {
  if (value.length > CUSTOM_FIELD_VALUE_MAX_LENGTH) {
    return `must be at most ${CUSTOM_FIELD_VALUE_MAX_LENGTH} characters`;
  }
  switch (definition.FieldType) {
    case 'Text':
      return textProblem(definition, value);
    case 'Numeric':
      return numericProblem(definition, value);
    case 'DateTime':
      return dateTimeProblem(definition, value);
    case 'SelectList':
      return selectListProblem(definition, picklistValues, value, currentValue);
    default:
      return `cannot be checked: unknown field type ${String(definition.FieldType)}`;
  }
}

function textProblem(definition: CustomFieldDefinition, value: string): string | null {
  if (definition.MinLength != null && value.length < definition.MinLength) {
    return `must be at least ${definition.MinLength} characters long`;
  }
  if (definition.MaxLength != null && value.length > definition.MaxLength) {
    return `must be at most ${definition.MaxLength} characters long`;
  }
  if (definition.ValidationRegex) {
    const regex = compileRegex(definition.ValidationRegex);
    if (typeof regex === 'string') {
      return `cannot be checked: the field's ValidationRegex cannot be used (${regex})`;
    }
    if (!regex.test(value)) return `must match the pattern ${definition.ValidationRegex}`;
  }
  return null;
}

/** Compiled patterns (or why not), by pattern: a write checks every Text field it sets. */
const compiled = new LRUCache<string, { regex: RegExp | string }>({ max: 1000 });

/**
 * The regular expression, or why it cannot be used: it does not compile, or it may
 * backtrack catastrophically. JavaScript runs a match on the event loop with no time bound,
 * so a pattern with nested quantifiers (such as `(a+)+$`) on a value of a few dozen
 * characters can stall the whole process for every tenant: `safe-regex2` refuses those
 * (star height above 1, or more than 25 repetitions) when the field is defined, and a
 * stored pattern that fails the check is not run.
 */
export function compileRegex(pattern: string): RegExp | string {
  let entry = compiled.get(pattern);
  if (!entry) {
    entry = { regex: compileChecked(pattern) };
    compiled.set(pattern, entry);
  }
  return entry.regex;
}

function compileChecked(pattern: string): RegExp | string {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (!safeRegex(regex)) {
    return 'it may backtrack catastrophically (a repeated group that itself repeats, or too many repetitions): rewrite it without nested quantifiers';
  }
  return regex;
}

function numericProblem(definition: CustomFieldDefinition, value: string): string | null {
  if (!DECIMAL.test(value)) {
    return 'must be a decimal number (digits with an optional sign and decimal point, such as -12.5)';
  }
  const decimals = (value.split('.')[1] ?? '').replace(/0+$/, '').length;
  if (definition.DecimalPlaces != null && decimals > definition.DecimalPlaces) {
    return `must have at most ${definition.DecimalPlaces} decimal places`;
  }
  const number = Number(value);
  if (definition.MinValue != null && number < definition.MinValue) {
    return `must be at least ${definition.MinValue}`;
  }
  if (definition.MaxValue != null && number > definition.MaxValue) {
    return `must be at most ${definition.MaxValue}`;
  }
  return null;
}

/** An ISO 8601 date or date-time as an instant (no offset: UTC), or null when invalid. */
export function parseIsoInstant(value: string): number | null {
  const parsed = DateTime.fromISO(value, { zone: 'utc' });
  return parsed.isValid ? parsed.toMillis() : null;
}

function dateTimeProblem(definition: CustomFieldDefinition, value: string): string | null {
  const instant = parseIsoInstant(value);
  if (instant === null) {
    return 'must be an ISO 8601 date or date-time (such as 2024-05-31 or 2024-05-31T12:00:00Z)';
  }
  const min = definition.MinDate ? parseIsoInstant(definition.MinDate) : null;
  if (min !== null && instant < min) return `must not be before ${definition.MinDate}`;
  const max = definition.MaxDate ? parseIsoInstant(definition.MaxDate) : null;
  if (max !== null && instant > max) return `must not be after ${definition.MaxDate}`;
  return null;
}

function selectListProblem(
  definition: CustomFieldDefinition,
  picklistValues: readonly string[] | null,
  value: string,
  currentValue: string | null,
): string | null {
  if (picklistValues === null) return "cannot be checked: the field's picklist was not found";
  const multi = definition.DisplayType === 'MultiSelect';
  if (!multi && value.includes(MULTI_SELECT_DELIMITER)) {
    return 'takes a single value (SingleSelect); several values joined with "::" need a MultiSelect field';
  }
  const parts = multi ? value.split(MULTI_SELECT_DELIMITER) : [value];
  const kept = new Set(
    currentValue === null
      ? []
      : multi
        ? currentValue.split(MULTI_SELECT_DELIMITER)
        : [currentValue],
  );
  const allowed = new Set(picklistValues);
  const seen = new Set<string>();
  for (const part of parts) {
    if (part === '') return 'has an empty value between "::" delimiters';
    if (seen.has(part)) return `names "${part}" more than once`;
    seen.add(part);
    if (!allowed.has(part) && !kept.has(part)) {
      return `"${part}" is not an active value of the field's picklist`;
    }
  }
  return null;
}

function sameValue(definition: CustomFieldDefinition, a: string, b: string): boolean {
  if (a === b) return true;
  switch (definition.FieldType) {
    case 'Numeric':
      return DECIMAL.test(a) && DECIMAL.test(b) && Number(a) === Number(b);
    case 'DateTime': {
      const x = parseIsoInstant(a);
      return x !== null && x === parseIsoInstant(b);
    }
    case 'SelectList': {
      if (definition.DisplayType !== 'MultiSelect') return false;
      const sorted = (v: string) => v.split(MULTI_SELECT_DELIMITER).sort().join('\n');
      return sorted(a) === sorted(b);
    }
    default:
      return false;
  }
}

function show(value: string | null): string {
  if (value === null) return 'null';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
