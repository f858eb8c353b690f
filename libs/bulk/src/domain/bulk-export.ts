import { textKey } from '@app/shared';

/*
 * The pure rules of a bulk export (docs/bulk-export.md): statuses, which profiles a
 * criterion selects and the key its row carries, how rows fill pages, which pages a
 * retrieval reads, what a failed run leaves. No framework, no storage.
 */

/**
 * Processing (the worker builds pages), Error (the last run failed; it is retried),
 * Failed (runs kept failing: final), Complete (every page built), Retrieved (read to the
 * end without keepAlive, or committed), Expired (past Expires: pages removed).
 */
export const BULK_EXPORT_STATUSES = [
  'Processing',
  'Error',
  'Expired',
  'Failed',
  'Complete',
  'Retrieved',
] as const;
export type BulkExportStatusName = (typeof BULK_EXPORT_STATUSES)[number];

/** What an export may select profiles by (each: the profiles holding such an element). */
export const EXPORT_MATCH_CRITERIA = [
  'ProfileID',
  'AlternateID',
  'EmailAddress',
  'PhoneNumber',
] as const;
export type ExportMatchCriteria = (typeof EXPORT_MATCH_CRITERIA)[number];

/** Where a callback stands: not asked for (null), to be sent, sent, given up. */
export type ExportCallbackStatus = 'Pending' | 'Delivered' | 'Failed';

/** Rows per stored page at most (BULK_EXPORT_PAGE_ROWS may set fewer), and its JSON text. */
export const EXPORT_PAGE_MAX_ROWS = 500;
export const EXPORT_PAGE_MAX_CHARS = 4_000_000;

/** Profile ids one run reads at most (a run stays short when few profiles match). */
export const EXPORT_IDS_PER_RUN = 2000;
/** Profile ids read per call of the profiles port within a run. */
export const EXPORT_READ_BATCH = 100;

/** Rows one retrieval answers at most, and by default. */
export const EXPORT_ROWS_LIMIT_MAX = 1000;
export const EXPORT_ROWS_LIMIT_DEFAULT = 500;

/** Runs that may fail in a row before the export is Failed. */
export const EXPORT_MAX_FAILURES = 5;

/** Callback attempts, and the wait before attempt k + 1 (k from 1): 1 s, then 4 s. */
export const CALLBACK_ATTEMPTS = 3;
export function callbackDelayMs(attempt: number): number {
  return 1000 * 4 ** (attempt - 1);
}

/**
 * How long after an export ended its callback's attempts take at most (every delay, every
 * attempt waiting its timeout), plus `slackMs` for the queue: an export whose callback is
 * still Pending after that lost its chain of attempts (a worker died between the export's
 * last save and the queueing of the first attempt, or Redis lost the queue), and the
 * expiry sweep queues a new chain. Callbacks are so delivered at least once.
 */
export function callbackWindowMs(timeoutMs: number, slackMs: number): number {
  let total = CALLBACK_ATTEMPTS * timeoutMs + slackMs;
  for (let attempt = 1; attempt < CALLBACK_ATTEMPTS; attempt++) total += callbackDelayMs(attempt);
  return total;
}

/** What the rules read of an export. */
export interface BulkExportState {
  status: BulkExportStatusName;
  expiresAt: Date;
  pageRows: number[];
  rowCount: number;
  failures: number;
  /** Commit (without keepFiles) or expiry decided the pages go. */
  pagesRemoved?: boolean;
}

/** The worker builds it (a run is due or running). */
export function isBuilding(state: Pick<BulkExportState, 'status'>): boolean {
  return state.status === 'Processing' || state.status === 'Error';
}

/** Its pages are built and still stored (unless committed without keepFiles). */
export function isReadable(state: Pick<BulkExportState, 'status' | 'pagesRemoved'>): boolean {
  return (state.status === 'Complete' || state.status === 'Retrieved') && !state.pagesRemoved;
}

/** Ended (Complete, Retrieved or Failed) and past its Expires: to become Expired. */
export function isDueToExpire(
  state: Pick<BulkExportState, 'status' | 'expiresAt'>,
  now: Date,
): boolean {
  return (
    (state.status === 'Complete' || state.status === 'Retrieved' || state.status === 'Failed') &&
    now.getTime() >= state.expiresAt.getTime()
  );
}

