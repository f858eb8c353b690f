import { InvalidInputError, NotFoundError } from '@app/shared';
import { LOCALE_PATTERN } from '../../common/localized-field.dto';
import { selectLocalized } from '../../common/locale-selection';
import type { ProgramDto } from '../dto/program.dto';

/**
 * Limits the per-locale lists of programs and their filters (text tags `Locales`, and
 * the filters' `FrequencyLocales`) to one locale, by the configuration's locale rule
 * (exact, else region → language, else language → any of its regions). When the answer
 * holds programs but none of them or their filters has an entry for the locale, the
 * answer is 404 (the spec's rule for a locale with no localised fields).
 */
export function limitToLocale(
  programs: ProgramDto[],
  locale: string,
  parameter: string,
): ProgramDto[] {
  if (!LOCALE_PATTERN.test(locale)) {
    throw new InvalidInputError(
      `Invalid ${parameter} (value ${JSON.stringify(locale)}): must be a locale code such as en or fr-ca`,
    );
  }
  let found = false;
  const pick = <T extends { ID: string }>(entries: T[] | undefined): T[] => {
    const chosen = selectLocalized(
      (entries ?? []).map((entry) => ({ Locale: entry.ID, entry })),
      locale,
    ).map((selected) => selected.entry);
    if (chosen.length) found = true;
    return chosen;
  };
  const limited = programs.map((program) => ({
    ...program,
    Locales: pick(program.Locales),
    Filters: (program.Filters ?? []).map((filter) => ({
      ...filter,
      Locales: pick(filter.Locales),
      FrequencyLocales: pick(filter.FrequencyLocales),
    })),
  }));
  if (programs.length && !found) {
    throw new NotFoundError(`No program or filter has text tags for locale "${locale}"`);
  }
  return limited;
}
