import { createHash, createHmac } from 'node:crypto';
import type { MiddlewareCallbackParams } from 'openapi-fetch';

/** The fetch the helpers call (the global one unless given). */
export type FetchLike = (input: Request) => Promise<Response>;

/** The route that issues access tokens (OAuth 2.0 client credentials). */
export const TOKEN_PATH = '/oauth2/v1/token';

/** An auth helper: an openapi-fetch middleware (`client.use(...)`) that authorizes each request. */
export interface AuthMiddleware {
  readonly scheme: 'bearer' | 'customauth3';
  onRequest(params: MiddlewareCallbackParams): Request | Promise<Request>;
  onResponse?(
    params: MiddlewareCallbackParams & { response: Response },
  ): Promise<Response | undefined>;
  onError?(params: MiddlewareCallbackParams & { error: unknown }): void;
}

export interface BearerAuthOptions {
  /** The service's origin, e.g. `https://pcp.example.com` (no path). */
  baseUrl: string;
  /** The client (tenant) id: the `{clientId}` of every path. */
  clientId: string;
  /** The user the token acts as (scope `<clientId>/<userId>`). */
  userId: string;
  /** OAuth client id and secret (`npm run admin -- create-client` prints them). */
  oauthClientId: string;
  oauthClientSecret: string;
  /**
   * A token is fetched anew this long before it expires (default: 60 s, or a tenth of the
   * token's lifetime when that is shorter).
   */
  refreshBeforeExpirySeconds?: number;
  fetch?: FetchLike;
  /** The clock (ms since the epoch); tests move it instead of waiting. */
  now?: () => number;
}

/** What the token endpoint answers. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export class TokenRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`token request failed: HTTP ${status} ${body}`);
    this.name = 'TokenRequestError';
  }
}

export interface BearerAuth extends AuthMiddleware {
  readonly scheme: 'bearer';
  /** The cached access token, fetched when there is none or it is about to expire. */
  token(): Promise<string>;
  /** Forgets the cached token: the next request fetches a new one. */
  invalidate(): void;
}

/**
 * Bearer authorization: fetches an access token from `/oauth2/v1/token` (grant
 * client_credentials, scope `<clientId>/<userId>`), caches it, fetches a new one shortly
 * before it expires, and when the service answers 401 to a request sent with it (a revoked
 * or rotated token, the secret rotated, a clock ahead of the service's), fetches a new
 * token and sends the request once more. Concurrent requests share one token request.
 */
