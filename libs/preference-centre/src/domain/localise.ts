import type { PresentationLocale } from '@app/config';

/*
 * Choosing a text for the person's locale (docs/preference-centre.md, "Localisation"): the
 * profile's DefaultLocale exactly (case-insensitive, "_" read as "-"), then its language
 * alone ("fr" for "fr-CA") or another locale of that language, then en-US, then "en", then
 * the configured name.
 */

export const FALLBACK_LOCALE = 'en-US';

/** The locale codes to try, in order, for a profile's DefaultLocale. */
export function localeChain(locale: string | undefined): string[] {
  const wanted = normaliseLocale(locale);
  const chain: string[] = [];
  if (wanted) {
    chain.push(wanted);
    const language = wanted.split('-')[0];
    if (language !== wanted) chain.push(language);
  }
  chain.push('en-us', 'en');
  return [...new Set(chain)];
}

export function normaliseLocale(locale: string | undefined | null): string {
  return (locale ?? '').trim().replace(/_/g, '-').toLowerCase();
}

/**
 * The `lang` attribute of the page: the profile's DefaultLocale when it is a well-formed
 * language tag, else en-US.
 */
export function pageLanguage(locale: string | undefined): string {
  const text = (locale ?? '').trim().replace(/_/g, '-');
  return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(text) ? text : FALLBACK_LOCALE;
}

/** The entry of `entries` whose locale best matches the chain (a language also matches its regions). */
export function pick<T>(
  entries: readonly T[],
  localeOf: (entry: T) => string,
  chain: readonly string[],
): T | undefined {
  for (const wanted of chain) {
    const exact = entries.find((entry) => normaliseLocale(localeOf(entry)) === wanted);
    if (exact) return exact;
    if (!wanted.includes('-')) {
      const sameLanguage = entries.find(
        (entry) => normaliseLocale(localeOf(entry)).split('-')[0] === wanted,
      );
      if (sameLanguage) return sameLanguage;
    }
  }
  return undefined;
}

/** Display tag keys read as a name, in order. */
const NAME_KEYS = ['displayname', 'name', 'title', 'label'];
const DESCRIPTION_KEYS = ['description', 'displaydescription'];

function tag(locale: PresentationLocale | undefined, keys: string[]): string | undefined {
  for (const key of keys) {
    const found = locale?.DisplayTags.find((t) => t.Key.trim().toLowerCase() === key);
    if (found?.Value?.trim()) return found.Value.trim();
  }
  return undefined;
}

/** A program's or filter's name and description in the chain's locale (display tags). */
export function localisedTags(
  locales: readonly PresentationLocale[],
  chain: readonly string[],
  fallbackName: string,
  fallbackDescription?: string,
): { name: string; description?: string } {
  // The best locale that has a name tag; the description from the same locale.
  const named = locales.filter((locale) => tag(locale, NAME_KEYS) !== undefined);
  const locale = pick(named, (l) => l.ID, chain);
  const name = tag(locale, NAME_KEYS) ?? fallbackName;
  const description = tag(locale, DESCRIPTION_KEYS) ?? fallbackDescription;
  return description ? { name, description } : { name };
}
