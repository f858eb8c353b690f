import { ConsentStatus } from '@app/config';
import { textKey } from '@app/shared';
import {
  phoneDigits,
  type ProfileData,
  type StoredConsent,
  type StoredEmail,
  type StoredPhone,
  type StoredPreference,
  type WriteContext,
} from '@app/profiles';

/**
 * A do-not-contact list change as applied to one profile (system write `dnc-apply`, queued
 * by the worker's do-not-contact job for every profile holding the value).
 */
export interface DncApplyWrite {
  Channel: 'Email' | 'Phone';
  /** The list entry's key: a lower-cased email address or a phone's digits. */
  Key: string;
  ListId: number;
  /** true: the value was put on the list; false: it left the list. */
  Listed: boolean;
  ReasonCode?: string;
  /** The account's Do Not Contact filter for the channel, when one is configured. */
  Filter?: { ProgramId: string; ChannelId: string; FilterId: string };
}

/** Attribute of a do-not-contact preference: the ids of the lists that caused it. */
export const DNC_LISTS_ATTRIBUTE = '$DoNotContactLists';
/** Reason recorded on consents revoked because of a listing (and on the preference). */
export const DNC_REASON = 'DoNotContact';

/**
 * Whether a preference is a do-not-contact mark: it names the lists that caused it, or was
 * written by the do-not-contact propagation (its SourceId). A merge keeps one (P9).
 */
export function isDoNotContactMark(preference: StoredPreference): boolean {
  return (
    (preference.PreferenceAttributes ?? []).some((a) => a.Key === DNC_LISTS_ATTRIBUTE) ||
    (preference.SourceId ?? '').trim().toLowerCase() === DNC_REASON.toLowerCase()
  );
}

type ContactElement = StoredEmail | StoredPhone;

/**
 * Listing: every active contact element with the value gets (or keeps) an active
 * preference on the Do Not Contact filter naming the list, and the element's consents tied
 * to its other active preferences (their ConsentAssociations' types) that are Granted become
 * Revoked, with reason DoNotContact. Leaving the list: the list leaves the preference's
 * attribute, and a preference no list holds any more is archived (IsActive false). Applying
 * the same change twice changes nothing the second time.
 */
export function applyDoNotContact(
  data: ProfileData,
  change: DncApplyWrite,
  ctx: WriteContext,
): ProfileData {
  const next = structuredClone(data);
  let changed = false;
  const listId = String(change.ListId);
  for (const element of contactElements(next, change)) {
    const step: ElementStep = {
      preferences: preferencesOf(element, change.Channel),
      listId,
      change,
      ctx,
    };
    changed = (change.Listed ? list(element, step) : unlist(step)) || changed;
  }
  if (!changed) return data;
  next.Edited = { ...next.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId };
  return next;
}

/** Whether an active profile holds the value on an active email (or phone). */
export function holdsListedValue(
  data: ProfileData,
  change: Pick<DncApplyWrite, 'Channel' | 'Key'>,
): boolean {
  return data.IsActive !== false && contactElements(data, change).length > 0;
}

function contactElements(
  data: ProfileData,
  change: Pick<DncApplyWrite, 'Channel' | 'Key'>,
): ContactElement[] {
  if (change.Channel === 'Email') {
    return (data.Emails ?? []).filter(
      (email) => email.IsActive !== false && textKey(email.EmailAddress) === change.Key,
    );
  }
  return (data.PhoneNumbers ?? []).filter(
    (phone) => phone.IsActive !== false && phoneDigits(phone.PhoneNumber) === change.Key,
  );
}

/** The element's preferences of the channel (an email's, or a phone's), created empty if none. */
function preferencesOf(
  element: ContactElement,
  channel: DncApplyWrite['Channel'],
): StoredPreference[] {
  // elementsHolding took the element from the channel's list (Emails, or PhoneNumbers).
  if (channel === 'Email') return ((element as StoredEmail).EmailPreferences ??= []);
  return ((element as StoredPhone).PhonePreferences ??= []);
}

