import { Injectable } from '@nestjs/common';
import { Settings } from '@app/shared';
import { verifyAccessToken } from '../domain/access-token';
import { groupOf, type Caller } from '../domain/tenant';
import { bearerError } from '../auth-errors';
import { ClientRepository } from '../repositories/client.repository';
import { RevokedTokenRepository } from '../repositories/revoked-token.repository';
import { UserRepository } from '../repositories/user.repository';

/**
 * Verifies a Bearer access token on each request: signature and expiry, not revoked
 * (looked up every time, so a revocation takes effect at once), user still active.
 */
@Injectable()
export class BearerAuthService {
  constructor(
    private readonly clients: ClientRepository,
    private readonly users: UserRepository,
    private readonly revoked: RevokedTokenRepository,
    private readonly settings: Settings,
  ) {}

  async authenticate(token: string, now = Date.now()): Promise<Caller> {
    const realm = this.settings.authRealm;
    const verified = verifyAccessToken(token, this.settings.jwtSecret, { now });
    if (!verified.ok) throw bearerError(verified.reason, realm);
    const { cid, sub, jti } = verified.claims;

    // The three lookups are independent: one round trip of latency, not three.
    const [revoked, client, user] = await Promise.all([
      this.revoked.isRevoked(jti),
      this.clients.findById(cid),
      this.users.find(cid, sub),
    ]);
    if (revoked) throw bearerError('revoked', realm);
    if (!client || !user || !user.isActive) throw bearerError('inactive', realm);

    return { clientId: client.clientId, userId: user.userId, group: groupOf(client, user.group) };
  }
}
