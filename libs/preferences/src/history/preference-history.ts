import { textKey } from '@app/shared';
import {
  canSeeConsentType,
  canSeeProgram,
  type ConsentAssociationDto,
  confirmationFields,
  contactPreferences,
  type HistoryChange,
  type HistorySnapshot,
  historyItemInContainer,
  type PreferenceDto,
  preferenceRule,
  type ProfileHistoryRule,
  type ProfileView,
  type StoredPreference,
} from '@app/profiles';

const text = (item: HistorySnapshot, field: string) => item[field] as string | undefined;

/** A preference in history also says whether it was active (archived or removed: false). */
export type HistoryPreferenceDto = PreferenceDto & { IsActive: boolean };

/** The history category of preferences (the routes History/Preferences read it). */
export const PREFERENCE_HISTORY_CATEGORY = 'preference';

function change(
  list: string,
  item: HistorySnapshot,
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

function toConsentAssociation(item: HistorySnapshot): ConsentAssociationDto {
  return {
    ConsentType: text(item, 'ConsentType'),
    ConsentVersion: text(item, 'ConsentVersion'),
    IsActive: item.IsActive !== false,
    Locale: text(item, 'Locale'),
    ReasonCode: text(item, 'ReasonCode'),
  };
}

/** A preference snapshot → its wire form, with the associations the view may see. */
function toHistoryPreference(item: HistorySnapshot, view: ProfileView): HistoryPreferenceDto {
  const associations = (item.ConsentAssociations as HistorySnapshot[] | undefined) ?? [];
  const attributes = (item.PreferenceAttributes as HistorySnapshot[] | undefined) ?? [];
  return {
    ProgramId: text(item, 'ProgramId'),
    ChannelId: text(item, 'ChannelId'),
    FilterId: text(item, 'FilterId'),
    FrequencyId: text(item, 'FrequencyId'),
    ConsentAssociations: associations
      .filter((association) => canSeeConsentType(view, association.ConsentType))
      .map(toConsentAssociation),
    MatchType: text(item, 'MatchType'),
    ReasonCode: text(item, 'ReasonCode'),
    PreferenceStatus: text(item, 'PreferenceStatus'),
    UserId: text(item, 'UserId'),
    SourceId: text(item, 'SourceId'),
    ExpirationDate: text(item, 'ExpirationDate'),
    LastModifiedDate: text(item, 'LastModifiedDate'),
    CustomerDate: text(item, 'CustomerDate'),
    PreferenceType: item.PreferenceType as number | undefined,
    PreferenceAttributes: attributes.map((attribute) => ({
      Key: attribute.Key as string,
      Value: attribute.Value as string | undefined,
    })),
    // Double opt-in: the pending mark, then the confirmation's evidence.
    ...confirmationFields(item as Pick<StoredPreference, 'PendingConfirmation' | 'Confirmation'>),
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
  canSee: (view, entry) => canSeeProgram(view, entry.snapshot.ProgramId),
  toEntry: (entry, view) =>
    historyItemInContainer(
      entry,
      entry.list ?? 'ProfilePreferences',
      toHistoryPreference(entry.snapshot, view),
    ),
};
