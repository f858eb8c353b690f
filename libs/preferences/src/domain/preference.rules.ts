import { isDeepStrictEqual } from 'node:util';
import { textKey } from '@app/shared';
import {
  type BodyOf,
  consentRule,
  type ContactBody,
  deactivateUnrestated,
  type ElementBody,
  elementsOf,
  fieldOf,
  type PreferenceBody,
  type PreferenceFilter,
  type PreferenceVocabulary,
  preferenceIdKey,
  preferenceKey,
  preferenceRule,
  PROFILE_COLLECTIONS,
  type ProfileBody,
  type ProfileData,
  type StoredConsentAssociation,
  type StoredPreferenceAttribute,
  type WriteContext,
} from '@app/profiles';

/*
 * The preference rules (docs/preferences-consents.md, "Preferences"):
 * - preferenceProblems: every preference a write adds or changes names an existing, active
 *   program, a filter of it, the filter's channel, which must fit the container, and
 *   (optionally) one of the filter's frequencies; it carries the consent associations the
 *   filter requires; PreferenceType, MatchType and PreferenceStatus take their values only.
 *   Checked at acceptance (400) and again by the worker, against the stored profile.
 * - preferenceDataRule: a written preference is stored in canonical spelling, Active, with
 *   the ExpirationDate its filter's days give (data rule, after the merge).
 * - applyPreservePreferences: PreservePreferences false on a merge deactivates what the
 *   write does not restate (PreserveConsents is the consent rules').
 */

/** Which channels each preference container takes (spec: Solicit is the customer type's). */
export const CONTAINER_CHANNELS: Record<string, string[]> = {
  ProfilePreferences: ['Solicit'],
  EmailPreferences: ['Email'],
  PhonePreferences: ['Phone', 'Text/SMS'],
  AddressPreferences: ['Mail'],
};

const CONTACT_CONTAINERS: [
  collection: 'Emails' | 'PhoneNumbers' | 'Addresses',
  container: 'EmailPreferences' | 'PhonePreferences' | 'AddressPreferences',
][] = [
  ['Emails', 'EmailPreferences'],
  ['PhoneNumbers', 'PhonePreferences'],
  ['Addresses', 'AddressPreferences'],
];

const PREFERENCE_TYPES: Record<number, string> = { 1: 'opt-in', 2: 'opt-out' };
const MATCH_TYPES = ['Expressed', 'Implied'];
const STATUSES = ['Active', 'Expired'];

/** One preference container of a body (or stored profile) and its stored counterpart. */
interface ContainerPair {
  /** Where the container is in the body (`Emails[0].EmailPreferences`). */
  path: string;
  container: string;
  given: PreferenceBody[];
  stored: PreferenceBody[];
}

/** The preference containers of `data`, each with the matching container of `stored`. */
function containerPairs(data: ProfileBody, stored: ProfileData | undefined): ContainerPair[] {
  const pairs: ContainerPair[] = [
    {
      path: 'ProfilePreferences',
      container: 'ProfilePreferences',
      given: elementsOf<PreferenceBody>(data.ProfilePreferences),
      stored: elementsOf<PreferenceBody>(stored?.ProfilePreferences),
    },
  ];
  for (const [collection, container] of CONTACT_CONTAINERS) {
    const rule = PROFILE_COLLECTIONS[collection];
    const storedElements = elementsOf<ContactBody>(stored?.[collection]);
    elementsOf<ContactBody>(data[collection]).forEach((element, index) => {
      const match = storedElements.find((candidate) => rule.key(candidate) === rule.key(element));
      pairs.push({
        path: `${collection}[${index}].${container}`,
        container,
        given: elementsOf<PreferenceBody>(fieldOf(element, container)),
        stored: elementsOf<PreferenceBody>(fieldOf(match, container)),
      });
    });
  }
  return pairs;
}

/**
 * The problems of the preferences a body adds or changes, one message each, naming the
 * field by its path and the value. A preference the body repeats as stored (same key, and
 * every field it sends equal to the stored one) is not checked: a preference on a filter
 * deactivated since it was stored must not make every later write of the profile fail.
 */
