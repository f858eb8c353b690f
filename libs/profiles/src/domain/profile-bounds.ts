import { fieldOf, type ProfileBody } from './profile-shape';

/**
 * How many elements one profile may hold in each list: checked on every write body at
 * acceptance (400) and on the profile a write would produce when the worker applies it (a
 * merge adding to a full list, a patch: the write fails with the same words). The bounds
 * keep one profile document, its history and the work of one write small (an unbounded
 * list made one write outlast the worker's lease and exhaust the engine's connections).
 */
export const PROFILE_LIST_BOUNDS = {
  Emails: 100,
  PhoneNumbers: 100,
  Addresses: 100,
  AlternateIds: 100,
  CustomFields: 500,
  ProfileTags: 500,
  Groups: 100,
  Consents: 200,
  ProfilePreferences: 500,
} as const;

/** Per contact element, and per preference. */
export const NESTED_LIST_BOUNDS = {
  /** EmailPreferences, PhonePreferences, AddressPreferences of one contact. */
  preferences: 200,
  /** Consents of one contact. */
  consents: 200,
  /** PreferenceAttributes and ConsentAssociations of one preference. */
  perPreference: 50,
} as const;

const CONTACT_PREFERENCES = {
  Emails: 'EmailPreferences',
  PhoneNumbers: 'PhonePreferences',
  Addresses: 'AddressPreferences',
} as const;

/**
 * The bounds a profile body or stored profile breaks, worded for a 400 or a failed write
 * (empty when it keeps them all). Lists that are not arrays are left to validation.
 * `activeOnly` (a stored profile): elements kept inactive for the record do not count, so
 * a profile is never locked by what it no longer holds.
 */
export function profileBoundViolations(
  profile: ProfileBody,
  options: { activeOnly: boolean } = { activeOnly: false },
): string[] {
  const problems: string[] = [];
  const over = (what: string, list: unknown, bound: number) => {
    if (!Array.isArray(list) || list.length <= bound) return;
    const count = options.activeOnly
      ? list.filter(
          (item: unknown) =>
            typeof item !== 'object' || item === null || fieldOf(item, 'IsActive') !== false,
        ).length
      : list.length;
    if (count > bound) {
      problems.push(`${what} holds ${count} elements; a profile may hold at most ${bound}`);
    }
  };
  const preferences = (where: string, list: unknown) => {
    if (!Array.isArray(list)) return;
    list.forEach((preference: unknown, index) => {
      if (!preference || typeof preference !== 'object') return;
      for (const field of ['PreferenceAttributes', 'ConsentAssociations']) {
        over(
          `${where}[${index}].${field}`,
          fieldOf(preference, field),
          NESTED_LIST_BOUNDS.perPreference,
        );
      }
    });
  };
  for (const [list, bound] of Object.entries(PROFILE_LIST_BOUNDS)) {
    over(list, fieldOf(profile, list), bound);
  }
  preferences('ProfilePreferences', profile.ProfilePreferences);
  for (const [list, field] of Object.entries(CONTACT_PREFERENCES)) {
    const contacts = fieldOf(profile, list);
    if (!Array.isArray(contacts)) continue;
    contacts.forEach((contact: unknown, index) => {
      if (!contact || typeof contact !== 'object') return;
      const contactPreferences = fieldOf(contact, field);
      over(`${list}[${index}].${field}`, contactPreferences, NESTED_LIST_BOUNDS.preferences);
      over(`${list}[${index}].Consents`, fieldOf(contact, 'Consents'), NESTED_LIST_BOUNDS.consents);
      preferences(`${list}[${index}].${field}`, contactPreferences);
    });
  }
  return problems;
}
