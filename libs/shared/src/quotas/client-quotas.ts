import { INT32_MAX } from '../validation/query-values';

/**
 * The quotas a client may be given of its own (`npm run admin -- set-client`), beside the
 * process-wide defaults (their environment variables). Each is enforced by the lib that
 * owns what it counts: the rate limits by `ClientRateLimits`, the daily bulk imports by
 * libs/bulk, the event subscriptions by libs/events. The client's own values ride on its
 * client record, which authentication loads (and caches under the auth stamps) for every
 * request, so enforcing them costs no engine command.
 */
export const QUOTA_NAMES = [
  'readsPerSecond',
  'writesPerSecond',
  'bulkImportsPerDay',
  'maxEventSubscriptions',
] as const;

export type QuotaName = (typeof QUOTA_NAMES)[number];

/** A client's own quotas; an absent one is the process-wide default. */
export interface ClientQuotas {
  readsPerSecond?: number;
  writesPerSecond?: number;
  bulkImportsPerDay?: number;
  maxEventSubscriptions?: number;
}

/** How each quota is named to operators, and which values it takes. */
export interface QuotaSpec {
  /** The admin CLI's flag (`set-client --<flag> N|default`). */
  flag: string;
  /** The environment variable of its process-wide default. */
  defaultVariable: string;
  /** The least value; 0, where allowed, means unlimited. */
  min: 0 | 1;
  /** One line for the usage and the documents. */
  meaning: string;
}

export const QUOTA_SPECS: { readonly [name in QuotaName]: QuotaSpec } = {
  readsPerSecond: {
    flag: 'reads-per-second',
    defaultVariable: 'RATE_LIMIT_READS_PER_SECOND',
    min: 0,
    meaning: 'GET requests per second (0: unlimited)',
  },
  writesPerSecond: {
    flag: 'writes-per-second',
    defaultVariable: 'RATE_LIMIT_WRITES_PER_SECOND',
    min: 0,
    meaning: 'POST, PUT, PATCH and DELETE requests per second (0: unlimited)',
  },
  bulkImportsPerDay: {
    flag: 'bulk-imports-per-day',
    defaultVariable: 'BULK_IMPORT_DAILY_LIMIT',
    min: 0,
    meaning: 'bulk imports begun in a rolling 24 hours (0: unlimited)',
  },
  maxEventSubscriptions: {
    flag: 'max-event-subscriptions',
    defaultVariable: 'EVENTS_MAX_SUBSCRIPTIONS',
    // All of a client's subscriptions are one document: never unlimited.
    min: 1,
    meaning: 'event subscriptions held at once (at least 1)',
  },
};

/** Whose value a quota has: the client's own, or the process-wide default. */
export type QuotaSource = 'Client' | 'Default';

/** A quota's value for a client: its own when it has one, else the process's default. */
export function effectiveQuota(
  own: ClientQuotas | undefined,
  name: QuotaName,
  processDefault: number,
): { limit: number; source: QuotaSource } {
  const value = own?.[name];
  return value === undefined
    ? { limit: processDefault, source: 'Default' }
    : { limit: value, source: 'Client' };
}

/** Why `value` cannot be the quota `name` (a sentence to follow its name), or null. */
export function quotaValueProblem(name: QuotaName, value: number): string | null {
  const { min } = QUOTA_SPECS[name];
  if (!Number.isInteger(value) || value < min || value > INT32_MAX) {
    return `must be a whole number from ${min} to ${INT32_MAX}${min === 0 ? ' (0: unlimited)' : ''}`;
  }
  return null;
}

/** Only the quotas set, as numbers (what a stored record or a change carries). */
export function copyQuotas(quotas: ClientQuotas | null | undefined): ClientQuotas {
  const copy: ClientQuotas = {};
  for (const name of QUOTA_NAMES) {
    const value = quotas?.[name];
    if (typeof value === 'number') copy[name] = value;
  }
  return copy;
}