export function preferenceProblems(
  body: ProfileBody,
  vocabulary: PreferenceVocabulary,
  kind: 'create' | 'merge' | 'overwrite',
  current?: ProfileData,
): string[] {
  const problems: string[] = [];
  const stored = kind === 'create' ? undefined : current;
  for (const { path, container, given, stored: storedList } of containerPairs(body, stored)) {
    given.forEach((preference, index) => {
      const match = storedList.find((s) => preferenceKey(s) === preferenceKey(preference));
      if (match && repeatsStored(preference, match, kind)) return;
      problems.push(
        ...checkPreference(
          preference,
          `${path}[${index}]`,
          container,
          vocabulary,
          kind === 'merge' ? match : undefined,
        ),
      );
    });
  }
  return problems;
}

function checkPreference(
  preference: PreferenceBody,
  path: string,
  container: string,
  vocabulary: PreferenceVocabulary,
  merged: PreferenceBody | undefined,
): string[] {
  const problems: string[] = [];
  type Field = keyof PreferenceBody;
  const at = (field: Field) => `${path}.${field} (value ${JSON.stringify(preference[field])})`;
  const text = (value: unknown): value is string =>
    typeof value === 'string' && value.trim() !== '';
  const given = (field: Field) => text(preference[field]);

  for (const field of ['ProgramId', 'ChannelId', 'FilterId'] as const) {
    if (!given(field)) problems.push(`${path}.${field} is required on a preference`);
  }

  const channelId = preference.ChannelId;
  const channel = text(channelId) ? vocabulary.channel(channelId) : undefined;
  if (given('ChannelId') && !channel) {
    problems.push(
      `${at('ChannelId')} names no channel (Phone, Text/SMS or its aliases Text and SMS, Email, Mail, Solicit)`,
    );
  }
  const fits = CONTAINER_CHANNELS[container];
  if (channel && !fits.includes(channel)) {
    problems.push(`${at('ChannelId')} does not fit ${container}, which takes ${fits.join(' or ')}`);
  }

  const programId = parseId(preference.ProgramId);
  const program = programId === undefined ? undefined : vocabulary.program(programId);
  if (given('ProgramId')) {
    if (!program) problems.push(`${at('ProgramId')} names no program of this account`);
    else if (!program.IsActive) problems.push(`${at('ProgramId')} is an inactive program`);
  }
  const filterId = parseId(preference.FilterId);
  const filter = filterId === undefined ? undefined : vocabulary.filter(filterId);
  if (given('FilterId')) {
    if (!filter) problems.push(`${at('FilterId')} names no filter of this account`);
    else if (program && filter.ProgramId !== programId) {
      problems.push(
        `${at('FilterId')} is a filter of program ${filter.ProgramId}, not of program ${programId}`,
      );
    } else if (!filter.IsActive) problems.push(`${at('FilterId')} is an inactive filter`);
  }

  if (filter && channel && filter.ChannelId !== channel) {
    problems.push(
      `${at('ChannelId')} is not the channel of filter ${filter.FilterId} (${filter.ChannelId})`,
    );
  }
  if (filter && given('FrequencyId')) {
    const wanted = textKey(preference.FrequencyId);
    if (!filter.FrequencyIds.some((id) => textKey(id) === wanted)) {
      const offered = filter.FrequencyIds.length
        ? `offers ${filter.FrequencyIds.map((id) => JSON.stringify(id)).join(', ')}`
        : 'has no frequencies';
      problems.push(
        `${at('FrequencyId')} is not a frequency of filter ${filter.FilterId}, which ${offered}`,
      );
    }
  }

  const type = preference.PreferenceType;
  if (
    type !== undefined &&
    type !== null &&
    !(typeof type === 'number' && PREFERENCE_TYPES[type])
  ) {
    problems.push(`${at('PreferenceType')} must be 1 (opt-in) or 2 (opt-out)`);
  }
  if (given('MatchType') && !canonical(MATCH_TYPES, preference.MatchType)) {
    problems.push(`${at('MatchType')} must be Expressed or Implied`);
  }
  if (given('PreferenceStatus') && !canonical(STATUSES, preference.PreferenceStatus)) {
    problems.push(`${at('PreferenceStatus')} must be Active or Expired`);
  }

  if (filter) {
    // An association given again is merged over the stored one (by ConsentType).
    const associations = effectiveEntries<BodyOf<StoredConsentAssociation>>(
      preference,
      merged,
      'ConsentAssociations',
      (association) => consentRule.key(association),
      (association, storedOne) => ({ ...(storedOne ?? {}), ...association }),
    );
    for (const typeName of filter.RequiredConsentTypes) {
      const held = associations.some(
        (association) =>
          textKey(association.ConsentType) === textKey(typeName) && association.IsActive !== false,
      );
      if (!held) {
        problems.push(
          `${path}.ConsentAssociations has no active association with the consent type ${JSON.stringify(typeName)}, which filter ${filter.FilterId} requires`,
        );
      }
    }
    if (filter.AttributeIds && Array.isArray(preference.PreferenceAttributes)) {
      const defined = new Set(filter.AttributeIds.map((id) => textKey(id)));
      preference.PreferenceAttributes.forEach((attribute, index) => {
        // An attribute has no IsActive of its own; one a body sends inactive is passed over.
        if (fieldOf(attribute, 'IsActive') === false || defined.has(textKey(attribute?.Key)))
          return;
        // Reserved attributes ($Reason_Code, $DoNotContactLists, $GlobalPrivacyControl) are
        // the service's own.
        if (typeof attribute?.Key === 'string' && attribute.Key.startsWith('$')) return;
        const offered = filter.AttributeIds!.length
          ? `defines ${filter.AttributeIds!.map((id) => JSON.stringify(id)).join(', ')}`
          : 'defines none';
        problems.push(
          `${path}.PreferenceAttributes[${index}].Key ${JSON.stringify(attribute?.Key ?? null)} is not an attribute of filter ${filter.FilterId}, which ${offered}`,
        );
      });
    }
    // An attribute given again replaces the stored one (by Key).
    const attributes = effectiveEntries<BodyOf<StoredPreferenceAttribute>>(
      preference,
      merged,
      'PreferenceAttributes',
      (attribute) => textKey(attribute.Key),
      (attribute) => attribute,
    );
    for (const id of filter.RequiredAttributes) {
      const value = attributes.find((attribute) => textKey(attribute.Key) === textKey(id))?.Value;
      if (typeof value !== 'string' || !value.trim()) {
        problems.push(
          `${path}.PreferenceAttributes has no ${JSON.stringify(id)} attribute with a value, which filter ${filter.FilterId} requires`,
        );
      }
    }
  }
  return problems;
}

