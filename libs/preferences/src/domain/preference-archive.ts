import { textKey } from '@app/shared';
import {
  type ContactElement,
  contactPreferences,
  fieldOf,
  phoneDigits,
  preferenceIdKey,
  type ProfileData,
  type StoredPreference,
  type WriteContext,
} from '@app/profiles';

/*
 * Archiving preferences (PUT /{clientId}/Profile/Preferences/{profileId}/Archive): the
 * selected preferences become inactive (kept, never returned, recorded in history), with
 * the archival's reason in the reserved preference attribute `$Reason_Code`.
 */

/** The reserved preference attribute that carries the reason of an archival. */
export const ARCHIVE_REASON_ATTRIBUTE = '$Reason_Code';

/** One item of Emails: every field given narrows what it selects. */
export interface ArchiveEmailItem {
  EmailAddressType?: string | null;
  EmailAddress?: string | null;
  FilterId?: string | null;
  Reason_Code?: string | null;
}

/** One item of PhoneNumbers (PhoneNumber compared by its digits). */
export interface ArchivePhoneItem {
  PhoneType?: string | null;
  PhoneNumber?: string | null;
  FilterId?: string | null;
  Reason_Code?: string | null;
}

/** One item of Addresses: AddressType, Address1 and PostalCode are the address's key. */
export interface ArchiveAddressItem {
  AddressType?: string | null;
  Address1?: string | null;
  PostalCode?: string | null;
  FilterId?: string | null;
  Reason_Code?: string | null;
}

/** One item of ProfilePreferences: selects profile-level preferences by program and filter. */
export interface ArchiveProfileItem {
  ProgramId?: string | null;
  FilterId?: string | null;
  Reason_Code?: string | null;
}

/** The body of a queued `archive-preferences` write (the validated request body). */
export interface ArchivePreferencesWrite {
  GlobalDeactivate?: boolean | null;
  Reason_Code?: string | null;
  Emails?: ArchiveEmailItem[] | null;
  PhoneNumbers?: ArchivePhoneItem[] | null;
  Addresses?: ArchiveAddressItem[] | null;
  ProfilePreferences?: ArchiveProfileItem[] | null;
}

/** One item of any list of the body. */
type ArchiveItem = ArchiveEmailItem | ArchivePhoneItem | ArchiveAddressItem | ArchiveProfileItem;
type Normalise = (value: unknown) => string;

const given = (value: unknown): boolean =>
  value !== undefined && value !== null && !(typeof value === 'string' && !value.trim());
const postalCode: Normalise = (value) => textKey(value).replace(/\s/g, '');

/**
 * A list of the body and what its items select: `element` are the fields naming the
 * contact element (compared with their normaliser), FilterId always narrows to one filter.
 */
interface ArchiveList {
  list: 'Emails' | 'PhoneNumbers' | 'Addresses' | 'ProfilePreferences';
  /** Where the selected preferences live: a contact element's list, or the profile's own. */
  preferences: 'EmailPreferences' | 'PhonePreferences' | 'AddressPreferences' | null;
  element: Record<string, Normalise>;
  /** Fields matched against the preference itself (besides FilterId). */
  preference: Record<string, Normalise>;
}

const LISTS: ArchiveList[] = [
  {
    list: 'Emails',
    preferences: 'EmailPreferences',
    element: { EmailAddressType: textKey, EmailAddress: textKey },
    preference: {},
  },
  {
    list: 'PhoneNumbers',
    preferences: 'PhonePreferences',
    element: { PhoneType: textKey, PhoneNumber: phoneDigits },
    preference: {},
  },
  {
    list: 'Addresses',
    preferences: 'AddressPreferences',
    element: { AddressType: textKey, Address1: textKey, PostalCode: postalCode },
    preference: {},
  },
  {
    list: 'ProfilePreferences',
    preferences: null,
    element: {},
    preference: { ProgramId: preferenceIdKey },
  },
];

/** The fields by which an item of `list` selects; an item must give at least one. */
export function selectorFields(list: ArchiveList['list']): string[] {
  const spec = LISTS.find((entry) => entry.list === list)!;
  return [...Object.keys(spec.element), ...Object.keys(spec.preference), 'FilterId'];
}

/**
 * What the body lacks that the DTOs cannot say, one message each (empty: acceptable):
 * it must archive something (GlobalDeactivate true or at least one item), and each item
 * must name what it selects.
 */
