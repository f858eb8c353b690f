/**
 * What a use case refuses, in the domain's words. Domain code, handlers and the worker
 * throw these and catch them by type; ApiExceptionFilter alone gives them a wire status
 * (`DOMAIN_ERROR_STATUS`). Errors that only exist on the wire (401 with its challenge,
 * 429 with Retry-After) stay ApiErrors of the transport.
 */
export abstract class DomainError extends Error {
  /** Fields the answer carries beside its Message (a merged profile's `MergedInto`). */
  details?: Record<string, string | number>;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request says something invalid (400). */
export class InvalidInputError extends DomainError {}

/** What the request names does not exist, or must not be known to exist (404). */
export class NotFoundError extends DomainError {}

/** The caller's user group may not do or see this (403). */
export class PermissionDeniedError extends DomainError {}

/**
 * What the request names existed, but the access it carries has ended (an expired bulk
 * access token) (401, without an authentication challenge: the credentials are fine).
 */
export class AccessExpiredError extends DomainError {}

/** The request contradicts what is stored (taken name or id, concurrent change) (409). */
export class ConflictError extends DomainError {}

/** A condition that passes on its own (a profile still being created); retry (503). */
export class RetryLaterError extends DomainError {}

/**
 * An account's quota of something is used up until `retryAfterSeconds` have passed (the
 * daily bulk import limit) (429, with Retry-After).
 */
export class QuotaExceededError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The wire status of each domain error (the exception filter's table). */
export const DOMAIN_ERROR_STATUS: ReadonlyArray<
  [abstract new (...args: never[]) => DomainError, number]
> = [
  [InvalidInputError, 400],
  [AccessExpiredError, 401],
  [PermissionDeniedError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [RetryLaterError, 503],
  [QuotaExceededError, 429],
];
