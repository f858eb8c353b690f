import { textKey } from '@app/shared';

/*
 * Consent type rules the DTO cannot express. Versions compare by ConsentVersion, trimmed
 * and case-insensitively ("1.0" and " 1.0 " are the same version).
 */

export function versionKeyOf(version: string): string {
  return textKey(version);
}

/**
 * Attribute keys are unique within a type (case-insensitive); a type requiring confirmation
 * is an Email one (the message goes to the address holding the consent); 400 messages.
 */
export function consentTypeProblems(
  type: {
    Attributes?: { Key: string }[] | null;
    ChannelId?: string | null;
    RequiresConfirmation?: boolean;
  },
  path: string,
): string[] {
  const at = path ? `${path}.` : '';
  const problems: string[] = [];
  if (type.RequiresConfirmation && type.ChannelId !== 'Email')
    problems.push(
      `Invalid ${at}RequiresConfirmation (value true): only a consent type with ChannelId Email ` +
        `can require confirmation (ChannelId is ${JSON.stringify(type.ChannelId ?? null)})`,
    );
  const seen = new Map<string, number>();
  (type.Attributes ?? []).forEach((attribute, index) => {
    const key = textKey(attribute.Key);
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push(
        `Invalid ${at}Attributes[${index}].Key (value ${JSON.stringify(attribute.Key)}): repeats Attributes[${first}].Key`,
      );
    } else {
      seen.set(key, index);
    }
  });
  return problems;
}

/** The first ConsentVersion named twice, or null. */
export function repeatedVersion(versions: { ConsentVersion: string }[]): string | null {
  const seen = new Set<string>();
  for (const { ConsentVersion } of versions) {
    const key = versionKeyOf(ConsentVersion);
    if (seen.has(key)) return ConsentVersion;
    seen.add(key);
  }
  return null;
}

/** Versions of `before` that `after` no longer has (published versions are never removed). */
export function missingVersions(
  before: { ConsentVersion: string }[],
  after: { ConsentVersion: string }[],
): string[] {
  const kept = new Set(after.map((version) => versionKeyOf(version.ConsentVersion)));
  return before
    .map((version) => version.ConsentVersion)
    .filter((version) => !kept.has(versionKeyOf(version)));
}

/**
 * The most recent version: the last published (greatest PublishedDate; of versions published
 * at the same moment, the later in the list). Active or not. Undefined when there is none.
 */
export function latestVersion<T extends { PublishedDate?: string | null }>(
  versions: T[],
): T | undefined {
  let latest: T | undefined;
  for (const version of versions) {
    if (!latest || (version.PublishedDate ?? '') >= (latest.PublishedDate ?? '')) {
      latest = version;
    }
  }
  return latest;
}
