import { Injectable } from '@nestjs/common';
import { Settings } from '@app/shared';
import { verifyAccessToken } from '../domain/access-token';
import { groupOf, type Caller } from '../domain/tenant';
import { bearerError } from '../auth-errors';
import { AuthCache } from './auth-cache.service';

/**
 * Verifies a Bearer access token on each request: signature and expiry, not revoked, user
 * still active. Revocation, client and user come from the AuthCache, checked against the
 * stamps in Redis on every request, so a revocation or a deactivation applies from the next
 * request and a warm request touches no database.
 */
@Injectable()
export class BearerAuthService {
  constructor(
    private readonly cache: AuthCache,
    private readonly settings: Settings,
  ) {}

  async authenticate(token: string, now = Date.now()): Promise<Caller> {
    const realm = this.settings.authRealm;
    const verified = verifyAccessToken(token, this.settings.jwtSecret, { now });
    if (!verified.ok) throw bearerError(verified.reason, realm);
    const { cid, sub, jti } = verified.claims;

    const stamps = await this.cache.stamps(cid);
    // Independent lookups: on a cache miss, one round trip of latency, not three.
    const [revoked, client, user] = await Promise.all([
      this.cache.isRevoked(jti, stamps),
      this.cache.client(cid, stamps),
      this.cache.user(cid, sub, stamps),
    ]);
    if (revoked) throw bearerError('revoked', realm);
    if (!client || !user || !user.isActive) throw bearerError('inactive', realm);
    if (!stamps) await this.cache.establish(cid);

    return { clientId: client.clientId, userId: user.userId, group: groupOf(client, user.group) };
  }
}
