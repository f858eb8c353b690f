import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { addressRange, isPublicAddress, targetUrlProblem } from '../domain/target-url';

/*
 * The one way the events module sends a request to a client's endpoint (the handshake now,
 * deliveries later). It refuses what the URL check refuses, and then, at connect time, any
 * host name that resolves to a non-public address (a public-looking name may point at the
 * service's own network, or change between the check and the request: DNS rebinding). The
 * address checked is the address connected to: the guard is the socket's own lookup.
 */

export interface SafePostOptions {
  /** The whole request: connecting, sending, the answer's head and the body read. */
  timeoutMs: number;
  /** The most of the answer's body that is read; the rest is dropped (`truncated`). */
  maxResponseBytes: number;
  /** Operators only: http and non-public targets allowed (EVENTS_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** How host names are resolved (default `dns.lookup`; tests give names fixed addresses). */
  resolve?: Resolver;
}

export interface SafePostAnswer {
  status: number;
  /** The answer's body as UTF-8 text, at most maxResponseBytes of it. */
  body: string;
  /** true when the body was longer than maxResponseBytes. */
  truncated: boolean;
}

/** A target refused before anything was sent to it. */
export class RefusedTargetError extends Error {
  constructor(reason: string) {
    super(`refused target: ${reason}`);
    this.name = 'RefusedTargetError';
  }
}

/** A resolver with the signature of `dns.lookup` (all addresses asked for). */
export type Resolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * The socket's lookup: `resolve`, then, unless private targets are allowed, a failure when
 * any address the name resolves to is not public. Every one is checked (not only the
 * first), since the connection may try them all (autoSelectFamily).
 */
function guardedLookup(resolve: Resolver, allowPrivateTargets: boolean): LookupFunction {
  return ((
    hostname: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = allowPrivateTargets
        ? undefined
        : addresses.find(({ address }) => !isPublicAddress(address));
      if (refused) {
        return callback(
          new RefusedTargetError(
            `${hostname} resolves to ${refused.address} (${addressRange(refused.address)}), not a public address`,
          ),
          [],
        );
      }
      if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  }) as unknown as LookupFunction;
}

/**
 * POSTs `body` to `url` and answers its status and (the start of) its body; throws an Error
 * saying why when there is no answer: a refused target, a timeout, a failed connection.
 * Redirects are not followed (a 3xx is an answer like any other). Each call has its own
 * connection, closed at the end (no pool outlives a call).
 */
export async function safePost(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: SafePostOptions,
): Promise<SafePostAnswer> {
  const problem = targetUrlProblem(url, options.allowPrivateTargets);
  if (problem) throw new RefusedTargetError(`the Url ${problem}`);
  const { hostname } = new URL(url);
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  // A literal address is connected to without a lookup: checked here (targetUrlProblem did
  // too; this keeps safePost sound on its own).
  if (!options.allowPrivateTargets && isIP(literal) && !isPublicAddress(literal)) {
    throw new RefusedTargetError(`${literal} is ${addressRange(literal)}, not a public address`);
  }
  // The process's shared agent keeps connections to an endpoint alive between deliveries
  // (each connection's address was checked when it was made); a resolver of the caller's
  // (tests) gets an agent of its own, closed after the call.
  const own = options.resolve !== undefined;
  const agent = own ? newAgent(options) : sharedAgent(options);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const answer = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: agent,
      signal,
    });
    const { text, truncated } = await readAtMost(answer.body, options.maxResponseBytes);
    return { status: answer.statusCode, body: text, truncated };
  } catch (error) {
    throw describeFailure(error, signal, options.timeoutMs);
  } finally {
    // destroy, not close: a body left unread must not hold the call open.
    if (own) await agent.destroy().catch(() => undefined);
  }
}

function newAgent(options: SafePostOptions): Agent {
  return new Agent({
    connect: {
      timeout: options.timeoutMs,
      lookup: guardedLookup(
        options.resolve ?? (dnsLookup as Resolver),
        options.allowPrivateTargets,
      ),
    },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}

/** One agent per (timeout, private targets allowed) for the process's life. */
const sharedAgents = new Map<string, Agent>();

function sharedAgent(options: SafePostOptions): Agent {
  const key = `${options.timeoutMs}|${options.allowPrivateTargets}`;
  let agent = sharedAgents.get(key);
  if (!agent) {
    agent = newAgent(options);
    sharedAgents.set(key, agent);
  }
  return agent;
}

/** Reads up to `max` bytes of a body, then stops reading it. */
async function readAtMost(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  max: number,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  let truncated = false;
  for await (const chunk of body) {
    const room = max - length;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      length = max;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    length += chunk.length;
  }
  if (truncated) body.destroy();
  return { text: Buffer.concat(chunks, length).toString('utf8'), truncated };
}

/** The error of a call without an answer, with a reason a subscription can show. */
function describeFailure(error: unknown, signal: AbortSignal, timeoutMs: number): Error {
  const refused = findCause(error, (e) => e instanceof RefusedTargetError);
  if (refused) return refused;
  const code = (
    findCause(error, (e) => typeof (e as { code?: unknown }).code === 'string') as
      (Error & { code: string }) | undefined
  )?.code;
  if (
    signal.aborted ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return new Error(`timed out after ${timeoutMs} ms`);
  }
  const message = error instanceof Error ? error.message : String(error);
  const suffix = code && !message.includes(code) ? ` (${code})` : '';
  return new Error(`request failed: ${message}${suffix}`);
}

/** The error or one of its causes that `test` accepts. */
function findCause(error: unknown, test: (e: Error) => boolean): Error | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    if (test(e)) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