export function bearerAuth(options: BearerAuthOptions): BearerAuth {
  const fetchImpl: FetchLike = options.fetch ?? ((input) => fetch(input));
  const now = options.now ?? (() => Date.now());
  const origin = options.baseUrl.replace(/\/+$/, '');
  let cached: { token: string; refreshAt: number } | undefined;
  let inFlight: Promise<string> | undefined;
  /** Copies of the requests sent, to send once more after a 401 (by openapi-fetch's id). */
  const sent = new Map<string, Request>();

  async function requestToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: `${options.clientId}/${options.userId}`,
      client_id: options.oauthClientId,
      client_secret: options.oauthClientSecret,
    });
    const response = await fetchImpl(
      new Request(`${origin}${TOKEN_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      }),
    );
    const text = await response.text();
    if (response.status !== 200) throw new TokenRequestError(response.status, text);
    const body = JSON.parse(text) as TokenResponse;
    const lifetimeMs = body.expires_in * 1000;
    const marginMs =
      options.refreshBeforeExpirySeconds === undefined
        ? Math.min(60_000, lifetimeMs / 10)
        : options.refreshBeforeExpirySeconds * 1000;
    cached = { token: body.access_token, refreshAt: now() + lifetimeMs - marginMs };
    return body.access_token;
  }

  const auth: BearerAuth = {
    scheme: 'bearer',
    token() {
      if (cached && now() < cached.refreshAt) return Promise.resolve(cached.token);
      inFlight ??= requestToken().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    invalidate() {
      cached = undefined;
    },
    async onRequest({ request, id }) {
      const token = await auth.token();
      request.headers.set('Authorization', `Bearer ${token}`);
      sent.set(id, request.clone());
      return request;
    },
    async onResponse({ response, id }) {
      const copy = sent.get(id);
      sent.delete(id);
      if (response.status !== 401 || !copy) return undefined;
      // Only the token this request carried is dropped (another request may have renewed it).
      if (cached && copy.headers.get('Authorization') === `Bearer ${cached.token}`) {
        cached = undefined;
      }
      copy.headers.set('Authorization', `Bearer ${await auth.token()}`);
      return fetchImpl(copy);
    },
    onError({ id }) {
      sent.delete(id);
    },
  };
  return auth;
}

/** The CUSTOMAUTH3 schemes: HMAC keyed with the APIHashKey, or the plain key-wrapped hash. */
export type CustomAuthScheme =
  | 'CUSTOMAUTH3-HMAC-SHA256'
  | 'CUSTOMAUTH3-HMAC-SHA384'
  | 'CUSTOMAUTH3-HMAC-SHA512'
  | 'CUSTOMAUTH3-SHA256'
  | 'CUSTOMAUTH3-SHA384'
  | 'CUSTOMAUTH3-SHA512';

export interface SignInput {
  scheme?: CustomAuthScheme;
  /** The `{clientId}` path segment of the request, exactly as in the URL. */
  clientId: string;
  /** The user id (URL-encoded here, as it appears in Credential and the signed message). */
  userId: string;
  /** The tenant's APIHashKey. */
  apiHashKey: string;
  /** The issued time (default: now); sent as ISO 8601 UTC, whole seconds. */
  issuedAt?: Date;
}

/** ISO 8601 in UTC, whole seconds: `2026-01-31T23:59:59Z`. */
export function issuedTimestamp(at: Date): string {
  return new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * A complete `Authorization` value of the signed scheme, computed as the service verifies
 * it (libs/auth/src/domain/custom-auth.ts): keyed schemes sign
 * `<ClientId>:<UserId>:<Timestamp>` with HMAC under the APIHashKey; un-keyed ones hash
 * `<Key>:<ClientId>:<UserId>:<Timestamp>:<Key>`; the digest is Base64. The header is
 * `<scheme> Credential=<UserId>/<Timestamp> Signature=<Base64>`.
 */
export function signCustomAuth3(input: SignInput): string {
  const scheme = input.scheme ?? 'CUSTOMAUTH3-HMAC-SHA256';
  const keyed = scheme.startsWith('CUSTOMAUTH3-HMAC-');
  const algorithm = scheme.slice(scheme.lastIndexOf('-') + 1).toLowerCase();
  const userId = encodeURIComponent(input.userId);
  const timestamp = issuedTimestamp(input.issuedAt ?? new Date());
  const core = `${input.clientId}:${userId}:${timestamp}`;
  const digest = keyed
    ? createHmac(algorithm, input.apiHashKey).update(core, 'utf8').digest('base64')
    : createHash(algorithm)
        .update(`${input.apiHashKey}:${core}:${input.apiHashKey}`, 'utf8')
        .digest('base64');
  return `${scheme} Credential=${userId}/${timestamp} Signature=${digest}`;
}

export interface CustomAuth3Options {
  /** The client id signed when a path has no `{clientId}` (every tenant path has one). */
  clientId: string;
  userId: string;
  apiHashKey: string;
  scheme?: CustomAuthScheme;
  /**
   * How far back the issued time is set (default 5 s): the service refuses a timestamp
   * ahead of its clock, and a header stays valid for the tenant's window (15 min by default).
   */
  backdateMs?: number;
  now?: () => number;
}

export interface CustomAuth3 extends AuthMiddleware {
  readonly scheme: 'customauth3';
  /** The header for a path's client id, as the middleware sends it. */
  header(clientId?: string): string;
}

/**
 * CUSTOMAUTH3 authorization: signs every request with the tenant's APIHashKey. The signed
 * client id is the request's `{clientId}` path parameter (the service checks the signature
 * against the path), else `clientId`. No request to the service is needed first.
 */
export function customAuth3(options: CustomAuth3Options): CustomAuth3 {
  const now = options.now ?? (() => Date.now());
  const auth: CustomAuth3 = {
    scheme: 'customauth3',
    header(clientId = options.clientId) {
      return signCustomAuth3({
        scheme: options.scheme,
        clientId,
        userId: options.userId,
        apiHashKey: options.apiHashKey,
        issuedAt: new Date(now() - (options.backdateMs ?? 5000)),
      });
    },
    onRequest({ request, params }) {
      const fromPath = (params.path as Record<string, unknown> | undefined)?.clientId;
      const clientId = typeof fromPath === 'string' ? fromPath : options.clientId;
      request.headers.set('Authorization', auth.header(clientId));
      return request;
    },
  };
  return auth;
}
