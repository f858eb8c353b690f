import type { ProgramGroupDto } from '../dto/program-group.dto';
import type { FilterDto, ProgramDto } from '../dto/program.dto';

/*
 * The documents PATCH operations apply to: the wire shape with every absent optional
 * field present as null, so `replace` works on any field the entry could have (as the
 * original service's JSON Patch on typed records does). Null reads as absent afterwards.
 */

function withNulls<T extends object>(entry: T, fields: readonly (keyof T)[]): T {
  const result = { ...entry } as Record<keyof T, unknown>;
  for (const field of fields) {
    if (result[field] === undefined) result[field] = null;
  }
  return result as T;
}

const keyValue = <T extends { Value?: string }>(entry: T) => withNulls(entry, ['Value']);

export function toPatchableFilter(filter: FilterDto): FilterDto {
  return withNulls(
    {
      ...filter,
      CustomProperties: filter.CustomProperties?.map(keyValue),
      Locales: filter.Locales?.map((locale) => ({
        ...locale,
        DisplayTags: locale.DisplayTags?.map(keyValue),
      })),
      FrequencyLocales: filter.FrequencyLocales?.map((locale) => ({
        ...locale,
        Frequencies: locale.Frequencies?.map((frequency) =>
          withNulls(frequency, ['DisplayName', 'Description', 'IsDefault', 'DisplayOrder']),
        ),
      })),
      PreferenceAttributes: filter.PreferenceAttributes?.map((attribute) =>
        withNulls(attribute, ['DisplayOrder', 'IsRequired']),
      ),
      RequiredPreferenceConsents: filter.RequiredPreferenceConsents?.map((consent) =>
        withNulls(consent, ['DisplayOrder']),
      ),
    },
    [
      'Description',
      'DefaultLocaleID',
      'DefaultPreferenceValue',
      'OptInCustomerExpirationDays',
      'OptOutCustomerExpirationDays',
      'OptInNonCustomerExpirationDays',
      'OptOutNonCustomerExpirationDays',
    ],
  );
}

export function toPatchableProgram(program: ProgramDto): ProgramDto {
  return withNulls(
    {
      ...program,
      CustomProperties: program.CustomProperties?.map(keyValue),
      Locales: program.Locales?.map((locale) => ({
        ...locale,
        DisplayTags: locale.DisplayTags?.map(keyValue),
      })),
      Filters: program.Filters?.map(toPatchableFilter),
    },
    ['Description'],
  );
}

export function toPatchableProgramGroup(group: ProgramGroupDto): ProgramGroupDto {
  return withNulls({ ...group, CustomProperties: group.CustomProperties?.map(keyValue) }, [
    'Description',
  ]);
}
