/*
 * The counter keys of the reports (docs/reports.md, "What is counted"): typed on both
 * sides, encoded as short `|`-separated strings (Redis hash fields and the deltas a saved
 * profile carries). A part is escaped (`%`, `|`, `.`, `$`), so any configured name
 * round-trips.
 * Keys name configuration (customer types, consent types and versions, programs, filters,
 * channels, do-not-contact lists) and statuses only: never anything of a person.
 */

export const CONSENT_LEVELS = ['Profile', 'Email', 'Phone', 'Address'] as const;
export type ConsentLevel = (typeof CONSENT_LEVELS)[number];
export const CONSENT_COUNT_STATUSES = [
  'Granted',
  'Denied',
  'Revoked',
  'NotSet',
  'Expired',
] as const;
export type ConsentCountStatus = (typeof CONSENT_COUNT_STATUSES)[number];
export const PREFERENCE_TYPES = ['OptIn', 'OptOut', 'None'] as const;
export type PreferenceKind = (typeof PREFERENCE_TYPES)[number];
export const PREFERENCE_STATUSES = ['Active', 'Expired', 'Archived'] as const;
export type PreferenceCountStatus = (typeof PREFERENCE_STATUSES)[number];
export type MatchKind = 'Expressed' | 'Implied';
export type DncChannel = 'Email' | 'Phone';

/**
 * A current count: what the stored profiles hold now. Every key names the profile's
 * customer type (its text key), so every count can be narrowed to one.
 */
export type CountKey =
  | { kind: 'profile'; customerType: string; active: boolean }
  | {
      kind: 'consent';
      customerType: string;
      level: ConsentLevel;
      consentType: string;
      version: string;
      status: ConsentCountStatus;
    }
  | {
      kind: 'preference';
      customerType: string;
      programId: string;
      filterId: string;
      channel: string;
      type: PreferenceKind;
      status: PreferenceCountStatus;
      match: MatchKind;
    }
  | { kind: 'dnc'; customerType: string; channel: DncChannel; listId: string };

export const CONSENT_EVENTS = [
  'Grants',
  'Denials',
  'Revocations',
  'ConsentExpiries',
  'ConsentsMoved',
] as const;
export type ConsentEvent = (typeof CONSENT_EVENTS)[number];
export const PREFERENCE_EVENTS = [
  'OptIns',
  'OptOuts',
  'PreferenceExpiries',
  'Archives',
  'PreferencesMoved',
] as const;
export type PreferenceEvent = (typeof PREFERENCE_EVENTS)[number];
export const PROFILE_EVENTS = [
  'ProfilesCreated',
  'ProfilesDeleted',
  'ProfilesErased',
  'ProfilesMerged',
] as const;
export type ProfileEventName = (typeof PROFILE_EVENTS)[number];
/** Every daily event, in the order the series and the CSV show them. */
export const DAILY_EVENTS = [
  ...CONSENT_EVENTS,
  ...PREFERENCE_EVENTS,
  'DoNotContactMarks',
  ...PROFILE_EVENTS,
] as const;
export type DailyEvent = (typeof DAILY_EVENTS)[number];

/** A daily count: how many times something happened on one UTC day (by customer type). */
export type DailyKey = { customerType: string } & (
  | { event: ConsentEvent; consentType: string }
  | { event: PreferenceEvent; programId: string; filterId: string; channel: string }
  | { event: 'DoNotContactMarks'; channel: DncChannel; listId: string }
  | { event: ProfileEventName }
);

// `.` and `$` too: a key is a field name of the delta a saved profile carries, and the
// engine refuses field names with a dot (MongoDB's rule).
const escapePart = (part: string) =>
  part.replace(/%/g, '%25').replace(/\|/g, '%7C').replace(/\./g, '%2E').replace(/\$/g, '%24');
const unescapePart = (part: string) =>
  part.replace(/%2E/g, '.').replace(/%24/g, '$').replace(/%7C/g, '|').replace(/%25/g, '%');
const join = (...parts: string[]) => parts.map(escapePart).join('|');

