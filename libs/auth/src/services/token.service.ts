import { Injectable } from '@nestjs/common';
import { issueAccessToken } from '../domain/access-token';
import {
  hashSecret,
  isLegacySecretHash,
  OAUTH_CLIENT_ID_LENGTH,
  verifySecret,
} from '../domain/secrets';
import {
  checkTokenRequestShape,
  decideTokenRequest,
  parseScope,
  readTokenRequest,
  TOKEN_ERRORS,
} from '../domain/token-request';
import { tokenRequestError } from '../auth-errors';
import {
  OAuthClientRepository,
  type OAuthClientRecord,
} from '../repositories/oauth-client.repository';
import { AuthCache } from './auth-cache.service';
import { TokenThrottle } from './token-throttle.service';
import { AuthSettings } from '../auth-settings';

/** Verified secrets one process remembers before it starts over (bounded memory). */
const MAX_VERIFIED_SECRETS = 10000;

/** The body of a successful token response. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/**
 * The OAuth 2.0 client-credentials grant (`POST /oauth2/v1/token`). No refresh tokens. The
 * OAuth client, tenant and user come from the AuthCache (no database command when warm),
 * the secret is checked with a fast keyed hash (domain/secrets.ts), and repeated failures
 * of one client id are throttled (TokenThrottle).
 */
@Injectable()
export class TokenService {
  /**
   * The stored hash each OAuth client id's secret, as presented, was last verified against
   * (bounded, like the verified bearer tokens): a client asks for a token with the same
   * secret again and again, and the keyed hash (an HMAC object per request) was a tenth of
   * the token endpoint's CPU. Valid only while the client's stored hash is that one (a
   * rotated secret is checked afresh); a wrong secret is never remembered.
   */
  private readonly verifiedSecrets = new Map<string, string>();

  constructor(
    private readonly cache: AuthCache,
    private readonly oauthClients: OAuthClientRepository,
    private readonly throttle: TokenThrottle,
    private readonly settings: AuthSettings,
  ) {}

  /** A token, or an ApiError (400, `{error, error_description, Message}`). */
  async issue(
    body: unknown,
    authorization: string | undefined,
    now = Date.now(),
    address = 'unknown',
  ): Promise<TokenResponse> {
    const request = readTokenRequest(body, authorization);
    const shapeError = checkTokenRequestShape(request);
    if (shapeError) throw tokenRequestError(shapeError);
    await this.throttle.checkAddress(address);

    const oauthClientId = request.clientId ?? '';
    // The failure count is read with the tenant's stamps (one Redis command for both).
    const found =
      oauthClientId.length === OAUTH_CLIENT_ID_LENGTH
        ? await this.cache.oauthClient(oauthClientId, this.throttle.keyOf(oauthClientId))
        : { record: null, stamps: null, failures: undefined };
    await this.throttle.check(oauthClientId, found.failures);
    const oauthClient = found.record;
    const secretValid =
      oauthClient !== null && request.clientSecret !== undefined
        ? await this.secretMatches(oauthClient, request.clientSecret)
        : false;
    if (oauthClient && secretValid && isLegacySecretHash(oauthClient.secretHash)) {
      await this.rehash(oauthClient.oauthClientId, oauthClient.clientId, request.clientSecret!);
    }

    const scope = parseScope(request.scope);
    const lookUpUser =
      oauthClient !== null &&
      secretValid &&
      scope !== null &&
      scope.clientId === oauthClient.clientId;
    const stamps = lookUpUser ? found.stamps : null;
    const client = lookUpUser ? await this.cache.client(oauthClient.clientId, stamps) : null;
    const user =
      client && scope ? await this.cache.user(client.clientId, scope.userId, stamps) : null;

    const error = decideTokenRequest(request, {
      oauthClientTenant: oauthClient?.clientId ?? null,
      secretValid,
      userActive: user?.isActive === true,
    });
    if (error) {
      // Only a failed client authentication counts towards the throttle.
      if (error.error === 'invalid_client' && oauthClientId)
        await this.throttle.failed(oauthClientId, address);
      throw tokenRequestError(error);
    }
    if (!stamps && client) await this.cache.establish(client.clientId);
    // decideTokenRequest granted, so these are set; the check keeps the types honest.
    if (!client || !user || !request.scope) throw tokenRequestError(TOKEN_ERRORS.accessDenied);

    const lifetime = client.tokenLifetimeSeconds;
    const { token } = issueAccessToken({
      secret: this.settings.jwtSecret,
      clientId: client.clientId,
      userId: user.userId,
      scope: request.scope,
      lifetimeSeconds: lifetime,
      now,
    });
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: lifetime,
      scope: request.scope,
    };
  }

  private async secretMatches(client: OAuthClientRecord, secret: string): Promise<boolean> {
    const key = `${client.oauthClientId}\n${secret}`;
    if (this.verifiedSecrets.get(key) === client.secretHash) return true;
    const valid = await verifySecret(secret, client.secretHash);
    if (valid) {
      if (this.verifiedSecrets.size >= MAX_VERIFIED_SECRETS) this.verifiedSecrets.clear();
      this.verifiedSecrets.set(key, client.secretHash);
    }
    return valid;
  }

  /**
   * A secret stored by an earlier version as a scrypt hash, just verified: stored again as
   * the fast keyed hash, so the slow check runs once per secret.
   */
  private async rehash(oauthClientId: string, clientId: string, secret: string): Promise<void> {
    await this.oauthClients.replaceSecret(oauthClientId, hashSecret(secret), new Date());
    // Caches still holding the scrypt hash stay correct (it verifies too), only slower.
    await this.cache.changed(clientId).catch(() => undefined);
  }
}
