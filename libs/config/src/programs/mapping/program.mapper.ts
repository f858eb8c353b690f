import { toEditedDto } from '../../common/entry-request';
import type {
  CustomPropertyDto,
  FilterDto,
  FrequencyLocaleDto,
  ProgramDto,
  RequiredPreferenceConsentDto,
  TextTagLocaleDto,
} from '../dto/program.dto';
import type {
  StoredFilter,
  StoredFrequencyLocale,
  StoredKeyValue,
  StoredProgram,
  StoredTextTagLocale,
} from '../domain/program.schema';

/* Stored program → wire: every returned field is listed here. */

export function toKeyValueDtos(values: StoredKeyValue[] | undefined): CustomPropertyDto[] {
  return (values ?? []).map((value) => ({ Key: value.Key, Value: value.Value }));
}

export function toTextTagLocaleDtos(
  locales: StoredTextTagLocale[] | undefined,
): TextTagLocaleDto[] {
  return (locales ?? []).map((locale) => ({
    ID: locale.ID,
    DisplayTags: toKeyValueDtos(locale.DisplayTags),
  }));
}

function toFrequencyLocaleDtos(locales: StoredFrequencyLocale[] | undefined): FrequencyLocaleDto[] {
  return (locales ?? []).map((locale) => ({
    ID: locale.ID,
    Frequencies: (locale.Frequencies ?? []).map((frequency) => ({
      ID: frequency.ID,
      DisplayName: frequency.DisplayName,
      Description: frequency.Description,
      IsDefault: frequency.IsDefault,
      DisplayOrder: frequency.DisplayOrder,
    })),
  }));
}

export function toRequiredConsentDtos(
  filter: Pick<StoredFilter, 'RequiredPreferenceConsents'>,
): RequiredPreferenceConsentDto[] {
  return (filter.RequiredPreferenceConsents ?? []).map((consent) => ({
    TypeName: consent.TypeName,
    DisplayOrder: consent.DisplayOrder,
  }));
}

export function toFilterDto(filter: StoredFilter, programId: number): FilterDto {
  return {
    ID: filter.ID,
    ProgramID: programId,
    Name: filter.Name,
    Description: filter.Description,
    ChannelID: filter.ChannelID,
    DefaultLocaleID: filter.DefaultLocaleID,
    DefaultPreferenceValue: filter.DefaultPreferenceValue,
    OptInCustomerExpirationDays: filter.OptInCustomerExpirationDays,
    OptOutCustomerExpirationDays: filter.OptOutCustomerExpirationDays,
    OptInNonCustomerExpirationDays: filter.OptInNonCustomerExpirationDays,
    OptOutNonCustomerExpirationDays: filter.OptOutNonCustomerExpirationDays,
    CustomProperties: toKeyValueDtos(filter.CustomProperties),
    Locales: toTextTagLocaleDtos(filter.Locales),
    FrequencyLocales: toFrequencyLocaleDtos(filter.FrequencyLocales),
    PreferenceAttributes: (filter.PreferenceAttributes ?? []).map((attribute) => ({
      ID: attribute.ID,
      DisplayOrder: attribute.DisplayOrder,
      IsRequired: attribute.IsRequired,
    })),
    RequiredPreferenceConsents: toRequiredConsentDtos(filter),
    RequiresConfirmation: filter.RequiresConfirmation === true,
    IsActive: filter.IsActive !== false,
  };
}

/** The program with its filters (all of them, or those at `filterIndexes`). */
export function toProgramDto(program: StoredProgram, filterIndexes?: number[]): ProgramDto {
  const filters = filterIndexes
    ? filterIndexes.map((index) => program.Filters[index])
    : (program.Filters ?? []);
  return {
    Id: program.programId,
    Name: program.Name,
    Description: program.Description,
    ProgramType: program.ProgramType,
    IsActive: program.IsActive !== false,
    RequiresConfirmation: program.RequiresConfirmation === true,
    CustomProperties: toKeyValueDtos(program.CustomProperties),
    Locales: toTextTagLocaleDtos(program.Locales),
    Filters: filters.map((filter) => toFilterDto(filter, program.programId)),
    Edited: toEditedDto(program.Edited),
  };
}
