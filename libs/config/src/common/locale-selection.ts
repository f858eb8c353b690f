/*
 * Which localised fields a `locale` query selects. Locales compare case-insensitively.
 * A regional locale (fr-ca) takes its own entries, else those of its language (fr);
 * a language-only locale (fr) takes its own entries, else those of any region of that
 * language (fr-ca, fr-fr). When nothing matches, the caller answers 404 (spec rule).
 */

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
