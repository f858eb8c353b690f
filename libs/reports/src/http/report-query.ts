import { applyDecorators } from '@nestjs/common';
import { ApiTextQuery, InvalidInputError, type RawQuery, singleQueryValue } from '@app/shared';
import type { ReportFilters } from '../domain/report-view';

/** The longest daily series one request may ask for. */
export const MAX_SERIES_DAYS = 400;
/** The longest filter value (a name of the configuration). */
const MAX_FILTER_LENGTH = 256;
/** The series a request without a range gets: this many days, ending today (UTC). */
export const DEFAULT_SERIES_DAYS = 30;

const FILTERS: [keyof ReportFilters, string][] = [
  [
    'consentType',
    'A consent type (its current or a former name, any case): narrows the consent rows',
  ],
  ['programId', "A program's Id: narrows the preference rows"],
  [
    'channel',
    'A channel (Email, Phone, Text/SMS or SMS, Mail, Solicit): narrows the preference and do-not-contact rows',
  ],
  ['customerType', 'A customer type (any case): narrows every row'],
];
const RANGE: [string, string][] = [
  ['from', `The first UTC day (YYYY-MM-DD); default: ${DEFAULT_SERIES_DAYS - 1} days before to`],
  [
    'to',
    `The last UTC day (YYYY-MM-DD), at most ${MAX_SERIES_DAYS} days after from; default: today`,
  ],
];

export const ApiReportFilters = (): MethodDecorator =>
  applyDecorators(
    ...FILTERS.map(([name, description]) =>
      ApiTextQuery(name, { description, maxLength: MAX_FILTER_LENGTH }),
    ),
  );

export const ApiReportRange = (): MethodDecorator =>
  applyDecorators(
    ...RANGE.map(([name, description]) =>
      ApiTextQuery(name, { description, pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
    ),
  );

/** Refuses a parameter the route does not know (400 naming it). */
export function refuseUnknown(query: RawQuery, known: string[]): void {
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length)
    throw new InvalidInputError(
      `Unknown query parameter ${unknown.map((name) => JSON.stringify(name)).join(', ')}: expected ${known.join(', ')}`,
    );
}

export const FILTER_NAMES = FILTERS.map(([name]) => name as string);
export const RANGE_NAMES = RANGE.map(([name]) => name);

export function filtersOf(query: RawQuery): ReportFilters {
  const filters: ReportFilters = {};
  for (const [name] of FILTERS) {
    const value = singleQueryValue(query, name);
    // Blank reads as absent, as every text query parameter of the API does.
    if (value === undefined || !value.trim()) continue;
    if (value.length > MAX_FILTER_LENGTH)
      throw new InvalidInputError(
        `${name} (value ${JSON.stringify(value)}) must be at most ${MAX_FILTER_LENGTH} characters`,
      );
    filters[name] = value.trim();
  }
  return filters;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayOf(name: string, value: string): number {
  const at = DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== value)
    throw new InvalidInputError(
      `${name} (value ${JSON.stringify(value)}) must be a day as YYYY-MM-DD`,
    );
  return at;
}

/** The range of days a request asks for (a 400 naming what is wrong with it). */
export function rangeOf(query: RawQuery, now: Date): { from: string; to: string } {
  const fromText = singleQueryValue(query, 'from');
  const toText = singleQueryValue(query, 'to');
  const day = 86_400_000;
  const to =
    toText !== undefined ? dayOf('to', toText) : Date.parse(now.toISOString().slice(0, 10));
  const from =
    fromText !== undefined ? dayOf('from', fromText) : to - (DEFAULT_SERIES_DAYS - 1) * day;
  if (from > to)
    throw new InvalidInputError(
      `from (value "${iso(from)}") must not be after to (value "${iso(to)}")`,
    );
  const days = (to - from) / day + 1;
  if (days > MAX_SERIES_DAYS)
    throw new InvalidInputError(
      `from ${iso(from)} to ${iso(to)} is ${days} days: at most ${MAX_SERIES_DAYS} per request`,
    );
  return { from: iso(from), to: iso(to) };
}

const iso = (at: number) => new Date(at).toISOString().slice(0, 10);
