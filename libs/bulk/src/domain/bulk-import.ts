import type { ProfileDto } from '@app/profiles';
import { textKey } from '@app/shared';

/*
 * The pure rules of a bulk import: what a record needs, how staged records are chunked,
 * how exception records are paged. No framework, no storage.
 */

export type BulkImportOperation = 'Add' | 'Delete';
export const BULK_IMPORT_OPERATIONS: readonly BulkImportOperation[] = ['Add', 'Delete'];

/** The only match criterion (the notes: AlternateIdType is the only one). */
export const MATCH_CRITERIA = ['AlternateIdType'] as const;

/**
 * The statuses of the notes' BulkImportStatus: Initiated (nothing staged), Staging, Queued
 * (Execute called), Processing (the worker applies chunks), Completed, Failed.
 */
export const BULK_IMPORT_STATUSES = [
  'Initiated',
  'Staging',
  'Queued',
  'Processing',
  'Completed',
  'Failed',
] as const;
export type BulkImportStatusName = (typeof BULK_IMPORT_STATUSES)[number];

/** Which collections of a matched profile an import replaces instead of merging. */
export interface BulkImportRefresh {
  AlternateIds: boolean;
  Contacts: boolean;
  CustomFields: boolean;
  Groups: boolean;
  Tags: boolean;
}

/** What the rules read of an import. */
export interface BulkImportState {
  accessToken: number;
  matchValue: string;
  operation: BulkImportOperation;
  status: BulkImportStatusName;
  expiresAt: Date;
  received: number;
  valid: number;
  invalid: number;
  stages: number;
  chunks: number;
  exceptions: number;
}

/** Exception records per stored page (`<client>|<token>|x<page>`). */
export const EXCEPTION_PAGE_SIZE = 500;

/** Staged records per chunk at most, and the most JSON text a chunk holds (BSON: 16 MB). */
export const CHUNK_MAX_RECORDS = 500;
export const CHUNK_MAX_CHARS = 4_000_000;

/** Records checked between two turns of the event loop (other requests run in between). */
export const CHECK_SLICE = 50;

/** Exceptions a page of the Exceptions route returns at most, and by default. */
export const EXCEPTIONS_LIMIT_MAX = 1000;

export function isExpired(state: Pick<BulkImportState, 'expiresAt'>, now: Date): boolean {
  return now.getTime() >= state.expiresAt.getTime();
}

/** Stage accepts records while the import is Initiated or Staging (not after Execute). */
export function acceptsStaging(state: Pick<BulkImportState, 'status'>): boolean {
  return state.status === 'Initiated' || state.status === 'Staging';
}

/** Executed and not ended: the worker applies it (Execute again only re-queues it). */
export function isRunning(state: Pick<BulkImportState, 'status'>): boolean {
  return state.status === 'Queued' || state.status === 'Processing';
}

export function hasEnded(state: Pick<BulkImportState, 'status'>): boolean {
  return state.status === 'Completed' || state.status === 'Failed';
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long an import's document is kept after its staged data was removed (Status answers
 * 401 meanwhile, 404 after).
 */
export const IMPORT_RECORD_KEPT_MS = 30 * DAY_MS;

/**
 * Until when Status and Exceptions answer: while the token is active, while the import
 * runs, and after it ended for DataStageDuration days (at least until Expires). Stage and
 * Execute stop at Expires.
 */
export function readableUntil(
  state: Pick<BulkImportState, 'status' | 'expiresAt'> & {
    endedAt?: Date;
    dataStageDuration: number;
  },
): Date | null {
  if (isRunning(state)) return null; // no end while it runs
  if (hasEnded(state) && state.endedAt) {
    const kept = state.endedAt.getTime() + state.dataStageDuration * DAY_MS;
    return new Date(Math.max(kept, state.expiresAt.getTime()));
  }
  return state.expiresAt;
}

/** The profile collections each Refresh* flag replaces instead of merging. */
export function refreshedCollections(refresh: BulkImportRefresh): string[] {
  return [
    ...(refresh.AlternateIds ? ['AlternateIds'] : []),
    ...(refresh.Contacts ? ['Emails', 'PhoneNumbers', 'Addresses'] : []),
    ...(refresh.CustomFields ? ['CustomFields'] : []),
    ...(refresh.Groups ? ['Groups'] : []),
    ...(refresh.Tags ? ['ProfileTags'] : []),
  ];
}