/** A run failed with an unexpected error: Error (retried), or Failed after too many. */
export function afterFailedRun(
  state: Pick<BulkExportState, 'failures'>,
  maxFailures = EXPORT_MAX_FAILURES,
): { status: 'Error' | 'Failed'; failures: number } {
  const failures = state.failures + 1;
  return { status: failures >= maxFailures ? 'Failed' : 'Error', failures };
}

/** The problem of a CallbackURL (http or https, absolute), or null when it is fine. */
export function callbackUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `must be an http or https URL (not ${url.protocol.slice(0, -1)})`;
  }
  if (url.username || url.password) return 'must not carry credentials';
  return null;
}

/** The fields of an exported profile (its GET shape) the criteria read. */
export interface MatchableProfile {
  ProfileId?: number;
  Emails?: { EmailAddress?: string; IsDefault?: boolean }[];
  PhoneNumbers?: { PhoneNumber?: string; IsDefault?: boolean }[];
  AlternateIds?: { AlternateIdType?: string; AlternateId?: string }[];
}

/**
 * The key a profile is exported under for `criteria`, or null when it holds no such
 * element (it is then left out): ProfileID, its id; EmailAddress and PhoneNumber, its
 * default one, else the first; AlternateID, its first of type `matchType`. The profile is
 * the row (active elements only).
 */
export function matchKeyOf(
  profile: MatchableProfile,
  criteria: ExportMatchCriteria,
  matchType?: string,
): string | null {
  const preferred = <T extends { IsDefault?: boolean }>(list: T[] | undefined) =>
    list?.find((element) => element.IsDefault === true) ?? list?.[0];
  switch (criteria) {
    case 'ProfileID':
      return profile.ProfileId === undefined ? null : String(profile.ProfileId);
    case 'EmailAddress':
      return preferred(profile.Emails)?.EmailAddress ?? null;
    case 'PhoneNumber':
      return preferred(profile.PhoneNumbers)?.PhoneNumber ?? null;
    case 'AlternateID': {
      const wanted = textKey(matchType ?? '');
      return (
        profile.AlternateIds?.find((pair) => textKey(pair.AlternateIdType ?? '') === wanted)
          ?.AlternateId ?? null
      );
    }
  }
}

/** Saved at or after LastDateTime (none: every profile). */
export function changedSince(savedAt: Date, lastDateTime: Date | null | undefined): boolean {
  return !lastDateTime || savedAt.getTime() >= lastDateTime.getTime();
}

/** The bytes a row takes in the export (its JSON text and a newline: one NDJSON line). */
export function rowBytes(json: string): number {
  return Buffer.byteLength(json, 'utf8') + 1;
}

/**
 * How many of `candidates` (JSON texts, in order) go on a page already holding `rows`
 * rows of `chars` characters: up to `maxRows` rows and `maxChars` characters, and always
 * one on an empty page (a profile is far below BSON's 16 MB).
 */
export function rowsThatFit(
  candidates: readonly string[],
  page: { rows: number; chars: number },
  maxRows: number,
  maxChars = EXPORT_PAGE_MAX_CHARS,
): number {
  let { rows, chars } = page;
  let taken = 0;
  for (const json of candidates) {
    if (rows >= maxRows || (rows > 0 && chars + json.length > maxChars)) break;
    rows++;
    chars += json.length;
    taken++;
  }
  return taken;
}

/** The rows `first` to `last` (from 1) of a retrieval, and where they lie on the pages. */
export interface ExportWindow {
  first: number;
  /** first - 1 when the window is empty (an offset past the end). */
  last: number;
  hasMore: boolean;
  /** Page k (from 1) and the rows of it to answer, `from` (inclusive) to `to` (exclusive). */
  slices: { page: number; from: number; to: number }[];
}

/** The pages holding rows `offset` to `offset + limit - 1` of pages of `pageRows` rows. */
export function exportWindow(
  pageRows: readonly number[],
  offset: number,
  limit: number,
): ExportWindow {
  const total = pageRows.reduce((sum, rows) => sum + rows, 0);
  const first = offset;
  const last = Math.min(total, offset + limit - 1);
  const slices: ExportWindow['slices'] = [];
  let before = 0; // rows on the pages before page k
  pageRows.forEach((rows, index) => {
    const from = Math.max(first - before - 1, 0);
    const to = Math.min(last - before, rows);
    if (from < to) slices.push({ page: index + 1, from, to });
    before += rows;
  });
  return { first, last: Math.max(last, first - 1), hasMore: last < total, slices };
}
