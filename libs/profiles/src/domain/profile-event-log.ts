/**
 * A profile's event log (`Profile.eventLog`): `{seq, at}` (at: the acceptance time in ms)
 * of each of its writes that has events, oldest first, saved with the profile (objects, not
 * pairs: the embedded engine stores no nested arrays). It is how a profile's events are
 * found by `_id` (docs/events.md, "Storage"), and it bounds them: a write's events are kept
 * EVENT_HISTORY_DAYS (the notes' MaxEventHistoryDays), and at most EVENT_LOG_MAX writes.
 */
export type EventLog = { seq: number; at: number }[];

/** How long a profile's events are kept and can be retrieved (the notes: 15 days). */
export const EVENT_HISTORY_DAYS = 15;
export const EVENT_HISTORY_MS = EVENT_HISTORY_DAYS * 24 * 60 * 60 * 1000;

/**
 * Writes whose events one profile keeps at most: a profile written thousands of times in
 * 15 days keeps the events of its last EVENT_LOG_MAX writes (its document stays small).
 */
export const EVENT_LOG_MAX = 500;

/**
 * The log after write `seq` (accepted at `atMs`) is applied at `nowMs`, with or without
 * events; and the writes dropped from it (their event documents go). Entries of `seq` or
 * later (an earlier attempt's, which never reached its save) are replaced.
 */
export function nextEventLog(
  log: EventLog | undefined,
  seq: number,
  atMs: number,
  hasEvents: boolean,
  nowMs: number,
): { log: EventLog; dropped: number[] } {
  const kept: EventLog = [];
  const dropped: number[] = [];
  const entries = (log ?? []).filter((entry) => entry.seq < seq);
  if (hasEvents) entries.push({ seq, at: atMs });
  const overflow = entries.length - EVENT_LOG_MAX;
  entries.forEach((entry, k) => {
    if (k < overflow || entry.at < nowMs - EVENT_HISTORY_MS) dropped.push(entry.seq);
    else kept.push(entry);
  });
  return { log: kept, dropped };
}
