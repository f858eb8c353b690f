import { textKey } from '@app/shared';
import type {
  CustomPropertyDto,
  FilterDto,
  ProgramDto,
  TextTagLocaleDto,
} from '../dto/program.dto';
import type { ProgramGroupDto } from '../dto/program-group.dto';
import { canonicalChannel, canonicalProgramType } from '../domain/program-vocabulary';
import type {
  StoredFilter,
  StoredKeyValue,
  StoredProgram,
  StoredRequiredConsent,
  StoredTextTagLocale,
} from '../domain/program.schema';

/*
 * Checks a validated body cannot express as DTO rules (repeats within a list), and the
 * conversion of a validated body into stored fields.
 */

/** "Invalid X[2].Key (value "a"): repeats X[0].Key" for every repeat of `keyOf` in `items`. */
export function repeats<T>(
  items: readonly T[] | undefined,
  path: string,
  field: string,
  keyOf: (item: T) => string,
): string[] {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  (items ?? []).forEach((item, index) => {
    const raw = keyOf(item);
    const key = textKey(raw);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, index);
    } else {
      problems.push(
        `Invalid ${path}[${index}].${field} (value ${JSON.stringify(raw)}): repeats ${path}[${first}].${field}`,
      );
    }
  });
  return problems;
}

/**
 * `<path>[i].Name "<name>" already exists <holder>` for every item whose name (any case) an
 * entry of `existing` has; `holderOf` names that entry ("(program 3)").
 */
export function namesTaken<T extends { Name: string }>(
  items: readonly { Name: string }[],
  path: string,
  existing: readonly T[],
  holderOf: (entry: T) => string,
): string[] {
  const byName = new Map(existing.map((entry) => [textKey(entry.Name), entry]));
  return items.flatMap((item, index) => {
    const holder = byName.get(textKey(item.Name));
    return holder
      ? [`${path}[${index}].Name "${item.Name}" already exists ${holderOf(holder)}`]
      : [];
  });
}

function prefixed(path: string, field: string): string {
  return path ? `${path}.${field}` : field;
}

function checkLocales(locales: TextTagLocaleDto[] | undefined, path: string): string[] {
  return [
    ...repeats(locales, path, 'ID', (locale) => locale.ID),
    ...(locales ?? []).flatMap((locale, index) =>
      repeats(locale.DisplayTags, `${path}[${index}].DisplayTags`, 'Key', (tag) => tag.Key),
    ),
  ];
}

function checkCustomProperties(
  properties: CustomPropertyDto[] | undefined,
  path: string,
): string[] {
  return repeats(properties, path, 'Key', (property) => property.Key);
}

/** Problems (400) of one filter body; `path` names it (`Filters[0]`, or '' for a PATCH). */
export function checkFilterInput(filter: FilterDto, path: string): string[] {
  const at = (field: string) => prefixed(path, field);
  const channel = canonicalChannel(filter.ChannelID);
  const problems = [
    // The message goes to the email address holding the opt-in: other channels have none.
    ...(filter.RequiresConfirmation && channel !== 'Email'
      ? [
          `Invalid ${at('RequiresConfirmation')} (value true): only a filter with ChannelID Email ` +
            `can require confirmation (ChannelID is ${JSON.stringify(filter.ChannelID ?? null)})`,
        ]
      : []),
    ...checkCustomProperties(filter.CustomProperties, at('CustomProperties')),
    ...checkLocales(filter.Locales, at('Locales')),
    ...repeats(filter.FrequencyLocales, at('FrequencyLocales'), 'ID', (locale) => locale.ID),
    ...repeats(filter.PreferenceAttributes, at('PreferenceAttributes'), 'ID', (a) => a.ID),
    ...repeats(
      filter.RequiredPreferenceConsents,
      at('RequiredPreferenceConsents'),
      'TypeName',
      (consent) => consent.TypeName,
    ),
  ];
  (filter.FrequencyLocales ?? []).forEach((locale, index) => {
    const localePath = `${at('FrequencyLocales')}[${index}]`;
    problems.push(...repeats(locale.Frequencies, `${localePath}.Frequencies`, 'ID', (f) => f.ID));
    const defaults = (locale.Frequencies ?? []).filter((frequency) => frequency.IsDefault === true);
    if (defaults.length > 1) {
      problems.push(
        `Invalid ${localePath}.Frequencies (value ${JSON.stringify(defaults.map((f) => f.ID))}): at most one frequency per locale may have IsDefault true`,
      );
    }
  });
  return problems;
}

