import type { EnvReader } from '@app/shared';

/** The retries of a failed handshake by default: after 1 s, 5 s and 30 s. */
const DEFAULT_HANDSHAKE_RETRY_DELAYS_MS = [1000, 5000, 30_000];

/** The events module's settings (README, configuration table). */
export class EventsSettings {
  /** Subscriptions a client may hold (the notes name no number). */
  readonly maxSubscriptions: number;
  /**
   * Operators only (tests, a receiver on the same host): allow `http:` URLs and targets on
   * loopback, private and link-local addresses, which are refused otherwise (SSRF).
   */
  readonly allowPrivateTargets: boolean;
  /** How long one attempt of a subscription's validation handshake may take. */
  readonly handshakeTimeoutMs: number;
  /**
   * The delays before each retry of a failed handshake: the first attempt, then one retry
   * per delay; after the last the subscription's validation is Failed.
   */
  readonly handshakeRetryDelaysMs: number[];

  constructor(env: EnvReader) {
    this.maxSubscriptions = env.int('EVENTS_MAX_SUBSCRIPTIONS', 25, 1);
    this.allowPrivateTargets = env.bool('EVENTS_ALLOW_PRIVATE_TARGETS', false);
    this.handshakeTimeoutMs = env.int('EVENTS_HANDSHAKE_TIMEOUT_MS', 5000, 100);
    this.handshakeRetryDelaysMs = delays(env.list('EVENTS_HANDSHAKE_RETRY_DELAYS_MS'));
  }
}

function delays(entries: string[]): number[] {
  if (entries.length === 0) return DEFAULT_HANDSHAKE_RETRY_DELAYS_MS;
  return entries.map((entry) => {
    const value = Number(entry);
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(
        `Environment variable EVENTS_HANDSHAKE_RETRY_DELAYS_MS must be a comma-separated list of non-negative integers, got "${entry}"`,
      );
    }
    return value;
  });
}
