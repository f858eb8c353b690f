import { textKey } from '@app/shared';
import {
  type ConsentCountStatus,
  type ConsentLevel,
  DAILY_EVENTS,
  type DailyEvent,
  type DailyKey,
  decodeCountKey,
  decodeDailyKey,
  type DncChannel,
  type MatchKind,
  type PreferenceCountStatus,
  type PreferenceKind,
} from './report-keys';

/*
 * The counts as the routes and the page show them: decoded, named by the configuration,
 * narrowed by the request's filters and summed over what the answer does not break down.
 * Pure; its input is bounded by the configuration (never by the number of profiles).
 */

/** What narrows a report: each filter applies to the rows that have its dimension. */
export interface ReportFilters {
  /** A consent type's name (current or former), compared case-insensitively. */
  consentType?: string;
  /** A program id (`"7"`, `"07"`). */
  programId?: string;
  /** A channel, canonical (the caller canonicalises aliases such as "sms"). */
  channel?: string;
  /** A customer type's name, compared case-insensitively. */
  customerType?: string;
}

/** Names of the configuration a report shows (the client's current configuration). */
export interface ReportNames {
  customerType(key: string): string;
  /** The current name of a consent type (by its stored key: current or former name). */
  consentType(key: string): string;
  program(programId: string): string | undefined;
  filter(filterId: string): string | undefined;
}

export interface ProfileRow {
  CustomerType: string;
  Active: number;
  Inactive: number;
}

export interface ConsentRow {
  ConsentType: string;
  Level: ConsentLevel;
  ConsentVersion: string;
  Status: ConsentCountStatus;
  Count: number;
}

export interface PreferenceRow {
  ProgramId: string;
  ProgramName?: string;
  FilterId: string;
  FilterName?: string;
  ChannelId: string;
  PreferenceType: PreferenceKind;
  Status: PreferenceCountStatus;
  MatchType: MatchKind;
  Count: number;
}

export interface DoNotContactRow {
  ListId: string;
  ChannelId: DncChannel;
  /** Active contact elements of active profiles the list marks. */
  ContactElements: number;
}

export interface CurrentCounts {
  Profiles: ProfileRow[];
  Consents: ConsentRow[];
  Preferences: PreferenceRow[];
  DoNotContact: DoNotContactRow[];
}

export type DayCounts = { Date: string } & Record<DailyEvent, number>;

const sameId = (a: string, b: string) =>
  /^\s*\d+\s*$/.test(a) && /^\s*\d+\s*$/.test(b)
    ? Number(a) === Number(b)
    : textKey(a) === textKey(b);

/** Whether a row with these dimensions passes the filters (absent dimension: not narrowed). */
function passes(
  filters: ReportFilters,
  names: ReportNames,
  row: { customerType: string; consentType?: string; programId?: string; channel?: string },
): boolean {
  if (filters.customerType !== undefined && textKey(filters.customerType) !== row.customerType)
    return false;
  if (filters.consentType !== undefined && row.consentType !== undefined) {
    const wanted = textKey(filters.consentType);
    if (row.consentType !== wanted && textKey(names.consentType(row.consentType)) !== wanted)
      return false;
  }
  if (filters.programId !== undefined && row.programId !== undefined)
    if (!sameId(filters.programId, row.programId)) return false;
  if (filters.channel !== undefined && row.channel !== undefined)
    if (textKey(filters.channel) !== textKey(row.channel)) return false;
  return true;
}

