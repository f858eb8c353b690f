import { randomBytes } from 'node:crypto';

/*
 * The validation handshake (the notes: "the receiving endpoint must pass a validation
 * handshake"; its form is ours, docs/events.md): the worker POSTs a challenge to the Url,
 * and the endpoint proves it consents to receive events by answering it back. Pure code.
 */

/** The most of an answer's body that is read (a challenge answer is a few dozen bytes). */
export const HANDSHAKE_MAX_RESPONSE_BYTES = 4096;

/** A challenge: 32 random hex digits. */
export function newChallenge(): string {
  return randomBytes(16).toString('hex');
}

/** What the handshake POSTs, as JSON. */
export interface HandshakeRequest {
  Type: 'SubscriptionValidation';
  SubscriptionId: string;
  Challenge: string;
}

export function handshakeRequest(subscriptionId: string, challenge: string): HandshakeRequest {
  return { Type: 'SubscriptionValidation', SubscriptionId: subscriptionId, Challenge: challenge };
}

/**
 * Why an answer fails the handshake, or null when it passes: a 2xx status and a body that
 * is the challenge itself (surrounding white space ignored), or a JSON object whose
 * `Challenge` is it. `truncated`: the body was longer than what was read.
 */
export function challengeProblem(
  answer: { status: number; body: string; truncated?: boolean },
  challenge: string,
): string | null {
  if (answer.status < 200 || answer.status > 299)
    return `the endpoint answered HTTP ${answer.status}`;
  if (answer.truncated) {
    return `the endpoint answered a body over ${HANDSHAKE_MAX_RESPONSE_BYTES} bytes, not the challenge`;
  }
  const text = answer.body.trim();
  if (text === challenge) return null;
  let echoed: unknown;
  try {
    echoed = (JSON.parse(text) as { Challenge?: unknown } | null)?.Challenge;
  } catch {
    echoed = undefined;
  }
  if (echoed === challenge) return null;
  if (typeof echoed === 'string') return 'the endpoint answered a wrong challenge';
  return 'the endpoint did not answer the challenge (neither as text nor as JSON {"Challenge": ...})';
}

/**
 * The delay before attempt `attempt + 1` (attempts count from 1), or null when `attempt`
 * was the last: the first attempt, then one retry per configured delay.
 */
export function retryDelayMs(delays: readonly number[], attempt: number): number | null {
  return attempt <= delays.length ? delays[attempt - 1] : null;
}