/**
 * A nested list the preference will carry: in a merge, the stored entries with the given
 * ones over them, by `key` (`over`: what a given entry makes of the stored one); otherwise
 * the given ones.
 */
function effectiveEntries<E extends object>(
  preference: PreferenceBody,
  stored: PreferenceBody | undefined,
  field: 'ConsentAssociations' | 'PreferenceAttributes',
  key: (entry: E) => string,
  over: (given: E, stored: E | undefined) => E,
): E[] {
  const given = elementsOf<E>(preference[field]);
  if (!stored) return given;
  const result = new Map(elementsOf<E>(stored[field]).map((entry) => [key(entry), entry] as const));
  for (const entry of given) result.set(key(entry), over(entry, result.get(key(entry))));
  return [...result.values()];
}

/** Preference fields a writer may send, besides the key and the nested lists. */
const VALUE_FIELDS = preferenceRule.fields.filter(
  (field) => !preferenceRule.keyFields.includes(field),
);
const NESTED_FIELDS = ['ConsentAssociations', 'PreferenceAttributes'] as const;
/** Computed by the service: a write that omits them changes nothing (see preferenceDataRule). */
const COMPUTED_FIELDS = new Set(['PreferenceStatus', 'ExpirationDate']);

/**
 * Whether a given preference repeats the stored one: every field it sends equals the
 * stored value (nested entries compared by key on the fields they send), and, for an
 * overwrite (which drops what it omits), it omits nothing the stored one has.
 */
