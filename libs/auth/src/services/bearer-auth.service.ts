import { Injectable } from '@nestjs/common';
import { type AccessTokenClaims, verifyAccessToken } from '../domain/access-token';
import { type Caller, callerOf, type TenantClient, type TenantUser } from '../domain/tenant';
import { bearerError } from '../auth-errors';
import { AuthCache } from './auth-cache.service';
import { AuthSettings } from '../auth-settings';

/** Verified tokens one process remembers before it starts over (bounded memory). */
const MAX_VERIFIED_TOKENS = 10000;

/**
 * Verifies a Bearer access token on each request: signature and expiry, not revoked, user
 * still active. Revocation, client and user come from the AuthCache, checked against the
 * stamps in Redis on every request, so a revocation or a deactivation applies from the next
 * request and a warm request touches no database.
 */
@Injectable()
export class BearerAuthService {
  /**
   * Tokens whose signature this process has verified, by their exact text: a client sends
   * the same token for up to an hour, and the signature check (HMAC, base64 and JSON
   * decoding) was a tenth of a GET's CPU. The expiry is still checked on every request;
   * revocation is checked after, through the stamps, as for a token verified afresh.
   */
  private readonly verified = new Map<string, AccessTokenClaims>();

  constructor(
    private readonly cache: AuthCache,
    private readonly settings: AuthSettings,
  ) {}

  /** The token's caller, or its 401; answered without a promise when warm (the usual case). */
  authenticate(token: string, now = Date.now()): Caller | Promise<Caller> {
    const { cid, sub, jti } = this.verify(token, now);
    // Warm: no promise, no Redis command.
    const warm = this.cache.warm(cid, sub, jti);
    if (warm) return this.admitted(warm);
    return this.lookUp(cid, sub, jti).then((found) => this.admitted(found));
  }

  /** The caller of a token neither revoked nor of an inactive user. */
  private admitted(found: {
    revoked: boolean;
    client: TenantClient | null;
    user: TenantUser | null;
  }): Caller {
    const realm = this.settings.authRealm;
    if (found.revoked) throw bearerError('revoked', realm);
    if (!found.client || !found.user || !found.user.isActive) throw bearerError('inactive', realm);
    return callerOf(found.client, found.user);
  }

  private async lookUp(
    cid: string,
    sub: string,
    jti: string,
  ): Promise<{ revoked: boolean; client: TenantClient | null; user: TenantUser | null }> {
    const stamps = await this.cache.stamps(cid);
    // Independent lookups: on a cache miss, one round trip of latency, not three.
    const [revoked, client, user] = await Promise.all([
      this.cache.isRevoked(jti, stamps),
      this.cache.client(cid, stamps),
      this.cache.user(cid, sub, stamps),
    ]);
    if (!stamps && !revoked && client && user?.isActive) await this.cache.establish(cid);
    return { revoked, client, user };
  }

  private verify(token: string, now: number): AccessTokenClaims {
    const realm = this.settings.authRealm;
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > now) return known;
      this.verified.delete(token);
      throw bearerError('expired', realm);
    }
    const verified = verifyAccessToken(token, this.settings.jwtSecret, { now });
    if (!verified.ok) throw bearerError(verified.reason, realm);
    if (this.verified.size >= MAX_VERIFIED_TOKENS) this.verified.clear();
    this.verified.set(token, verified.claims);
    return verified.claims;
  }
}
