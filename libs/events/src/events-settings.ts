import type { EnvReader } from '@app/shared';
import { DEFAULT_DELIVERY_RETRY_DELAYS_MS } from './domain/delivery-schedule';

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
  /** How long one delivery attempt may take. */
  readonly deliveryTimeoutMs: number;
  /** The delays before each retry of a failed delivery; after the last, a dead letter. */
  readonly deliveryRetryDelaysMs: number[];
  /** Dead letters in a row after which a subscription is paused automatically (0: never). */
  readonly pauseAfterDeadLetters: number;

  constructor(env: EnvReader) {
    this.maxSubscriptions = env.int('EVENTS_MAX_SUBSCRIPTIONS', 25, 1);
    this.allowPrivateTargets = env.bool('EVENTS_ALLOW_PRIVATE_TARGETS', false);
    this.handshakeTimeoutMs = env.int('EVENTS_HANDSHAKE_TIMEOUT_MS', 5000, 100);
    this.handshakeRetryDelaysMs = delays(
      'EVENTS_HANDSHAKE_RETRY_DELAYS_MS',
      env.list('EVENTS_HANDSHAKE_RETRY_DELAYS_MS'),
      DEFAULT_HANDSHAKE_RETRY_DELAYS_MS,
    );
    this.deliveryTimeoutMs = env.int('EVENTS_DELIVERY_TIMEOUT_MS', 10_000, 100);
    this.deliveryRetryDelaysMs = delays(
      'EVENTS_DELIVERY_RETRY_DELAYS_MS',
      env.list('EVENTS_DELIVERY_RETRY_DELAYS_MS'),
      DEFAULT_DELIVERY_RETRY_DELAYS_MS,
    );
    this.pauseAfterDeadLetters = env.int('EVENTS_PAUSE_AFTER_DEAD_LETTERS', 10, 0);
  }
}

function delays(name: string, entries: string[], fallback: number[]): number[] {
  if (entries.length === 0) return fallback;
  return entries.map((entry) => {
    const value = Number(entry);
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(
        `Environment variable ${name} must be a comma-separated list of non-negative integers, got "${entry}"`,
      );
    }
    return value;
  });
}
