import {
  canSeeConsentType,
  compareHistoryEntries,
  type ConsentDto,
  consentRule,
  type HistoryChange,
  type HistoryEntryOf,
  historyItemInContainer,
  isConsentEntry,
  type ProfileHistory,
  type ProfileHistoryRule,
  type StoredConsent,
  toConsentDto,
} from '@app/profiles';

/** The history category of consents (the routes History/Consents read it). */
export const CONSENT_HISTORY_CATEGORY = 'consent';

function change(item: StoredConsent, container?: HistoryChange['container']): HistoryChange {
  return {
    category: CONSENT_HISTORY_CATEGORY,
    list: 'Consents',
    ...(container ? { container } : {}),
    snapshot: item,
  };
}

function toHistoryConsent(item: StoredConsent): ConsentDto {
  // A history entry shows whether the consent was active at that point.
  return toConsentDto(item, item.IsActive !== false);
}

/** Whether an entry holds a consent: one of this category (or of the Consents list). */
function holdsConsent(entry: ProfileHistory): entry is HistoryEntryOf<StoredConsent> {
  return entry.category === CONSENT_HISTORY_CATEGORY || isConsentEntry(entry);
}

/** The consent an entry holds (an entry of another category holds none). */
function consentOf(entry: ProfileHistory): StoredConsent | undefined {
  return holdsConsent(entry) ? entry.snapshot : undefined;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The history of consents: one entry per consent a write changed, of the profile and of
 * each contact element; seen by views that may see its consent type; ordered by
 * ConsentType, then ConsentVersion (numeric-aware, case-insensitive), then as every
 * history is (modified date, then write).
 */
export const CONSENT_HISTORY: ProfileHistoryRule = {
  category: CONSENT_HISTORY_CATEGORY,
  // Consent receipts: the entries form the profile's hash chain (docs/receipts.md).
  chained: true,
  changes: (before, after, diff) => [
    ...diff.changedItems(before?.Consents, after.Consents, consentRule).map((item) => change(item)),
    ...diff.contacts.flatMap((contact) =>
      diff
        .changedItems(contact.before?.Consents, contact.after?.Consents, consentRule)
        .map((item) => change(item, contact.container)),
    ),
  ],
  canSee: (view, entry) => canSeeConsentType(view, consentOf(entry)?.ConsentType),
  toEntry: (entry) =>
    historyItemInContainer(
      entry,
      'Consents',
      holdsConsent(entry) ? toHistoryConsent(entry.snapshot) : {},
    ),
  compare: (a, b) =>
    collator.compare(
      String(consentOf(a)?.ConsentType ?? ''),
      String(consentOf(b)?.ConsentType ?? ''),
    ) ||
    collator.compare(
      String(consentOf(a)?.ConsentVersion ?? ''),
      String(consentOf(b)?.ConsentVersion ?? ''),
    ) ||
    compareHistoryEntries(a, b),
};
