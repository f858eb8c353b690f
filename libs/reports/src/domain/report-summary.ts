import { DNC_LISTS_ATTRIBUTE } from '@app/consents';
import { ConsentStatus } from '@app/config';
import {
  type CountDelta,
  type CountedStep,
  isImpliedPreference,
  phoneDigits,
  type Profile,
  type StoredConsent,
  type StoredPreference,
} from '@app/profiles';
import { textKey } from '@app/shared';
import {
  type ConsentCountStatus,
  type ConsentLevel,
  type CountKey,
  type DailyKey,
  type DncChannel,
  encodeCountKey,
  encodeDailyKey,
  type PreferenceKind,
} from './report-keys';

/*
 * What a profile counts for, as a pure function of the stored document (no clock, no
 * configuration): the current counts are the sum of this over a client's profiles, so a
 * rebuild recomputes them from the documents alone, and a pass changes them by the
 * difference between the profile it saved and the one it started from. The daily events
 * come from each write's before and after. docs/reports.md, "What is counted".
 */

/** A consent as counted: where it is, and what the events compare. */
interface ConsentItem {
  level: ConsentLevel;
  consentType: string;
  version: string;
  status: ConsentCountStatus;
  /** The stored status, without expiry (Granted stays Granted when it expires). */
  answer: number;
  expired: boolean;
  date: string;
}

/** A preference as it counts: its count key but for the profile's part. */
type PreferenceItem = Omit<Extract<CountKey, { kind: 'preference' }>, 'kind' | 'customerType'>;

/** Everything countable of one profile, each item under an identity stable across writes. */
export interface CountableProfile {
  /** The profile's own key (customer type, active), absent for shells and tombstones. */
  customerType?: string;
  active: boolean;
  consents: Map<string, ConsentItem>;
  preferences: Map<string, PreferenceItem>;
  /** Per contact element (email or phone) marked, the channel and list ids. */
  dnc: Map<string, { channel: DncChannel; lists: Set<string> }>;
}

const STATUS_NAMES: Record<number, ConsentCountStatus> = {
  [ConsentStatus.Granted]: 'Granted',
  [ConsentStatus.Denied]: 'Denied',
  [ConsentStatus.Revoked]: 'Revoked',
  [ConsentStatus.NotSet]: 'NotSet',
};

type Element = {
  IsActive?: boolean;
  Consents?: StoredConsent[];
  EmailPreferences?: StoredPreference[];
  PhonePreferences?: StoredPreference[];
  AddressPreferences?: StoredPreference[];
};

/** The profile's countable items: only an active profile's active elements count. */
export function countableProfile(profile: Profile): CountableProfile {
  const counted: CountableProfile = {
    active: false,
    consents: new Map(),
    preferences: new Map(),
    dnc: new Map(),
  };
  const data = profile.state === 'active' ? profile.data : undefined;
  if (!data) return counted;
  counted.customerType = textKey(data.CustomerType);
  counted.active = data.IsActive !== false;
  addConsents(counted, 'Profile', 'profile', data.Consents);
  addPreferences(counted, 'profile', data.ProfilePreferences);
  const lists: [ConsentLevel, string, Element[] | undefined, (e: never) => string][] = [
    ['Email', 'e', data.Emails, (e: { EmailAddress?: string }) => textKey(e.EmailAddress)],
    ['Phone', 'ph', data.PhoneNumbers, (e: { PhoneNumber?: string }) => phoneDigits(e.PhoneNumber)],
    [
      'Address',
      'a',
      data.Addresses,
      (e: { AddressType?: string; Address1?: string; PostalCode?: string }) =>
        [
          textKey(e.AddressType),
          textKey(e.Address1),
          textKey(e.PostalCode).replace(/\s/g, ''),
        ].join('|'),
    ],
  ];
  for (const [level, tag, elements, keyOf] of lists) {
    for (const element of elements ?? []) {
      if (element.IsActive === false) continue;
      const where = `${tag}:${keyOf(element as never)}`;
      addConsents(counted, level, where, element.Consents);
      const preferences =
        element.EmailPreferences ?? element.PhonePreferences ?? element.AddressPreferences;
      addPreferences(counted, where, preferences);
      if (level === 'Email' || level === 'Phone') addMarks(counted, level, where, preferences);
    }
  }
  return counted;
}