/**
 * Records Execute accepts between two saves of its progress: a worker that dies re-accepts
 * at most this many, which the profiles' import marks apply once.
 */
export const APPLY_BATCH = 500;

/** The AlternateId of the active pair of `type` a record names; null when it names none. */
export function matchValueOf(body: unknown, type: string): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const pairs = (body as { AlternateIds?: unknown }).AlternateIds;
  if (!Array.isArray(pairs)) return null;
  const wanted = textKey(type);
  for (const pair of pairs as {
    AlternateIdType?: unknown;
    AlternateId?: unknown;
    IsActive?: unknown;
  }[]) {
    if (
      typeof pair?.AlternateIdType === 'string' &&
      typeof pair.AlternateId === 'string' &&
      pair.AlternateId.trim() !== '' &&
      pair.IsActive !== false &&
      textKey(pair.AlternateIdType) === wanted
    ) {
      return pair.AlternateId;
    }
  }
  return null;
}

/**
 * A line of an NDJSON stage that is not a record: not JSON, or past the body bounds. The
 * stage makes it an exception record with this reason (the other lines go on).
 */
export class UnreadableRecord {
  constructor(readonly reason: string) {}
}

/** The check of a stage: an unreadable record is refused with its reason, unchecked. */
export function checkReadable(
  check: (body: unknown) => RecordCheck,
): (body: unknown) => RecordCheck {
  return (body) =>
    body instanceof UnreadableRecord ? { invalid: [body.reason], forbidden: [] } : check(body);
}

/** What the profile checks said of one record (see ProfileWriteChecks). */
export interface RecordCheck {
  invalid: string[];
  forbidden: string[];
}

export interface StagedBody {
  n: number;
  /** Which Stage call sent it and its index there (for an exception Execute finds). */
  stage: number;
  index: number;
  body: ProfileDto;
}

export interface RecordException {
  n: number;
  stage: number;
  index: number;
  alternateId: string | null;
  reason: string;
}

/**
 * Sorts one stage's records into staged ones and exceptions. Records are numbered on from
 * the records the import already received; `check` is the profile acceptance check.
 */
export function sortStagedRecords(
  state: Pick<BulkImportState, 'matchValue' | 'received' | 'stages'>,
  records: readonly unknown[],
  check: (body: unknown) => RecordCheck,
  /** The records' position in the stage's array (a stage is sorted a slice at a time). */
  from = 0,
): { staged: StagedBody[]; exceptions: RecordException[] } {
  const stage = state.stages + 1;
  const staged: StagedBody[] = [];
  const exceptions: RecordException[] = [];
  records.forEach((body, i) => {
    const index = from + i;
    const n = state.received + index + 1;
    const alternateId = matchValueOf(body, state.matchValue);
    const { invalid, forbidden } = check(body);
    const reasons = [...invalid, ...forbidden.map((problem) => `Not permitted: ${problem}`)];
    if (!reasons.length && alternateId === null) {
      reasons.push(
        `AlternateIds holds no active AlternateId of type "${state.matchValue}" (the import's MatchValue), value ${JSON.stringify((body as { AlternateIds?: unknown }).AlternateIds ?? null)}`,
      );
    }
    if (reasons.length) {
      exceptions.push({ n, stage, index, alternateId, reason: reasons.join('; ') });
    } else {
      // `check` found no fault against ProfileDto's rules: it is one.
      staged.push({ n, stage, index, body: body as ProfileDto });
    }
  });
  return { staged, exceptions };
}

/**
 * Splits staged records into chunks of at most `maxRecords` and about `maxChars` of JSON
 * (`sizeOf`: a record's characters; a record already held as its JSON text is its length).
 */
export function chunkRecords<T>(
  records: readonly T[],
  maxRecords = CHUNK_MAX_RECORDS,
  maxChars = CHUNK_MAX_CHARS,
  sizeOf: (record: T) => number = (record) => JSON.stringify(record).length,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const record of records) {
    const size = sizeOf(record);
    if (current.length && (current.length >= maxRecords || chars + size > maxChars)) {
      chunks.push(current);
      current = [];
      chars = 0;
    }
    current.push(record);
    chars += size;
  }
  if (current.length) chunks.push(current);
  return chunks;
}