const isDncPreference = (preference: StoredPreference, filter: DncApplyWrite['Filter']) =>
  filter !== undefined &&
  textKey(preference.ProgramId) === textKey(filter.ProgramId) &&
  textKey(preference.FilterId) === textKey(filter.FilterId);

const listsOf = (preference: StoredPreference): string[] =>
  (preference.PreferenceAttributes ?? [])
    .find((attribute) => attribute.Key === DNC_LISTS_ATTRIBUTE)
    ?.Value?.split(',')
    .filter(Boolean) ?? [];

function setLists(preference: StoredPreference, lists: string[]): void {
  const others = (preference.PreferenceAttributes ?? []).filter(
    (attribute) => attribute.Key !== DNC_LISTS_ATTRIBUTE,
  );
  preference.PreferenceAttributes = [
    ...others,
    { Key: DNC_LISTS_ATTRIBUTE, Value: [...lists].sort((a, b) => Number(a) - Number(b)).join(',') },
  ];
}

/** The change as applied to one contact element: its preferences of the channel, the list's id. */
interface ElementStep {
  preferences: StoredPreference[];
  listId: string;
  change: DncApplyWrite;
  ctx: WriteContext;
}

function list(element: ContactElement, { preferences, listId, change, ctx }: ElementStep): boolean {
  let changed = false;
  if (change.Filter) {
    let preference = preferences.find((candidate) => isDncPreference(candidate, change.Filter));
    if (!preference) {
      preference = {
        ...change.Filter,
        PreferenceType: 1,
        MatchType: 'Expressed',
        PreferenceStatus: 'Active',
        ReasonCode: change.ReasonCode ?? DNC_REASON,
        SourceId: DNC_REASON,
        PreferenceAttributes: [],
        IsActive: true,
      } as StoredPreference;
      preferences.push(preference);
      changed = true;
    }
    const lists = listsOf(preference);
    if (preference.IsActive === false || !lists.includes(listId)) {
      preference.IsActive = true;
      preference.PreferenceStatus = 'Active';
      setLists(preference, lists.includes(listId) ? lists : [...lists, listId]);
      preference.LastModifiedDate = ctx.at;
      changed = true;
    }
  }
  // Consents tied to the element's other preferences are revoked.
  const tied = new Set(
    preferences
      .filter(
        (preference) =>
          preference.IsActive !== false && !isDncPreference(preference, change.Filter),
      )
      .flatMap((preference) => preference.ConsentAssociations ?? [])
      .filter((association) => association.IsActive !== false)
      .map((association) => textKey(association.ConsentType)),
  );
  for (const consent of (element.Consents ?? []) as StoredConsent[]) {
    if (consent.IsActive === false || consent.ConsentStatus !== ConsentStatus.Granted) continue;
    if (!tied.has(textKey(consent.ConsentType))) continue;
    consent.ConsentStatus = ConsentStatus.Revoked;
    consent.ReasonCode = DNC_REASON;
    consent.Edited = { ...consent.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId };
    changed = true;
  }
  return changed;
}

function unlist({ preferences, listId, change, ctx }: ElementStep): boolean {
  let changed = false;
  for (const preference of preferences) {
    const lists = listsOf(preference);
    if (preference.IsActive === false || !lists.includes(listId)) continue;
    const remaining = lists.filter((id) => id !== listId);
    setLists(preference, remaining);
    if (!remaining.length) {
      // Archived: kept with its history, no longer returned.
      preference.IsActive = false;
      preference.PreferenceAttributes = [
        ...(preference.PreferenceAttributes ?? []).filter((a) => a.Key !== '$Reason_Code'),
        { Key: '$Reason_Code', Value: change.ReasonCode ?? 'RemovedFromDoNotContactList' },
      ];
    }
    preference.LastModifiedDate = ctx.at;
    changed = true;
  }
  return changed;
}
