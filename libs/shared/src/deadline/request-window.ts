import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { routeOptionsOf } from '../http/route-config';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The answer a request whose write committed gets when its own answer cannot be given. */
export interface CommittedAnswer {
  status: number;
  body: object;
  headers: Record<string, string>;
}

/** The `Idempotency-Key` attempt a request runs as (set by the idempotency guard). */
export interface KeyedAttempt {
  key: string;
  attempt: number;
  /** Where the attempt's records live (the key store's bucket). */
  bucket: number;
  fingerprint: string;
}

type WindowState =
  /** Nothing committed; the request may still commit. */
  | 'open'
  /** A commit is in flight: its outcome decides the answer, whenever the engine answers. */
  | 'committing'
  /** Committed: the answer is a success, late or not. */
  | 'committed'
  /** Answered (the deadline) or abandoned (the client left) before any commit: never commits. */
  | 'closed';

/** The 503 of a request past its deadline (the deadline sweeper's and the intake's). */
export function deadlineError(deadlineMs: number): ApiError {
  return new ApiError(
    503,
    `The service could not answer within ${deadlineMs} ms (a database or queue operation is stalled); try again`,
    { 'Retry-After': '1' },
  );
}

/**
 * The one decision of a write request: either it commits (its write takes its sequence
 * number, or its keyed attempt its fate) and its client gets a success, or it is answered
 * an error (its deadline, a refusal) and never commits afterwards. The deadline sweeper
 * answers 503 only while the window is open and closes it; a commit starts only in an open
 * window and, once started, the deadline waits for its outcome (the engine decides, however
 * late). So a write answered 503 is never applied (docs/architecture.md, "Exactly once").
 */
export class RequestWindow {
  state: WindowState = 'open';
  /** The deadline passed while a commit was in flight: a commit that lost closes the window. */
  overdue = false;
  keyed?: KeyedAttempt;
  /** What to answer once committed, if the route cannot answer itself (an error, a stall). */
  committedAnswer?: CommittedAnswer;

  constructor(
    readonly deadlineMs: number,
    private readonly client: { aborted: () => boolean },
    /**
     * The route queues one profile write and answers its 202 (DurableIdempotencyKeys): that
     * 202 may stand in for its answer once committed. Other routes (walks over many
     * profiles, forms) answer 503 at their deadline even after a commit, as before.
     */
    readonly answersOneWrite = false,
  ) {}

  /**
   * Runs one commit attempt (an insert that may take the write's place). Refused (503)
   * once the window closed, the deadline passed or the client left; `committed` says
   * whether the attempt's outcome committed. An attempt that did not commit reopens the
   * window, or closes it when the deadline passed meanwhile.
   */
  async attempt<T>(
    commit: () => Promise<T>,
    committed: (outcome: T) => boolean,
    /** What the request answers once committed, if its route cannot (CommittedAnswer). */
    answer?: CommittedAnswer,
  ): Promise<T> {
    if (this.state === 'committed') return commit();
    if (this.state === 'open' && (this.overdue || this.client.aborted())) this.state = 'closed';
    if (this.state !== 'open') throw deadlineError(this.deadlineMs);
    this.state = 'committing';
    let outcome: T;
    try {
      outcome = await commit();
    } catch (error) {
      this.state = 'open';
      throw error;
    }
    if (committed(outcome)) {
      this.state = 'committed';
      if (this.answersOneWrite) this.committedAnswer ??= answer;
    } else this.state = this.overdue || this.client.aborted() ? 'closed' : 'open';
    return outcome;
  }

  /** The deadline passed: true when the sweeper may answer 503 now (nothing committed). */
  expire(): boolean {
    this.overdue = true;
    if (this.state !== 'open') return false;
    this.state = 'closed';
    return true;
  }

  /** The client left before anything committed: nothing may commit for it any more. */
  abandon(): void {
    if (this.state === 'open') this.state = 'closed';
  }
}

const WINDOW = Symbol('request-window');
type WindowedRequest = FastifyRequest & { [WINDOW]?: RequestWindow };

/**
 * The window of a write request (POST, PUT, PATCH, DELETE), undefined for any other. The
 * routes that queue writes hand it down explicitly (`@WriteWindow()`, request-window.param.ts)
 * to `ProfileWriteIntake.accept`; writes outside a request (a job, a bulk import's run, a
 * scheduled write) pass null: nothing races them.
 */
export function requestWindowOf(request: FastifyRequest): RequestWindow | undefined {
  return (request as WindowedRequest)[WINDOW];
}

/**
 * Gives every write request (POST, PUT, PATCH, DELETE) a window, kept on the request
 * (`requestWindowOf`; reads have none). `deadlineOf` is the request's deadline in ms. It is
 * bound to no async context: on Node 20 the first store run switches on promise hooks for
 * the whole process, which every promise of every request (GETs too) would then pay.
 */
export function installRequestWindows(
  fastify: FastifyInstance,
  deadlineOf: (request: FastifyRequest) => number,
): void {
  fastify.addHook('onRequest', (request: WindowedRequest, _reply, done) => {
    if (!WRITE_METHODS.has(request.method)) return done();
    const config = routeOptionsOf(request).config as { durableIdempotency?: boolean } | undefined;
    const window = new RequestWindow(
      deadlineOf(request),
      { aborted: () => request.raw.socket?.destroyed ?? false },
      config?.durableIdempotency === true,
    );
    request[WINDOW] = window;
    done();
  });
  fastify.addHook('onRequestAbort', (request: WindowedRequest, done) => {
    request[WINDOW]?.abandon();
    done();
  });
}

/** Sends a committed request's answer in place of an error or of no answer at all. */
export function sendCommittedAnswer(reply: FastifyReply, answer: CommittedAnswer): void {
  void reply.status(answer.status).headers(answer.headers).send(answer.body);
}