/** The page (from 1) that holds exception record `n` (from 1). */
export function pageOf(n: number, pageSize = EXCEPTION_PAGE_SIZE): number {
  return Math.floor((n - 1) / pageSize) + 1;
}

/**
 * The pages to write when `added` exception records follow the `count` stored ones:
 * the partly filled last page (its stored records given as `lastPage`) completed, then
 * new pages. Each entry is a whole page, to be replaced by `_id`.
 */
export function appendToPages<T>(
  count: number,
  lastPage: readonly T[],
  added: readonly T[],
  pageSize = EXCEPTION_PAGE_SIZE,
): { page: number; records: T[] }[] {
  if (!added.length) return [];
  const pages: { page: number; records: T[] }[] = [];
  const partial = count % pageSize !== 0;
  let page = partial ? pageOf(count, pageSize) : count / pageSize + 1;
  let records: T[] = partial ? [...lastPage] : [];
  for (const record of added) {
    if (records.length === pageSize) {
      pages.push({ page, records });
      page++;
      records = [];
    }
    records.push(record);
  }
  pages.push({ page, records });
  return pages;
}

/** The records `offset` (from 1) to `last` of `total`, and the pages that hold them. */
export interface ExceptionWindow {
  first: number;
  last: number;
  pages: number[];
  hasMore: boolean;
}

export function exceptionWindow(
  total: number,
  offset: number,
  limit: number,
  pageSize = EXCEPTION_PAGE_SIZE,
): ExceptionWindow {
  const first = offset;
  const last = Math.min(total, offset + limit - 1);
  const pages: number[] = [];
  if (first <= last) {
    for (let page = pageOf(first, pageSize); page <= pageOf(last, pageSize); page++) {
      pages.push(page);
    }
  }
  return { first, last: Math.max(last, first - 1), pages, hasMore: last < total };
}

/**
 * Initiates kept per account beyond its limit: enough for the operator's count of the day's
 * imports while the limit is 0 (unlimited), and for a limit raised later to count them.
 */
export const INITIATES_KEPT = 1000;

/**
 * The daily import limit: Initiates of the account in the 24 hours before `now`. Returns
 * the Initiate times to keep (those inside the window, with `now` when allowed) or, when
 * the limit is used up, the seconds until the oldest leaves the window.
 */
export function dailyImportQuota(
  initiated: readonly Date[],
  now: Date,
  limit: number,
): { allowed: true; initiated: Date[] } | { allowed: false; retryAfterSeconds: number } {
  const recent = importsWithinDay(initiated, now);
  if (limit > 0 && recent.length >= limit) {
    const frees = recent[recent.length - limit].getTime() + DAY_MS;
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)),
    };
  }
  // The limit (a client's own quota) may change: keep more than the last `limit` times.
  return { allowed: true, initiated: [...recent, now].slice(-Math.max(limit, INITIATES_KEPT)) };
}

/** The Initiates of the 24 hours before `now`, oldest first (the daily limit's count). */
export function importsWithinDay(initiated: readonly Date[], now: Date): Date[] {
  const since = now.getTime() - DAY_MS;
  return initiated.filter((at) => at.getTime() > since).sort((a, b) => +a - +b);
}

/**
 * The records of a batch in groups that share no key (see ProfileImportWrites.conflictKeys):
 * records linked by a shared key, directly or through others, fall in one group, in record
 * order. Groups may be accepted concurrently; a group's records one after the other.
 */
export function independentGroups(keys: readonly (readonly string[])[]): number[][] {
  const parent = keys.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const owner = new Map<string, number>();
  keys.forEach((recordKeys, i) => {
    for (const key of recordKeys) {
      const first = owner.get(key);
      if (first === undefined) owner.set(key, i);
      else parent[root(i)] = root(first);
    }
  });
  const groups = new Map<number, number[]>();
  keys.forEach((_, i) => {
    const r = root(i);
    groups.set(r, [...(groups.get(r) ?? []), i]);
  });
  return [...groups.values()];
}
