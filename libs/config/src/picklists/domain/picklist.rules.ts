import { textKey } from '@app/shared';

/** What the picklist rules look at (the DTO or the stored form). */
export interface PicklistShape {
  FieldSelectOptions: { Value: string }[];
}

/**
 * Rules the DTO cannot express: option values are unique within the picklist
 * (compared trimmed and case-insensitively). Messages name the field by its path.
 */
export function picklistProblems(picklist: PicklistShape, path: string): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  picklist.FieldSelectOptions.forEach((option, index) => {
    const key = textKey(option.Value);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(
        `Invalid ${prefix(path)}FieldSelectOptions[${index}].Value (value ${JSON.stringify(option.Value)}): ` +
          `repeats FieldSelectOptions[${first}].Value; values are unique within a picklist`,
      );
    } else {
      seen.set(key, index);
    }
  });
  return problems;
}

function prefix(path: string): string {
  return path ? `${path}.` : '';
}