export function archiveRequestProblems(body: ArchivePreferencesWrite): string[] {
  const problems: string[] = [];
  let items = 0;
  for (const { list } of LISTS) {
    const entries: readonly ArchiveItem[] = body[list] ?? [];
    items += entries.length;
    const fields = selectorFields(list);
    entries.forEach((item, index) => {
      if (!fields.some((field) => given(fieldOf(item, field)))) {
        problems.push(
          `${list}[${index}] selects nothing: give at least one of ${fields.join(', ')}`,
        );
      }
    });
  }
  if (body.GlobalDeactivate !== true && items === 0) {
    problems.push(
      'Nothing to archive: set GlobalDeactivate to true or name preferences in Emails, PhoneNumbers, Addresses or ProfilePreferences',
    );
  }
  return problems;
}

/** Whether every field the item gives agrees with the target (normalised). */
function agrees(item: ArchiveItem, target: object, fields: Record<string, Normalise>): boolean {
  return Object.entries(fields).every(([field, normalise]) => {
    const value = fieldOf(item, field);
    return !given(value) || normalise(value) === normalise(fieldOf(target, field));
  });
}

/** Whether an item selects a preference held by `element` (undefined: profile level). */
function selects(
  spec: ArchiveList,
  item: ArchiveItem,
  element: ContactElement | undefined,
  pref: StoredPreference,
): boolean {
  const fields = selectorFields(spec.list);
  if (!fields.some((field) => given(fieldOf(item, field)))) return false; // selects nothing
  return (
    (element === undefined || agrees(item, element, spec.element)) &&
    agrees(item, pref, spec.preference) &&
    agrees(item, pref, { FilterId: preferenceIdKey })
  );
}

/**
 * The profile data after an archival. Each active preference that `mayArchive` allows
 * (the writer's user-group scope, by program) is archived when GlobalDeactivate is true
 * or an item of its list selects it. Every field an item gives narrows the selection:
 * a type alone selects all elements of that type, type and value one element, and a
 * FilterId one filter; a value alone selects the element under any type. An archived
 * preference gets IsActive false, LastModifiedDate = the write's time, and
 * `$Reason_Code` = the Reason_Code of the first item selecting it that has one, else the
 * top-level Reason_Code (none: the attribute is removed). Preferences already inactive
 * are left as they are. Nothing selected: the data is returned unchanged.
 */
export function archivePreferences(
  data: ProfileData,
  request: ArchivePreferencesWrite,
  mayArchive: (programId: string | undefined) => boolean,
  ctx: WriteContext,
): ProfileData {
  const result = structuredClone(data);
  let archived = 0;

  const archiveIn = (
    spec: ArchiveList,
    preferences: readonly StoredPreference[] | undefined,
    element: ContactElement | undefined,
  ) => {
    for (const preference of preferences ?? []) {
      if (preference.IsActive === false || !mayArchive(preference.ProgramId)) continue;
      const requested: readonly ArchiveItem[] = request[spec.list] ?? [];
      const items = requested.filter((item) => selects(spec, item, element, preference));
      if (request.GlobalDeactivate !== true && !items.length) continue;
      const reason =
        items.find((item) => given(item.Reason_Code))?.Reason_Code ?? request.Reason_Code;
      archive(preference, given(reason) ? String(reason) : undefined, ctx.at);
      archived += 1;
    }
  };

  for (const spec of LISTS) {
    if (spec.list === 'ProfilePreferences') {
      archiveIn(spec, result.ProfilePreferences, undefined);
      continue;
    }
    const contacts: readonly ContactElement[] = result[spec.list] ?? [];
    // The element's own preference list (spec.preferences).
    for (const element of contacts) archiveIn(spec, contactPreferences(element), element);
  }

  if (!archived) return data;
  const Edited = { ...data.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId };
  return { ...result, Edited };
}

/** Makes one preference archived (in place: it belongs to the caller's copy). */
function archive(preference: StoredPreference, reason: string | undefined, at: string): void {
  // An earlier archival's reason (the preference was brought back since) is replaced.
  const key = textKey(ARCHIVE_REASON_ATTRIBUTE);
  const stored = preference.PreferenceAttributes ?? [];
  const attributes = stored.filter((attribute) => textKey(attribute.Key) !== key);
  if (reason !== undefined) attributes.push({ Key: ARCHIVE_REASON_ATTRIBUTE, Value: reason });
  if (attributes.length || stored.length) preference.PreferenceAttributes = attributes;
  preference.IsActive = false;
  preference.LastModifiedDate = at;
}
