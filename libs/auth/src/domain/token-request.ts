/**
 * The OAuth 2.0 client-credentials token request (spec, Authentication, method 1) as
 * pure functions: reading the request and deciding which error, if any, it earns.
 */

export type TokenErrorCode = 'invalid_request' | 'invalid_client' | 'access_denied';

export interface TokenError {
  error: TokenErrorCode;
  description: string;
}

export const TOKEN_ERRORS = {
  missingGrantType: {
    error: 'invalid_request',
    description: 'required parameters (grant_type) is missing',
  },
  unsupportedGrantType: {
    error: 'invalid_request',
    description: 'unsupported value for field (grant_type)',
  },
  missingClientId: {
    error: 'invalid_client',
    description: 'required parameter (client_id) is missing',
  },
  secretFailed: {
    error: 'invalid_client',
    description: 'client authentication (client secret) failed',
  },
  accessDenied: { error: 'access_denied', description: 'admin policy denied access' },
} as const satisfies Record<string, TokenError>;

export function unknownClientIdError(clientId: string): TokenError {
  return { error: 'invalid_client', description: `invalid client_id ${clientId}` };
}

/** `<error>: <description>`, the Message of the error body. */
export function tokenErrorMessage(error: TokenError): string {
  return `${error.error}: ${error.description}`;
}

export const CLIENT_CREDENTIALS = 'client_credentials';

/** What the request carries, before anything is looked up. */
export interface TokenRequest {
  grantType?: string;
  scope?: string;
  clientId?: string;
  clientSecret?: string;
}

/** The form fields of a token request, as sent (each narrowed to text by `text`). */
interface TokenFormFields {
  grant_type?: unknown;
  scope?: unknown;
  client_id?: unknown;
  client_secret?: unknown;
}

/**
 * Reads the form fields and the optional `Authorization: Basic` header. Credentials in
 * the body win when the body names a client_id; otherwise the Basic header supplies
 * both (its parts are form-decoded, as RFC 6749 section 2.3.1 asks).
 */
export function readTokenRequest(body: unknown, authorization: string | undefined): TokenRequest {
  const fields: TokenFormFields = typeof body === 'object' && body !== null ? body : {};
  const request: TokenRequest = {
    grantType: text(fields.grant_type),
    scope: text(fields.scope),
    clientId: text(fields.client_id),
    clientSecret: text(fields.client_secret),
  };
  if (request.clientId === undefined) {
    const basic = parseBasicAuthorization(authorization);
    if (basic) {
      request.clientId = basic.clientId || undefined;
      request.clientSecret = basic.clientSecret || undefined;
    }
  }
  return request;
}

/** `Basic base64(client_id:client_secret)`; null when the header is not that. */
export function parseBasicAuthorization(
  authorization: string | undefined,
): { clientId: string; clientSecret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return {
    clientId: formDecode(decoded.slice(0, colon)),
    clientSecret: formDecode(decoded.slice(colon + 1)),
  };
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** A single non-empty string field; repeated or empty fields count as missing. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `<CLIENT_ID>/<USER_ID>`, split at the first slash; null when it is not that shape. */
export function parseScope(scope: string | undefined): { clientId: string; userId: string } | null {
  if (!scope) return null;
  const slash = scope.indexOf('/');
  if (slash <= 0 || slash === scope.length - 1) return null;
  return { clientId: scope.slice(0, slash), userId: scope.slice(slash + 1) };
}

/** Checks that need nothing looked up, in the spec's order. */
export function checkTokenRequestShape(request: TokenRequest): TokenError | null {
  if (request.grantType === undefined) return TOKEN_ERRORS.missingGrantType;
  if (request.grantType !== CLIENT_CREDENTIALS) return TOKEN_ERRORS.unsupportedGrantType;
  if (request.clientId === undefined) return TOKEN_ERRORS.missingClientId;
  return null;
}

/** What the service found out, each fact only once the previous check passed. */
export interface TokenRequestFacts {
  /** The tenant of the OAuth client named by client_id, or null when there is none. */
  oauthClientTenant: string | null;
  /** The secret matched the stored hash (false when no secret was sent). */
  secretValid: boolean;
  /** The user named in scope exists in that tenant and is active. */
  userActive: boolean;
}

/**
 * The first error the request earns, in the spec's order: grant_type missing, grant_type
 * unsupported, client_id missing, client_id unknown, secret wrong (or missing), scope
 * wrong or missing (malformed, another tenant, unknown or inactive user). Null = grant.
 */
export function decideTokenRequest(
  request: TokenRequest,
  facts: TokenRequestFacts,
): TokenError | null {
  const shape = checkTokenRequestShape(request);
  if (shape) return shape;
  if (facts.oauthClientTenant === null) return unknownClientIdError(request.clientId ?? '');
  if (!facts.secretValid) return TOKEN_ERRORS.secretFailed;
  const scope = parseScope(request.scope);
  if (!scope || scope.clientId !== facts.oauthClientTenant || !facts.userActive) {
    return TOKEN_ERRORS.accessDenied;
  }
  return null;
}
