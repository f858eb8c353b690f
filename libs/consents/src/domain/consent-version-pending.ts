import { textKey } from '@app/shared';
import type { ProfileData, StoredConsent, WriteContext } from '@app/profiles';
import { changeConsents } from './consent-containers';

/*
 * New consent versions (docs/preferences-consents.md): when a consent type gets a new version, the worker's
 * consent-version-notification job queues a `consent-version-pending` write on every
 * profile holding an active consent of that type on an older version; applying it sets
 * `UpdatedVersionPending: true` on those consents. A re-consent clears it (the consent
 * rules, not here).
 */

/** Body of a `consent-version-pending` write. */
export interface ConsentVersionPendingWrite {
  ConsentType: string;
  /** The version just published. */
  LatestVersion: string;
  /** The type's versions published before it (in publication order). */
  OlderVersions: string[];
}

/**
 * The versions published before `version`, oldest first: publication order is
 * PublishedDate, and versions published at the same moment keep their order in the list
 * (as the configuration's LatestVersion does). Empty when `version` is unknown.
 */
export function versionsOlderThan(
  versions: { ConsentVersion: string; PublishedDate?: string | null }[],
  version: string,
): string[] {
  const ordered = versions
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        (a.entry.PublishedDate ?? '').localeCompare(b.entry.PublishedDate ?? '') ||
        a.index - b.index,
    )
    .map(({ entry }) => entry.ConsentVersion);
  const at = ordered.findIndex((name) => textKey(name) === textKey(version));
  return at < 0 ? [] : ordered.slice(0, at);
}

/** An active consent of the type on an older version, not yet flagged. */
export function consentNeedsNewVersion(
  consent: StoredConsent,
  write: ConsentVersionPendingWrite,
): boolean {
  const older = new Set(write.OlderVersions.map(textKey));
  return (
    consent.IsActive !== false &&
    consent.UpdatedVersionPending !== true &&
    textKey(consent.ConsentType) === textKey(write.ConsentType) &&
    older.has(textKey(consent.ConsentVersion))
  );
}

/**
 * The profile with each consent that needs the new version flagged
 * `UpdatedVersionPending: true`, on the profile and on its active contact elements.
 * Unchanged data is returned as the same object (a repeated write changes nothing).
 */
export function markVersionPending(
  data: ProfileData,
  write: ConsentVersionPendingWrite,
  ctx: WriteContext,
): { data: ProfileData; consents: number } {
  const marked = changeConsents(data, (consent) =>
    consentNeedsNewVersion(consent, write)
      ? {
          ...consent,
          UpdatedVersionPending: true,
          Edited: { ...consent.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId },
        }
      : undefined,
  );
  if (!marked.count) return { data, consents: 0 };
  const Edited = { ...data.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId };
  return { data: { ...marked.data, Edited }, consents: marked.count };
}
