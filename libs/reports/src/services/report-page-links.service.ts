import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AuthSettings } from '@app/auth';
import { Clock } from '@app/shared';
import {
  type PageLinkClaims,
  pageLinkParameters,
  type PageLinkRefusal,
  verifyPageLink,
} from '../domain/page-link';
import { ReportsSettings } from '../reports-settings';

/**
 * Signs and checks the reporting page's links. The key is derived from JWT_SECRET (which
 * every api process shares) with a label of its own, so nothing is stored and no link
 * key can be used as a token key or the reverse; a client's links are bound to its id.
 */
@Injectable()
export class ReportPageLinks {
  private readonly key: Buffer;

  constructor(
    auth: AuthSettings,
    private readonly settings: ReportsSettings,
    private readonly clock: Clock,
  ) {
    this.key = createHmac('sha256', auth.jwtSecret).update('pcp reports page links v1').digest();
  }

  sign(clientId: string, userId: string): { query: string; expiresAt: Date } {
    const expiresAt =
      Math.floor(this.clock.now().getTime() / 1000) + this.settings.pageLinkMinutes * 60;
    const claims: PageLinkClaims = { clientId, userId, expiresAt };
    const query = new URLSearchParams(pageLinkParameters(claims, this.key)).toString();
    return { query, expiresAt: new Date(expiresAt * 1000) };
  }

  verify(
    clientId: string,
    parameters: Record<string, unknown>,
  ): { claims: PageLinkClaims } | { refused: PageLinkRefusal } {
    return verifyPageLink(clientId, parameters, this.key, this.clock.now());
  }
}