function addConsents(
  counted: CountableProfile,
  level: ConsentLevel,
  where: string,
  consents: StoredConsent[] | undefined,
): void {
  for (const consent of consents ?? []) {
    if (consent.IsActive === false) continue;
    const consentType = consent.Key ?? textKey(consent.ConsentType);
    const answer = consent.ConsentStatus ?? ConsentStatus.NotSet;
    const expired = consent.Expired === true;
    counted.consents.set(`${where}|${consentType}`, {
      level,
      consentType,
      version: consent.ConsentVersion ?? '',
      status: expired ? 'Expired' : (STATUS_NAMES[answer] ?? 'NotSet'),
      answer,
      expired,
      date: consent.ConsentDate ?? '',
    });
  }
}

function addPreferences(
  counted: CountableProfile,
  where: string,
  preferences: StoredPreference[] | undefined,
): void {
  for (const preference of preferences ?? []) {
    const programId = preference.ProgramId ?? '';
    const filterId = preference.FilterId ?? '';
    const channel = preference.ChannelId ?? '';
    counted.preferences.set(`${where}|${programId}|${channel}|${filterId}`, {
      programId,
      filterId,
      channel,
      type:
        preference.PreferenceType === 1
          ? 'OptIn'
          : preference.PreferenceType === 2
            ? 'OptOut'
            : 'None',
      status:
        preference.IsActive === false
          ? 'Archived'
          : preference.PreferenceStatus === 'Expired'
            ? 'Expired'
            : 'Active',
      match: isImpliedPreference(preference) ? 'Implied' : 'Expressed',
    });
  }
}

/** The lists an element's active do-not-contact preferences name (docs/preferences-consents.md). */
function addMarks(
  counted: CountableProfile,
  channel: DncChannel,
  where: string,
  preferences: StoredPreference[] | undefined,
): void {
  const lists = new Set<string>();
  for (const preference of preferences ?? []) {
    if (preference.IsActive === false) continue;
    const value = preference.PreferenceAttributes?.find(
      (attribute) => attribute.Key === DNC_LISTS_ATTRIBUTE,
    )?.Value;
    for (const list of value?.split(',') ?? []) if (list) lists.add(list);
  }
  if (lists.size) counted.dnc.set(where, { channel, lists });
}

/** The counter keys a profile counts for, each with its multiplicity. */
export function reportSummary(profile: Profile): Map<string, number> {
  return summaryOf(countableProfile(profile));
}

function summaryOf(counted: CountableProfile): Map<string, number> {
  const summary = new Map<string, number>();
  const add = (key: string) => summary.set(key, (summary.get(key) ?? 0) + 1);
  if (counted.customerType === undefined) return summary;
  const { customerType } = counted;
  add(encodeCountKey({ kind: 'profile', customerType, active: counted.active }));
  for (const { level, consentType, version, status } of counted.consents.values())
    add(encodeCountKey({ kind: 'consent', customerType, level, consentType, version, status }));
  for (const preference of counted.preferences.values())
    add(encodeCountKey({ kind: 'preference', customerType, ...preference }));
  for (const { channel, lists } of counted.dnc.values())
    for (const listId of lists) add(encodeCountKey({ kind: 'dnc', customerType, channel, listId }));
  return summary;
}

/**
 * The events one write made (the daily counts), from the profile before and after it:
 * a consent that becomes Granted (or is granted again on another version or date), Denied
 * or Revoked, or expires; a preference that comes into effect as an opt-in or an opt-out
 * (new, reactivated, changed type, renewed), expires, or is archived; a do-not-contact list
 * newly marking a contact element; the profile created, deleted, erased or merged into
 * another. A merge's `absorb` on the survivor tells only what it moved: the absorbed
 * person's consents and preferences were counted when they gave them, not again.
 */
