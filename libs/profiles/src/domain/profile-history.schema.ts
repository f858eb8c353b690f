import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type {
  ProfileData,
  StoredAddress,
  StoredConsent,
  StoredCustomField,
  StoredEmail,
  StoredPhone,
  StoredPreference,
} from './profile-data.schema';

/** The history categories of the profile itself (rule modules add their own). */
export type ProfileHistoryCategory = 'standard' | 'customField' | 'contact';

/**
 * The history category of a merge's own entry on the survivor (docs/profile-merge.md,
 * "History and receipts"; domain/profile-merge-history.ts): chained, so the survivor's
 * receipt chain links the merge, and its content (hashed) carries the absorbed profile's
 * chain head.
 */
export const MERGE_HISTORY_CATEGORY = 'merge';

/** What a history entry is about (one query per category): the profile's or a module's. */
export type HistoryCategory = string;

export type ContactList = 'Emails' | 'PhoneNumbers' | 'Addresses';

/** The fields that name a contact element on the wire (which ones: by its list). */
export type ContactIdentityField =
  | 'EmailAddress'
  | 'EmailAddressType'
  | 'PhoneNumber'
  | 'PhoneType'
  | 'AddressType'
  | 'Address1'
  | 'PostalCode';
export type ContactIdentity = { [F in ContactIdentityField]?: string | null };

/**
 * The contact element a preference or consent belongs to, by the fields that identify it
 * on the wire (as they were after the write). Absent on an entry: the item is the
 * profile's own (ProfilePreferences, profile-level Consents).
 */
export interface HistoryContainer {
  list: ContactList;
  fields: ContactIdentity;
}

/** The standard fields of the spec (CustomerName holds the name parts). */
export type StandardField =
  | 'IsActive'
  | 'RegistrationConfirmed'
  | 'CustomerType'
  | 'PreserveConsents'
  | 'PreservePreferences'
  | 'DefaultLocale'
  | 'ReasonCode'
  | 'CustomerName';

/** A `standard` entry's item: the profile's standard fields and its Edited stamp. */
export type StandardSnapshot = Partial<Pick<ProfileData, StandardField | 'Edited'>>;

/** A `contact` entry's item: the contact element without its nested lists (they have entries of their own). */
export type EmailSnapshot = Omit<StoredEmail, 'EmailPreferences' | 'Consents'>;
export type PhoneSnapshot = Omit<StoredPhone, 'PhonePreferences' | 'Consents'>;
export type AddressSnapshot = Omit<StoredAddress, 'AddressPreferences' | 'Consents'>;
export type ContactSnapshot = EmailSnapshot | PhoneSnapshot | AddressSnapshot;

/**
 * A `merge` entry's item (what StandardFields history shows as `Merge`;
 * domain/profile-merge-history.ts).
 */
export interface MergeSnapshot {
  AbsorbedProfileId: number;
  ReasonCode: string;
  MergedBy: string;
  MergedAt: string;
  /** The absorbed profile's receipt-chain head when it was absorbed (null: none). */
  AbsorbedHead: string | null;
  /** The absorbed profile's CreateDate (F4: the survivor keeps its own). */
  AbsorbedCreateDate: string | null;
}

/**
 * The stored fields of one item of a history entry, read back from the entry's JSON: the
 * stored shape of the item as it was after the write (profile-data.schema.ts), without
 * its derived Key. Which kind it is follows from the entry's category and list, not from
 * the item: the narrowing functions below (and a rule module's own, for its categories)
 * tell readers which one they hold.
 */
export type HistorySnapshot =
  | StandardSnapshot
  | StoredCustomField
  | ContactSnapshot
  | StoredPreference
  | StoredConsent
  | MergeSnapshot;

/**
 * One changed item of one applied write: the item as it was after the write (a removed
 * item as its last state with IsActive false). `_id` is
 * `<clientId>|<profileId>|<seq>|<n>` (n: the entry's index within the write), so
 * recording a write again records the same entries. Entries are only read up to the
 * profile's appliedSeq: those of a write not (yet) saved are invisible.
 */
export interface ProfileHistory {
  _id: TenantKey;
  clientId: string;
  profileId: number;
  /** Sequence number of the write (profile_writes) that made the change. */
  seq: number;
  n: number;
  category: HistoryCategory;
  /** The write's acceptance time (ISO 8601): what the item's Edited.ModifiedDate says. */
  modifiedAt: string;
  /**
   * The profile list holding the item: CustomFields, Emails, PhoneNumbers, Addresses,
   * ProfilePreferences, EmailPreferences, PhonePreferences, AddressPreferences or Consents;
   * absent for standard fields.
   */
  list?: string;
  container?: HistoryContainer;
  /** A preference's FilterId, normalised (textKey): what the filterId query compares. */
  filterKey?: string;
  /** The item's stored fields after the write (contacts without their nested lists). */
  snapshot: HistorySnapshot;
  /**
   * The profile's consent-receipt hash chain (domain/history-chain.ts; docs/receipts.md):
   * on entries of a chained category (consents, preferences) only, absent on entries
   * recorded before chaining. `prevHash`: the previous chained entry's hash (null for the
   * first); `hash`: SHA-256 (hex) of the entry's canonical JSON without `hash`.
   */
  prevHash?: string | null;
  hash?: string;
}

