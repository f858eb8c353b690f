import { textKey } from '@app/shared';
import {
  canSeeConsentType,
  canSeeProgram,
  type ConsentAssociationDto,
  confirmationFields,
  contactPreferences,
  type HistoryChange,
  type HistoryEntryOf,
  historyItemInContainer,
  isPreferenceEntry,
  type PreferenceDto,
  type ProfileHistory,
  preferenceRule,
  type ProfileHistoryRule,
  type ProfileView,
  type StoredConsentAssociation,
  type StoredPreference,
} from '@app/profiles';

/** A preference in history also says whether it was active (archived or removed: false). */
export type HistoryPreferenceDto = PreferenceDto & { IsActive: boolean };

/** The history category of preferences (the routes History/Preferences read it). */
export const PREFERENCE_HISTORY_CATEGORY = 'preference';

function change(
  list: string,
  item: StoredPreference,
  container?: HistoryChange['container'],
): HistoryChange {
  return {
    category: PREFERENCE_HISTORY_CATEGORY,
    list,
    ...(container ? { container } : {}),
    // What the filterId query compares.
    filterKey: textKey(item.FilterId),
    snapshot: item,
  };
}

function toConsentAssociation(item: StoredConsentAssociation): ConsentAssociationDto {
  return {
    ConsentType: item.ConsentType,
    ConsentVersion: item.ConsentVersion,
    IsActive: item.IsActive !== false,
    Locale: item.Locale,
    ReasonCode: item.ReasonCode,
  };
}

/** Whether an entry holds a preference: one of this category (or of a preference list). */
function holdsPreference(entry: ProfileHistory): entry is HistoryEntryOf<StoredPreference> {
  return entry.category === PREFERENCE_HISTORY_CATEGORY || isPreferenceEntry(entry);
}

/** A preference snapshot → its wire form, with the associations the view may see. */
function toHistoryPreference(item: StoredPreference, view: ProfileView): HistoryPreferenceDto {
  const associations = item.ConsentAssociations ?? [];
  const attributes = item.PreferenceAttributes ?? [];
  return {
    ProgramId: item.ProgramId,
    ChannelId: item.ChannelId,
    FilterId: item.FilterId,
    FrequencyId: item.FrequencyId,
    ConsentAssociations: associations
      .filter((association) => canSeeConsentType(view, association.ConsentType))
      .map(toConsentAssociation),
    MatchType: item.MatchType,
    ReasonCode: item.ReasonCode,
    PreferenceStatus: item.PreferenceStatus,
    UserId: item.UserId,
    SourceId: item.SourceId,
    ExpirationDate: item.ExpirationDate,
    LastModifiedDate: item.LastModifiedDate,
    CustomerDate: item.CustomerDate,
    PreferenceType: item.PreferenceType,
    PreferenceAttributes: attributes.map((attribute) => ({
      Key: attribute.Key,
      Value: attribute.Value,
    })),
    // Double opt-in: the pending mark, then the confirmation's evidence.
    ...confirmationFields(item),
    IsActive: item.IsActive !== false,
  };
}

/**
 * The history of preferences: one entry per preference a write changed (its associations
 * and attributes are part of it), of the profile and of each contact element; seen by
 * views that may see its program (implied preferences too: the `implied` flag is for
 * current-state retrieval).
 */
export const PREFERENCE_HISTORY: ProfileHistoryRule = {
  category: PREFERENCE_HISTORY_CATEGORY,
  // Consent receipts: the entries form the profile's hash chain (docs/receipts.md).
  chained: true,
  changes: (before, after, diff) => [
    ...diff
      .changedItems(before?.ProfilePreferences, after.ProfilePreferences, preferenceRule, {
        whole: true,
      })
      .map((item) => change('ProfilePreferences', item)),
    ...diff.contacts.flatMap((contact) =>
      diff
        .changedItems(
          contactPreferences(contact.before),
          contactPreferences(contact.after),
          preferenceRule,
          { whole: true },
        )
        .map((item) => change(contact.preferences, item, contact.container)),
    ),
  ],
  canSee: (view, entry) =>
    canSeeProgram(view, holdsPreference(entry) ? entry.snapshot.ProgramId : undefined),
  toEntry: (entry, view) =>
    historyItemInContainer(
      entry,
      entry.list ?? 'ProfilePreferences',
      holdsPreference(entry) ? toHistoryPreference(entry.snapshot, view) : {},
    ),
};