/** Adds `n` to the row of `id`, made by `make` the first time. */
function tally<T extends object>(
  rows: Map<string, T>,
  id: string,
  make: () => T,
  add: (row: T) => void,
) {
  let row = rows.get(id);
  if (!row) rows.set(id, (row = make()));
  add(row);
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function currentCounts(
  hash: Map<string, number>,
  names: ReportNames,
  filters: ReportFilters = {},
): CurrentCounts {
  const profiles = new Map<string, ProfileRow>();
  const consents = new Map<string, ConsentRow>();
  const preferences = new Map<string, PreferenceRow>();
  const marks = new Map<string, DoNotContactRow>();
  for (const [field, n] of hash) {
    const key = decodeCountKey(field);
    if (!key || n === 0 || !passes(filters, names, key)) continue;
    switch (key.kind) {
      case 'profile': {
        const name = names.customerType(key.customerType);
        tally(
          profiles,
          name,
          () => ({ CustomerType: name, Active: 0, Inactive: 0 }),
          (row) => (key.active ? (row.Active += n) : (row.Inactive += n)),
        );
        break;
      }
      case 'consent': {
        const ConsentType = names.consentType(key.consentType);
        tally(
          consents,
          [ConsentType, key.level, key.version, key.status].join('\u0000'),
          () => ({
            ConsentType,
            Level: key.level,
            ConsentVersion: key.version,
            Status: key.status,
            Count: 0,
          }),
          (row) => (row.Count += n),
        );
        break;
      }
      case 'preference': {
        const { programId, filterId, channel, type, status, match } = key;
        tally(
          preferences,
          [programId, filterId, channel, type, status, match].join('\u0000'),
          () => {
            const ProgramName = names.program(programId);
            const FilterName = names.filter(filterId);
            return {
              ProgramId: programId,
              ...(ProgramName !== undefined ? { ProgramName } : {}),
              FilterId: filterId,
              ...(FilterName !== undefined ? { FilterName } : {}),
              ChannelId: channel,
              PreferenceType: type,
              Status: status,
              MatchType: match,
              Count: 0,
            };
          },
          (row) => (row.Count += n),
        );
        break;
      }
      case 'dnc':
        tally(
          marks,
          `${key.channel}\u0000${key.listId}`,
          () => ({ ListId: key.listId, ChannelId: key.channel, ContactElements: 0 }),
          (row) => (row.ContactElements += n),
        );
        break;
    }
  }
  return {
    Profiles: [...profiles.values()].sort((a, b) => byText(a.CustomerType, b.CustomerType)),
    Consents: [...consents.values()].sort(
      (a, b) =>
        byText(a.ConsentType, b.ConsentType) ||
        byText(a.Level, b.Level) ||
        byText(a.ConsentVersion, b.ConsentVersion) ||
        byText(a.Status, b.Status),
    ),
    Preferences: [...preferences.values()].sort(
      (a, b) =>
        Number(a.ProgramId) - Number(b.ProgramId) ||
        Number(a.FilterId) - Number(b.FilterId) ||
        byText(a.PreferenceType, b.PreferenceType) ||
        byText(a.Status, b.Status) ||
        byText(a.MatchType, b.MatchType),
    ),
    DoNotContact: [...marks.values()].sort(
      (a, b) => byText(a.ChannelId, b.ChannelId) || Number(a.ListId) - Number(b.ListId),
    ),
  };
}

/** The dimensions of a daily key that the filters look at. */
function dimensionsOf(key: DailyKey) {
  return {
    customerType: key.customerType,
    ...('consentType' in key ? { consentType: key.consentType } : {}),
    ...('programId' in key ? { programId: key.programId, channel: key.channel } : {}),
    ...('listId' in key ? { channel: key.channel } : {}),
  };
}

/** One day's totals per event, after the filters. */
export function dayCounts(
  date: string,
  hash: Map<string, number>,
  names: ReportNames,
  filters: ReportFilters = {},
): DayCounts {
  const day = { Date: date } as DayCounts;
  for (const event of DAILY_EVENTS) day[event] = 0;
  for (const [field, n] of hash) {
    const key = decodeDailyKey(field);
    if (!key || !passes(filters, names, dimensionsOf(key))) continue;
    day[key.event] += n;
  }
  return day;
}

/** The days from `from` to `to` (YYYY-MM-DD, UTC, both included). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (
    let at = Date.parse(`${from}T00:00:00Z`);
    at <= Date.parse(`${to}T00:00:00Z`);
    at += 86_400_000
  )
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}
