import type { CommittedAnswer, KeyedAttempt } from '../deadline/request-window';
import { withRouteConfig } from './route-config';

/** What is kept of an answer under its `Idempotency-Key`. */
export interface StoredKeyAnswer {
  /** Hash of the method, route, path and body the key was first used with. */
  request: string;
  status: number;
  /** The answer's JSON text, as it was sent ('' when it had no body). */
  json: string;
  headers: Record<string, string>;
}

/** What a request with a key does (DurableIdempotency.begin). */
export type KeyedStart =
  /** Run as this attempt (the first, or the next after earlier attempts that never committed). */
  | { kind: 'run'; attempt: KeyedAttempt }
  /** An earlier attempt committed: its answer (or, if it died before answering, its write's 202). */
  | { kind: 'replay'; answer: StoredKeyAnswer | CommittedAnswer }
  /** An earlier attempt may still commit (its process may be alive): 409, retry shortly. */
  | { kind: 'running' }
  /** The key was used with another request: 422. */
  | { kind: 'mismatch' };

/**
 * `Idempotency-Key` of the routes that queue a profile write, tied to the write's durable
 * record (libs/profiles: WriteKeys) instead of Redis alone: an attempt commits in the engine
 * together with its write's place in the profile's order, so a resend after any crash learns
 * the outcome, and a key is "running" only while its attempt could still commit.
 */
export interface DurableIdempotency {
  begin(clientId: string, key: string, fingerprint: string, windowMs: number): Promise<KeyedStart>;
  /** The committed attempt's answer, kept for replays. */
  keep(clientId: string, attempt: KeyedAttempt, answer: StoredKeyAnswer): Promise<void>;
  /** An attempt answered with an error before it committed: it never will (resends run at once). */
  abandon(clientId: string, attempt: KeyedAttempt): Promise<void>;
}

export const DURABLE_IDEMPOTENCY = Symbol('DURABLE_IDEMPOTENCY');

/** Marks a route whose keyed requests go through DurableIdempotency (queued profile writes). */
export const DurableIdempotencyKeys = (): MethodDecorator =>
  withRouteConfig({ durableIdempotency: true });