/** Problems (400) of one program body and its filters. */
export function checkProgramInput(program: ProgramDto, path: string): string[] {
  const at = (field: string) => prefixed(path, field);
  const emailFilter = (program.Filters ?? []).some(
    (filter) => canonicalChannel(filter.ChannelID) === 'Email',
  );
  return [
    // Only opt-ins on Email filters are held: a program without one would hold nothing.
    ...(program.RequiresConfirmation && !emailFilter
      ? [
          `Invalid ${at('RequiresConfirmation')} (value true): only a program with a filter ` +
            `whose ChannelID is Email can require confirmation (it has ${
              (program.Filters ?? []).length
                ? (program.Filters ?? [])
                    .map((filter) => JSON.stringify(filter.ChannelID))
                    .join(', ')
                : 'no filters'
            })`,
        ]
      : []),
    ...checkCustomProperties(program.CustomProperties, at('CustomProperties')),
    ...checkLocales(program.Locales, at('Locales')),
    ...(program.Filters ?? []).flatMap((filter, index) =>
      checkFilterInput(filter, `${at('Filters')}[${index}]`),
    ),
  ];
}

function repeatedIds(ids: number[] | undefined, path: string): string[] {
  const seen = new Map<number, number>();
  const problems: string[] = [];
  (ids ?? []).forEach((id, index) => {
    const first = seen.get(id);
    if (first === undefined) seen.set(id, index);
    else problems.push(`Invalid ${path}[${index}] (value ${id}): repeats ${path}[${first}]`);
  });
  return problems;
}

/** Problems (400) of one program group body. */
export function checkProgramGroupInput(group: ProgramGroupDto, path: string): string[] {
  const at = (field: string) => prefixed(path, field);
  return [
    ...checkCustomProperties(group.CustomProperties, at('CustomProperties')),
    ...repeatedIds(group.ProgramIds, at('ProgramIds')),
    ...repeatedIds(group.ProgramGroupIds, at('ProgramGroupIds')),
  ];
}

export function toStoredKeyValues(values: CustomPropertyDto[] | undefined): StoredKeyValue[] {
  return (values ?? []).map((value) => ({
    Key: value.Key.trim(),
    Value: value.Value ?? undefined,
  }));
}

/** The stored fields a program, a filter and a program group have alike. */
export function toStoredEntryFields(entry: {
  Name: string;
  Description?: string | null;
  IsActive?: boolean | null;
  CustomProperties?: CustomPropertyDto[];
}): Pick<StoredProgram, 'Name' | 'Description' | 'IsActive' | 'CustomProperties'> {
  return {
    Name: entry.Name.trim(),
    Description: entry.Description ?? undefined,
    IsActive: entry.IsActive ?? true,
    CustomProperties: toStoredKeyValues(entry.CustomProperties),
  };
}

function toStoredLocales(locales: TextTagLocaleDto[] | undefined): StoredTextTagLocale[] {
  return (locales ?? []).map((locale) => ({
    ID: locale.ID,
    DisplayTags: toStoredKeyValues(locale.DisplayTags),
  }));
}

/** The stored filter of a validated body (its required consents already resolved). */
export function toStoredFilter(
  filter: FilterDto,
  id: number,
  requiredConsents: StoredRequiredConsent[],
): StoredFilter {
  return {
    ID: id,
    ...toStoredEntryFields(filter),
    ChannelID: canonicalChannel(filter.ChannelID) as string,
    DefaultLocaleID: filter.DefaultLocaleID ?? undefined,
    DefaultPreferenceValue: filter.DefaultPreferenceValue ?? undefined,
    OptInCustomerExpirationDays: filter.OptInCustomerExpirationDays ?? undefined,
    OptOutCustomerExpirationDays: filter.OptOutCustomerExpirationDays ?? undefined,
    OptInNonCustomerExpirationDays: filter.OptInNonCustomerExpirationDays ?? undefined,
    OptOutNonCustomerExpirationDays: filter.OptOutNonCustomerExpirationDays ?? undefined,
    Locales: toStoredLocales(filter.Locales),
    FrequencyLocales: (filter.FrequencyLocales ?? []).map((locale) => ({
      ID: locale.ID,
      Frequencies: (locale.Frequencies ?? []).map((frequency) => ({
        ID: frequency.ID.trim(),
        DisplayName: frequency.DisplayName ?? undefined,
        Description: frequency.Description ?? undefined,
        IsDefault: frequency.IsDefault ?? undefined,
        DisplayOrder: frequency.DisplayOrder ?? undefined,
      })),
    })),
    PreferenceAttributes: (filter.PreferenceAttributes ?? []).map((attribute) => ({
      ID: attribute.ID.trim(),
      DisplayOrder: attribute.DisplayOrder ?? undefined,
      IsRequired: attribute.IsRequired ?? undefined,
    })),
    RequiredPreferenceConsents: requiredConsents,
    ...(filter.RequiresConfirmation ? { RequiresConfirmation: true } : {}),
  };
}

/** The program's own stored fields of a validated body (not its filters). */
export function toStoredProgramFields(
  program: ProgramDto,
): Pick<
  StoredProgram,
  | 'Name'
  | 'Description'
  | 'ProgramType'
  | 'IsActive'
  | 'RequiresConfirmation'
  | 'CustomProperties'
  | 'Locales'
> {
  return {
    ...toStoredEntryFields(program),
    ProgramType: canonicalProgramType(program.ProgramType) as string,
    RequiresConfirmation: program.RequiresConfirmation === true ? true : undefined,
    Locales: toStoredLocales(program.Locales),
  };
}
