import {
  compileRegex,
  customFieldValueProblem,
  type CustomFieldDefinition,
  parseIsoInstant,
} from './custom-field-value';

/** A definition as the rules see it: the value checks' fields plus the default value. */
export type DefinitionShape = CustomFieldDefinition & { DefaultValue?: string | number | null };

/**
 * Rules of a custom field definition the DTO cannot express: bounds in order
 * (MinLength <= MaxLength, MinValue <= MaxValue, MinDate <= MaxDate), dates in ISO 8601,
 * a ValidationRegex that compiles, and a DefaultValue the field itself would accept.
 * SelectList picklists are checked by the handler (they need the database).
 * `path` prefixes field names in the messages (`TextFields[0]`).
 */
export function customFieldDefinitionProblems(definition: DefinitionShape, path: string): string[] {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  const problems: string[] = [];
  const order = (minField: keyof DefinitionShape, maxField: keyof DefinitionShape) => {
    const min = definition[minField];
    const max = definition[maxField];
    if (min == null || max == null) return;
    const [a, b] =
      typeof min === 'string' ? [parseIsoInstant(min), parseIsoInstant(String(max))] : [min, max];
    if (a !== null && b !== null && a > b) {
      problems.push(
        `Invalid ${at(String(minField))} (value ${JSON.stringify(min)}): must not be greater than ${String(maxField)} (${JSON.stringify(max)})`,
      );
    }
  };

  switch (definition.FieldType) {
    case 'Text': {
      order('MinLength', 'MaxLength');
      if (definition.ValidationRegex != null) {
        const regex = compileRegex(definition.ValidationRegex);
        if (typeof regex === 'string') {
          problems.push(
            `Invalid ${at('ValidationRegex')} (value ${JSON.stringify(definition.ValidationRegex)}): ` +
              `must be a valid JavaScript regular expression that cannot backtrack catastrophically (${regex})`,
          );
        }
      }
      break;
    }
    case 'Numeric':
      order('MinValue', 'MaxValue');
      break;
    case 'DateTime':
      for (const field of ['MinDate', 'MaxDate'] as const) {
        const value = definition[field];
        if (value != null && parseIsoInstant(value) === null) {
          problems.push(
            `Invalid ${at(field)} (value ${JSON.stringify(value)}): must be an ISO 8601 date or date-time`,
          );
        }
      }
      order('MinDate', 'MaxDate');
      break;
    default:
      break;
  }

  if (problems.length === 0 && definition.DefaultValue != null && definition.DefaultValue !== '') {
    const value = String(definition.DefaultValue);
    const problem = customFieldValueProblem(definition, null, value);
    if (problem) {
      problems.push(
        `Invalid ${at('DefaultValue')} (value ${JSON.stringify(definition.DefaultValue)}): ${problem}`,
      );
    }
  }
  return problems;
}
