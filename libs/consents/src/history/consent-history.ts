import {
  canSeeConsentType,
  compareHistoryEntries,
  confirmationFields,
  type ConsentDto,
  consentRule,
  type HistoryChange,
  type HistorySnapshot,
  historyItemInContainer,
  type ProfileHistoryRule,
  type StoredConsent,
  toHistoryEdited,
} from '@app/profiles';

const text = (item: HistorySnapshot, field: string) => item[field] as string | undefined;

/** The history category of consents (the routes History/Consents read it). */
export const CONSENT_HISTORY_CATEGORY = 'consent';

function change(item: HistorySnapshot, container?: HistoryChange['container']): HistoryChange {
  return {
    category: CONSENT_HISTORY_CATEGORY,
    list: 'Consents',
    ...(container ? { container } : {}),
    snapshot: item,
  };
}

function toHistoryConsent(item: HistorySnapshot): ConsentDto {
  return {
    ConsentType: text(item, 'ConsentType'),
    ConsentVersion: text(item, 'ConsentVersion'),
    Locale: text(item, 'Locale'),
    ConsentStatus: item.ConsentStatus as number | undefined,
    ReasonCode: text(item, 'ReasonCode'),
    ConsentDate: text(item, 'ConsentDate'),
    ExpirationDate: text(item, 'ExpirationDate'),
    SourceId: text(item, 'SourceId'),
    Expired: (item.Expired as boolean | undefined) ?? false,
    Edited: toHistoryEdited(item.Edited),
    UpdatedVersionPending: (item.UpdatedVersionPending as boolean | undefined) ?? false,
    // The evidence of a confirmed grant (double opt-in), as stored with the consent.
    ...confirmationFields(item as Pick<StoredConsent, 'PendingConfirmation' | 'Confirmation'>),
    IsActive: item.IsActive !== false,
  };
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
  canSee: (view, entry) => canSeeConsentType(view, entry.snapshot.ConsentType),
  toEntry: (entry) => historyItemInContainer(entry, 'Consents', toHistoryConsent(entry.snapshot)),
  compare: (a, b) =>
    collator.compare(String(a.snapshot.ConsentType ?? ''), String(b.snapshot.ConsentType ?? '')) ||
    collator.compare(
      String(a.snapshot.ConsentVersion ?? ''),
      String(b.snapshot.ConsentVersion ?? ''),
    ) ||
    compareHistoryEntries(a, b),
};