export function writeEvents(step: CountedStep): DailyKey[] {
  const before = countableProfile(step.before);
  const after = countableProfile(step.after);
  // Events are told by the profile's customer type after the write (before it, for a delete).
  const customerType = after.customerType ?? before.customerType ?? '';
  if (step.write.kind === 'absorb') return movedEvents(before, after, customerType);
  const events: DailyKey[] = [];
  for (const [id, now] of after.consents) {
    const was = before.consents.get(id);
    const { consentType } = now;
    const about = { customerType, consentType };
    const answered = !was || was.answer !== now.answer;
    if (now.answer === ConsentStatus.Granted) {
      if (answered || was.version !== now.version || was.date !== now.date)
        events.push({ event: 'Grants', ...about });
    } else if (answered && now.answer === ConsentStatus.Denied)
      events.push({ event: 'Denials', ...about });
    else if (answered && now.answer === ConsentStatus.Revoked)
      events.push({ event: 'Revocations', ...about });
    if (now.expired && !was?.expired) events.push({ event: 'ConsentExpiries', ...about });
  }
  for (const [id, now] of after.preferences) {
    const was = before.preferences.get(id);
    const { programId, filterId, channel } = now;
    const where = { customerType, programId, filterId, channel };
    const inEffect = (item: PreferenceItem | undefined, type: PreferenceKind) =>
      item?.status === 'Active' && item.type === type;
    if (inEffect(now, 'OptIn') && !inEffect(was, 'OptIn'))
      events.push({ event: 'OptIns', ...where });
    if (inEffect(now, 'OptOut') && !inEffect(was, 'OptOut'))
      events.push({ event: 'OptOuts', ...where });
    if (now.status === 'Expired' && was?.status === 'Active')
      events.push({ event: 'PreferenceExpiries', ...where });
    if (now.status === 'Archived' && was && was.status !== 'Archived')
      events.push({ event: 'Archives', ...where });
  }
  for (const [id, { channel, lists }] of after.dnc) {
    const had = before.dnc.get(id)?.lists;
    for (const listId of lists)
      if (!had?.has(listId))
        events.push({ event: 'DoNotContactMarks', customerType, channel, listId });
  }
  if (after.customerType !== undefined && step.before.state !== 'active')
    events.push({ event: 'ProfilesCreated', customerType });
  if (before.customerType !== undefined && step.after.state === 'deleted')
    events.push({
      event: step.write.kind === 'erase' ? 'ProfilesErased' : 'ProfilesDeleted',
      customerType,
    });
  if (before.customerType !== undefined && step.after.state === 'merged')
    events.push({ event: 'ProfilesMerged', customerType });
  return events;
}

/**
 * The survivor's `absorb`: each consent and preference the merge brought or replaced (by
 * its precedence, docs/profile-merge.md) is moved, whatever its answer or type. A contact
 * element a list marks stays marked by the same list: no new mark.
 */
function movedEvents(
  before: CountableProfile,
  after: CountableProfile,
  customerType: string,
): DailyKey[] {
  const events: DailyKey[] = [];
  for (const [id, now] of after.consents) {
    const was = before.consents.get(id);
    if (was && was.answer === now.answer && was.version === now.version && was.date === now.date)
      continue;
    events.push({ event: 'ConsentsMoved', customerType, consentType: now.consentType });
  }
  for (const [id, now] of after.preferences) {
    const was = before.preferences.get(id);
    if (was && was.type === now.type && was.status === now.status) continue;
    const { programId, filterId, channel } = now;
    events.push({ event: 'PreferencesMoved', customerType, programId, filterId, channel });
  }
  return events;
}

/** The UTC day of an instant, `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * What a pass from `start` through `steps` to `end` changes in the counts: the summaries'
 * difference, and each write's events on the UTC day it was accepted (the day its history
 * entries carry). Undefined when it changes nothing.
 */
export function passDelta(
  start: Profile,
  end: Profile,
  steps: CountedStep[],
): CountDelta | undefined {
  const counts: Record<string, number> = {};
  for (const [key, n] of reportSummary(end)) counts[key] = n;
  for (const [key, n] of reportSummary(start)) {
    const change = (counts[key] ?? 0) - n;
    if (change) counts[key] = change;
    else delete counts[key];
  }
  const daily: Record<string, Record<string, number>> = {};
  for (const step of steps) {
    const events = writeEvents(step);
    if (!events.length) continue;
    const day = (daily[utcDay(step.write.acceptedAt)] ??= {});
    for (const event of events) {
      const key = encodeDailyKey(event);
      day[key] = (day[key] ?? 0) + 1;
    }
  }
  const changed = Object.keys(counts).length > 0;
  const happened = Object.keys(daily).length > 0;
  if (!changed && !happened) return undefined;
  return {
    from: start.appliedSeq,
    to: end.appliedSeq,
    ...(changed ? { counts } : {}),
    ...(happened ? { daily } : {}),
  };
}
