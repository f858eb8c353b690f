import { textKey, textKeyCondition } from '@app/shared';
import {
  type AttributePair,
  canSeePreference,
  type ProfileData,
  type ProfileSearchRule,
  type ProfileView,
  type StoredPreference,
} from '@app/profiles';

/** Profiles with an active preference holding every listed attribute. */
export interface PreferenceAttributeSearch {
  kind: 'preferenceAttributes';
  attributes: AttributePair[];
}

/** Where preference attributes are stored: the profile's preferences and each contact's. */
const ATTRIBUTE_KEY_PATHS = [
  'data.ProfilePreferences.PreferenceAttributes.Key',
  'data.Emails.EmailPreferences.PreferenceAttributes.Key',
  'data.PhoneNumbers.PhonePreferences.PreferenceAttributes.Key',
  'data.Addresses.AddressPreferences.PreferenceAttributes.Key',
];

const isActive = (element: { IsActive?: boolean }) => element.IsActive !== false;

/** The preferences of the profile and of its contact elements (active ones only, if asked). */
function preferencesOf(data: ProfileData, activeContactsOnly: boolean): StoredPreference[] {
  const on = <T extends { IsActive?: boolean }>(list: T[] | undefined) =>
    (list ?? []).filter((element) => !activeContactsOnly || isActive(element));
  return [
    ...(data.ProfilePreferences ?? []),
    ...on(data.Emails).flatMap((email) => email.EmailPreferences ?? []),
    ...on(data.PhoneNumbers).flatMap((phone) => phone.PhonePreferences ?? []),
    ...on(data.Addresses).flatMap((address) => address.AddressPreferences ?? []),
  ];
}

/**
 * Whether a preference is active, visible to the view and holds every listed attribute
 * (keys and values compared trimmed, spaces folded, case-insensitively).
 */
export function preferenceHasAttributes(
  preference: StoredPreference,
  attributes: AttributePair[],
  view: ProfileView,
): boolean {
  return (
    isActive(preference) &&
    canSeePreference(view, preference) &&
    attributes.every((wanted) =>
      (preference.PreferenceAttributes ?? []).some(
        (held) =>
          textKey(held.Key) === textKey(wanted.Key) &&
          textKey(held.Value) === textKey(wanted.Value),
      ),
    )
  );
}

/** The search keys of a profile's preferences: one per attribute key, in every container. */
export function* preferenceSearchKeys(data: ProfileData): Iterable<string> {
  for (const preference of preferencesOf(data, false)) {
    for (const attribute of preference.PreferenceAttributes ?? []) {
      yield `pattr:${textKey(attribute.Key)}`;
    }
  }
}

export const PREFERENCE_ATTRIBUTE_SEARCH: ProfileSearchRule<PreferenceAttributeSearch> = {
  kind: 'preferenceAttributes',
  keyQuery: (criteria) =>
    criteria.attributes.map((attribute) => [`pattr:${textKey(attribute.Key)}`]),
  // Attribute keys are stored as sent, so they are compared by a case-insensitive anchored
  // regex; values are checked in code only.
  candidateConditions: (criteria) =>
    criteria.attributes.map((attribute) => ({
      $or: ATTRIBUTE_KEY_PATHS.map((path) => ({ [path]: textKeyCondition(attribute.Key) })),
    })),
  matches: (data, criteria, view) =>
    preferencesOf(data, true).some((preference) =>
      preferenceHasAttributes(preference, criteria.attributes, view),
    ),
  /**
   * Only the preferences holding every listed attribute are returned (spec: "only
   * preferences containing all listed attributes are returned"), in every container.
   */
  answer: (data, criteria, view) => {
    const keep = (preferences: StoredPreference[] | undefined) =>
      (preferences ?? []).filter((preference) =>
        preferenceHasAttributes(preference, criteria.attributes, view),
      );
    return {
      ...data,
      ProfilePreferences: keep(data.ProfilePreferences),
      Emails: (data.Emails ?? []).map((email) => ({
        ...email,
        EmailPreferences: keep(email.EmailPreferences),
      })),
      PhoneNumbers: (data.PhoneNumbers ?? []).map((phone) => ({
        ...phone,
        PhonePreferences: keep(phone.PhonePreferences),
      })),
      Addresses: (data.Addresses ?? []).map((address) => ({
        ...address,
        AddressPreferences: keep(address.AddressPreferences),
      })),
    };
  },
};
