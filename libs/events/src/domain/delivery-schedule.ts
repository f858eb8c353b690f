/**
 * When a failed delivery is tried again (docs/events.md, "Deliveries"): after each delay of
 * the schedule in turn, each stretched or shrunk by up to JITTER at random so that the
 * retries of many deliveries that failed together do not arrive together; after the last,
 * the event is dead-lettered. The default schedule spans about a day.
 */
export const DEFAULT_DELIVERY_RETRY_DELAYS_MS = [
  5_000, // 5 s
  5 * 60_000, // 5 min
  30 * 60_000, // 30 min
  2 * 3_600_000, // 2 h
  5 * 3_600_000, // 5 h
  8 * 3_600_000, // 8 h
  10 * 3_600_000, // 10 h
];

/** The share (either way) by which a delay is moved at random. */
export const JITTER = 0.2;

/**
 * The delay before attempt `failed + 1` after `failed` failed attempts, or null when the
 * schedule is spent (dead letter). `random` in [0, 1).
 */
export function retryDelayMs(
  schedule: readonly number[],
  failed: number,
  random: number = Math.random(),
): number | null {
  const base = schedule[failed - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * (1 - JITTER + 2 * JITTER * random)));
}
