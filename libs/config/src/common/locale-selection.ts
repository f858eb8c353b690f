/*
 * Which localised fields a `locale` query selects. Locales compare case-insensitively.
 * A regional locale (fr-ca) takes its own entries, else those of its language (fr);
 * a language-only locale (fr) takes its own entries, else those of any region of that
 * language (fr-ca, fr-fr). When nothing matches, the caller answers 404 (spec rule).
 */

import { orNull } from './entry-request';

export interface Localized {
  Locale: string;
}

function languageOf(locale: string): string {
  return locale.toLowerCase().split('-')[0];
}

export function selectLocalized<T extends Localized>(fields: T[], locale: string): T[] {
  const wanted = locale.toLowerCase();
  const exact = fields.filter((field) => field.Locale.toLowerCase() === wanted);
  if (exact.length) return exact;
  const language = languageOf(wanted);
  if (wanted.includes('-')) {
    return fields.filter((field) => field.Locale.toLowerCase() === language);
  }
  return fields.filter((field) => languageOf(field.Locale) === language);
}

/** A stored name and description in one locale (Description absent when not given). */
export interface StoredLocalizedText extends Localized {
  Name: string;
  Description?: string | null;
}

/**
 * Stored localised entries → wire: Description null when absent (so a PATCH can replace it),
 * `extra` fields of an entry first, and with `locale` only the entries it selects.
 */
export function toLocalizedDtos<T extends StoredLocalizedText, E extends object = object>(
  fields: T[],
  locale: string | undefined,
  extra?: (field: T) => E,
): (E & { Locale: string; Name: string; Description: string })[] {
  const wire = fields.map((field) => ({
    ...(extra?.(field) as E),
    Locale: field.Locale,
    Name: field.Name,
    Description: orNull(field.Description) as string,
  }));
  return locale === undefined ? wire : selectLocalized(wire, locale);
}