/**
 * A profile's history, stored so that every read and write is addressed by `_id`: pages
 * `<clientId>|<profileId>|p<k>` (k from 0) holding up to HISTORY_PAGE_ENTRIES entries in
 * write order; the profile document counts its pages (Profile.historyPages). A read fetches
 * the counted pages by `_id`, so its cost follows that profile's own history, never the
 * collection. Only the worker writes them, under the profile's lease.
 */
@Schema({ collection: 'profile_history', versionKey: false })
export class ProfileHistoryDoc {
  @Prop({ type: String }) _id: TenantKey;
  /**
   * The page's entries, each stored as its JSON text (`encodeHistoryEntries`): the engine
   * stores and returns a string without converting each field, several times cheaper than
   * the entry as a subdocument, and nothing queries inside a page. Pages written before
   * hold the entries as subdocuments; `decodeHistoryEntries` reads both.
   */
  @Prop({ type: [Object], default: undefined }) entries?: Array<string | ProfileHistory>;
  /**
   * How many of `entries` count (absent: all). Set by an append that wrote entries into the
   * page by position without reading it (ProfileHistoryRepository.recordPass): entries past
   * it were left by an attempt that never reached its save, and the next append overwrites
   * them.
   */
  @Prop() n?: number;
}

/** A page's entries as stored (see ProfileHistoryDoc.entries). */
export function encodeHistoryEntries(entries: ProfileHistory[]): string[] {
  return entries.map((entry) => JSON.stringify(entry));
}

/** A stored page's entries, whichever way they were stored. */
export function decodeHistoryEntries(doc: ProfileHistoryDoc | null | undefined): ProfileHistory[] {
  const stored = doc?.entries ?? [];
  const counted = doc?.n === undefined ? stored : stored.slice(0, doc.n);
  return counted.map((entry) =>
    typeof entry === 'string' ? (JSON.parse(entry) as ProfileHistory) : entry,
  );
}

/** A history entry whose item is of one kind (see the narrowing functions below). */
export type HistoryEntryOf<S extends HistorySnapshot> = ProfileHistory & { snapshot: S };

const PREFERENCE_LISTS = new Set([
  'ProfilePreferences',
  'EmailPreferences',
  'PhonePreferences',
  'AddressPreferences',
]);

/** An entry of the profile's standard fields (the profile itself: no list). */
export function isStandardEntry(entry: ProfileHistory): entry is HistoryEntryOf<StandardSnapshot> {
  return entry.category === 'standard' && !entry.list;
}

/** An entry of a custom field. */
export function isCustomFieldEntry(
  entry: ProfileHistory,
): entry is HistoryEntryOf<StoredCustomField> {
  return entry.category === 'customField' || entry.list === 'CustomFields';
}

/** An entry of a contact element itself (not of a preference or consent inside one). */
export function isEmailEntry(entry: ProfileHistory): entry is HistoryEntryOf<EmailSnapshot> {
  return entry.list === 'Emails' && !entry.container;
}
export function isPhoneEntry(entry: ProfileHistory): entry is HistoryEntryOf<PhoneSnapshot> {
  return entry.list === 'PhoneNumbers' && !entry.container;
}
export function isAddressEntry(entry: ProfileHistory): entry is HistoryEntryOf<AddressSnapshot> {
  return entry.list === 'Addresses' && !entry.container;
}
export function isContactEntry(entry: ProfileHistory): entry is HistoryEntryOf<ContactSnapshot> {
  return isEmailEntry(entry) || isPhoneEntry(entry) || isAddressEntry(entry);
}

/** An entry of a preference (the profile's, or a contact element's). */
export function isPreferenceEntry(
  entry: ProfileHistory,
): entry is HistoryEntryOf<StoredPreference> {
  return entry.list !== undefined && PREFERENCE_LISTS.has(entry.list);
}

/** An entry of a consent (the profile's, or a contact element's). */
export function isConsentEntry(entry: ProfileHistory): entry is HistoryEntryOf<StoredConsent> {
  return entry.list === 'Consents';
}

/** A merge's own entry on the survivor. */
export function isMergeEntry(entry: ProfileHistory): entry is HistoryEntryOf<MergeSnapshot> {
  return entry.category === MERGE_HISTORY_CATEGORY;
}

export const ProfileHistoryDocSchema = SchemaFactory.createForClass(ProfileHistoryDoc);
// No secondary index: pages are read, replaced and deleted by `_id` only.