function repeatsStored(given: PreferenceBody, stored: PreferenceBody, kind: string): boolean {
  for (const field of VALUE_FIELDS) {
    if (!(field in given)) {
      if (
        kind === 'overwrite' &&
        !COMPUTED_FIELDS.has(field) &&
        fieldOf(stored, field) !== undefined
      )
        return false;
      continue;
    }
    if (!sameValue(field, fieldOf(given, field) ?? undefined, fieldOf(stored, field))) return false;
  }
  for (const field of NESTED_FIELDS) {
    const keyOf =
      field === 'ConsentAssociations'
        ? consentRule.key
        : (element: ElementBody) => textKey(fieldOf(element, 'Key'));
    const storedEntries = elementsOf(stored[field]).filter(
      (entry) => fieldOf(entry, 'IsActive') !== false,
    );
    const givenEntries = elementsOf(given[field]);
    if (!(field in given)) {
      if (kind === 'overwrite' && storedEntries.length) return false;
      continue;
    }
    for (const entry of givenEntries) {
      const match = storedEntries.find((candidate) => keyOf(candidate) === keyOf(entry));
      if (!match) return false;
      const same = Object.entries(entry).every(([name, value]) =>
        isDeepStrictEqual(
          value ?? undefined,
          fieldOf(match, name) ?? (name === 'IsActive' ? true : undefined),
        ),
      );
      if (!same) return false;
    }
    if (kind === 'overwrite' && storedEntries.length !== givenEntries.length) return false;
  }
  return true;
}

/** Field equality as the rules read values (letter case of the closed vocabularies aside). */
function sameValue(field: string, given: unknown, stored: unknown): boolean {
  if (field === 'MatchType' || field === 'PreferenceStatus' || field === 'FrequencyId')
    return textKey(given) === textKey(stored);
  return isDeepStrictEqual(given, stored);
}

/** A decimal id as preferences carry it ("7", " 07 "); anything else names nothing. */
function parseId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\s*\d{1,10}\s*$/.test(value)) return undefined;
  const id = Number(value);
  return id <= 2147483647 ? id : undefined;
}

/** The canonical spelling of a closed-vocabulary value (case-insensitive), or undefined. */
function canonical(values: string[], value: unknown): string | undefined {
  return values.find((candidate) => candidate.toLowerCase() === textKey(value));
}

// ---------------------------------------------------------------------------------------
// Status and expiration (data rule)

const DAY_MS = 24 * 60 * 60 * 1000;

/** The customer type that counts as "customer" for the filters' expiration days. */
export const CUSTOMER_TYPE_NAME = 'Customer';

/**
 * The days after which a preference of `type` expires on `filter`, for a customer or not;
 * undefined when the filter sets none (0 or absent: no expiry) or the type is not given.
 */
export function expirationDays(
  filter: PreferenceFilter | undefined,
  type: unknown,
  customer: boolean,
): number | undefined {
  if (!filter || (type !== 1 && type !== 2)) return undefined;
  const days =
    type === 1
      ? customer
        ? filter.OptInCustomerExpirationDays
        : filter.OptInNonCustomerExpirationDays
      : customer
        ? filter.OptOutCustomerExpirationDays
        : filter.OptOutNonCustomerExpirationDays;
  return typeof days === 'number' && days > 0 ? days : undefined;
}

/**
 * A written preference (new, changed, reactivated, or renewed by sending PreferenceStatus
 * "Active" on an expired one) is stored with its ids, channel and MatchType in canonical
 * spelling, PreferenceStatus "Active", and ExpirationDate = the write's time + its filter's
 * days (opt-in or opt-out, customer or not: see CUSTOMER_TYPE_NAME), or the ExpirationDate
 * the write sends when that is earlier; no days and none sent: no ExpirationDate. A
 * preference the write does not change keeps its status (a PreferenceStatus sent for it is
 * ignored). Pure: the time is the write's.
 */
export function preferenceDataRule(
  before: ProfileData | undefined,
  after: ProfileData,
  vocabulary: PreferenceVocabulary,
  ctx: WriteContext,
): ProfileData {
  const data = structuredClone(after);
  const customer = textKey(data.CustomerType) === textKey(CUSTOMER_TYPE_NAME);
  for (const { given, stored } of containerPairs(data, before)) {
    for (const preference of given) {
      if (preference.IsActive === false) continue;
      const previous = stored.find((s) => preferenceKey(s) === preferenceKey(preference));
      if (previous && !written(preference, previous)) {
        restore(preference, previous, 'PreferenceStatus');
        restore(preference, previous, 'ExpirationDate');
        continue;
      }
      canonicalise(preference, vocabulary);
      preference.PreferenceStatus = 'Active';
      const filterId = parseId(preference.FilterId);
      const filter = filterId === undefined ? undefined : vocabulary.filter(filterId);
      applyFilterDefaults(preference, filter);
      const days = expirationDays(filter, preference.PreferenceType, customer);
      const computed =
        days === undefined ? undefined : new Date(Date.parse(ctx.at) + days * DAY_MS).toISOString();
      const sent =
        typeof preference.ExpirationDate === 'string' &&
        preference.ExpirationDate !== previous?.ExpirationDate
          ? preference.ExpirationDate
          : undefined;
      const chosen = earliest(computed, sent);
      if (chosen === undefined) delete preference.ExpirationDate;
      else preference.ExpirationDate = chosen;
    }
  }
  return data;
}

