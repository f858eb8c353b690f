import { textKey } from '@app/shared';

/** What the DTO rules cannot express about one entry (400 when any). */
export interface EntryInput {
  TypeName: string;
  LocalizedFields: { Locale: string }[];
  IsDefault?: boolean | null;
  IsActive?: boolean | null;
}

export function checkTypeEntry(entry: EntryInput, path: string): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number>();
  entry.LocalizedFields.forEach((field, index) => {
    const locale = field.Locale.toLowerCase();
    const first = seen.get(locale);
    if (first === undefined) {
      seen.set(locale, index);
    } else {
      problems.push(
        `Invalid ${path}LocalizedFields[${index}].Locale (value ${JSON.stringify(field.Locale)}): ` +
          `the locale is already in ${path}LocalizedFields[${first}]`,
      );
    }
  });
  if (entry.IsDefault === true && entry.IsActive === false) {
    problems.push(
      `Invalid ${path}IsDefault (value true): an inactive entry (IsActive false) cannot be the default`,
    );
  }
  return problems;
}

/** Rules over a create body: at most one default (400). */
export function checkTypeEntries(entries: EntryInput[], kind: string): string[] {
  const problems = entries.flatMap((entry, index) => checkTypeEntry(entry, `${kind}[${index}].`));
  const defaults = entries
    .map((entry, index) => (entry.IsDefault === true ? index : -1))
    .filter((index) => index >= 0);
  if (defaults.length > 1) {
    problems.push(
      `Invalid ${kind}[${defaults[1]}].IsDefault (value true): only one entry can be the default ` +
        `and ${kind}[${defaults[0]}] already is`,
    );
  }
  return problems;
}

/** Names a create body repeats (case-insensitive), one message each (409). */
export function findRepeatedNames(entries: { TypeName: string }[], kind: string): string[] {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  entries.forEach((entry, index) => {
    const key = textKey(entry.TypeName);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, index);
    } else {
      problems.push(
        `${kind}[${index}].TypeName ${JSON.stringify(entry.TypeName)} repeats ${kind}[${first}].TypeName`,
      );
    }
  });
  return problems;
}