const CONSENT_EVENT_TAGS: Record<ConsentEvent, string> = {
  Grants: 'g',
  Denials: 'dn',
  Revocations: 'rv',
  ConsentExpiries: 'cx',
  ConsentsMoved: 'cmv',
};
const PREFERENCE_EVENT_TAGS: Record<PreferenceEvent, string> = {
  OptIns: 'oi',
  OptOuts: 'oo',
  PreferenceExpiries: 'px',
  Archives: 'ar',
  PreferencesMoved: 'pmv',
};
const PROFILE_EVENT_TAGS: Record<ProfileEventName, string> = {
  ProfilesCreated: 'pc',
  ProfilesDeleted: 'pd',
  ProfilesErased: 'pe',
  ProfilesMerged: 'pmg',
};
const invert = <T extends string>(tags: Record<T, string>) =>
  new Map(Object.entries(tags).map(([name, tag]) => [tag as string, name as T]));
const CONSENT_BY_TAG = invert(CONSENT_EVENT_TAGS);
const PREFERENCE_BY_TAG = invert(PREFERENCE_EVENT_TAGS);
const PROFILE_BY_TAG = invert(PROFILE_EVENT_TAGS);

export function encodeCountKey(key: CountKey): string {
  switch (key.kind) {
    case 'profile':
      return join('p', key.customerType, key.active ? '1' : '0');
    case 'consent':
      return join('c', key.customerType, key.level, key.consentType, key.version, key.status);
    case 'preference':
      return join(
        'f',
        key.customerType,
        key.programId,
        key.filterId,
        key.channel,
        key.type,
        key.status,
        key.match,
      );
    case 'dnc':
      return join('d', key.customerType, key.channel, key.listId);
  }
}

/** The key a field names; undefined for a field this version does not know (skipped). */
export function decodeCountKey(field: string): CountKey | undefined {
  const parts = field.split('|').map(unescapePart);
  const [tag] = parts;
  if (tag === 'p' && parts.length === 3)
    return { kind: 'profile', customerType: parts[1], active: parts[2] === '1' };
  if (tag === 'c' && parts.length === 6) {
    const [, customerType, level, consentType, version, status] = parts;
    if (!isOneOf(CONSENT_LEVELS, level) || !isOneOf(CONSENT_COUNT_STATUSES, status)) return;
    return { kind: 'consent', customerType, level, consentType, version, status };
  }
  if (tag === 'f' && parts.length === 8) {
    const [, customerType, programId, filterId, channel, type, status, match] = parts;
    if (!isOneOf(PREFERENCE_TYPES, type) || !isOneOf(PREFERENCE_STATUSES, status)) return;
    const matchKind: MatchKind = match === 'Implied' ? 'Implied' : 'Expressed';
    return {
      kind: 'preference',
      customerType,
      programId,
      filterId,
      channel,
      type,
      status,
      match: matchKind,
    };
  }
  if (tag === 'd' && parts.length === 4 && isDncChannel(parts[2]))
    return { kind: 'dnc', customerType: parts[1], channel: parts[2], listId: parts[3] };
  return undefined;
}

export function encodeDailyKey(key: DailyKey): string {
  const { customerType } = key;
  if ('consentType' in key)
    return join(CONSENT_EVENT_TAGS[key.event], customerType, key.consentType);
  if ('programId' in key)
    return join(
      PREFERENCE_EVENT_TAGS[key.event],
      customerType,
      key.programId,
      key.filterId,
      key.channel,
    );
  if ('listId' in key) return join('dnc', customerType, key.channel, key.listId);
  return join(PROFILE_EVENT_TAGS[key.event], customerType);
}

export function decodeDailyKey(field: string): DailyKey | undefined {
  const parts = field.split('|').map(unescapePart);
  const [tag, customerType] = parts;
  const consent = CONSENT_BY_TAG.get(tag);
  if (consent && parts.length === 3) return { event: consent, customerType, consentType: parts[2] };
  const preference = PREFERENCE_BY_TAG.get(tag);
  if (preference && parts.length === 5)
    return {
      event: preference,
      customerType,
      programId: parts[2],
      filterId: parts[3],
      channel: parts[4],
    };
  if (tag === 'dnc' && parts.length === 4 && isDncChannel(parts[2]))
    return { event: 'DoNotContactMarks', customerType, channel: parts[2], listId: parts[3] };
  const profile = PROFILE_BY_TAG.get(tag);
  if (profile && parts.length === 2) return { event: profile, customerType };
  return undefined;
}

function isDncChannel(value: string): value is DncChannel {
  return value === 'Email' || value === 'Phone';
}

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