/**
 * The filter's default for what a written preference leaves out (compatibility notes:
 * ConfigFilter.DefaultPreferenceValue). A frequency marked IsDefault is what a preference
 * centre preselects, not a value the service fills in.
 */
function applyFilterDefaults(
  preference: PreferenceBody,
  filter: PreferenceFilter | undefined,
): void {
  if (!filter) return;
  const value = filter.DefaultPreferenceValue;
  if ((preference.PreferenceType ?? null) === null && (value === 1 || value === 2)) {
    preference.PreferenceType = value;
  }
}

/**
 * Whether the write made this preference anew: changed a field a writer sets, sent another
 * ExpirationDate, reactivated it or renewed it. Omitting the computed fields (an overwrite
 * does) or sending them unchanged is no change.
 */
function written(preference: PreferenceBody, previous: PreferenceBody): boolean {
  if (previous.IsActive === false) return true;
  const renewed =
    textKey(previous.PreferenceStatus) === 'expired' &&
    textKey(preference.PreferenceStatus) === 'active';
  if (renewed) return true;
  const date = preference.ExpirationDate;
  if (typeof date === 'string' && date !== previous.ExpirationDate) return true;
  return [...VALUE_FIELDS, ...NESTED_FIELDS].some(
    (field) =>
      !COMPUTED_FIELDS.has(field) &&
      !sameValue(field, orNone(fieldOf(preference, field)), orNone(fieldOf(previous, field))),
  );
}

/** Absent, null and an empty list all mean "none". */
function orNone(value: unknown): unknown {
  return value === null || (Array.isArray(value) && value.length === 0) ? undefined : value;
}

function restore(
  target: PreferenceBody,
  source: PreferenceBody,
  field: 'PreferenceStatus' | 'ExpirationDate',
): void {
  if (source[field] === undefined) delete target[field];
  else target[field] = source[field];
}

function canonicalise(preference: PreferenceBody, vocabulary: PreferenceVocabulary): void {
  for (const field of ['ProgramId', 'FilterId'] as const) {
    if (parseId(preference[field]) !== undefined) {
      preference[field] = preferenceIdKey(preference[field]);
    }
  }
  if (typeof preference.ChannelId === 'string') {
    preference.ChannelId = vocabulary.channel(preference.ChannelId) ?? preference.ChannelId;
  }
  const matchType = canonical(MATCH_TYPES, preference.MatchType);
  if (matchType) preference.MatchType = matchType;
}

function earliest(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Date.parse(b) < Date.parse(a) ? b : a;
}

// ---------------------------------------------------------------------------------------
// PreservePreferences / PreserveConsents

/**
 * A merge that sends `PreservePreferences: false` deactivates (IsActive false, stamped
 * with the write's time) every active preference of the profile, in every container, that
 * it does not restate. Elements `hidden` from the writer (outside their user group's
 * scope) are left alone. `after` is the merged data, `input` the body.
 */
export function applyPreservePreferences(
  after: ProfileData,
  input: ProfileBody,
  ctx: WriteContext,
  hidden: (collection: string, element: ElementBody) => boolean,
): ProfileData {
  if (input.PreservePreferences !== false) return after;
  return deactivateUnrestated<PreferenceBody>(
    after,
    input,
    { profile: 'ProfilePreferences', contact: (collection) => CONTAINER_OF[collection] },
    preferenceKey,
    (preference) => (preference.LastModifiedDate = ctx.at),
    hidden,
  );
}

const CONTAINER_OF: Record<string, string> = Object.fromEntries(CONTACT_CONTAINERS);
