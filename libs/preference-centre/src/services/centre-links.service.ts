import { createHmac, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '@app/shared';
import {
  type LinkClaims,
  linkParameters,
  type LinkPurpose,
  type LinkRefusal,
  verifyLink,
} from '../domain/link-token';
import { PreferenceCentreSettings } from '../preference-centre-settings';
import { CentreKeyRepository } from '../repositories/centre-key.repository';

/** Clients whose key this process keeps. */
const MAX_CACHED_KEYS = 10000;

/**
 * The clients' link keys and the links made and checked with them
 * (docs/preference-centre.md, "Links" and "Keys"). With PREFERENCE_CENTRE_SECRET set, a
 * client's key is HMAC-SHA-256(secret, clientId) and nothing is stored; without it, a
 * random key per client is inserted once in the engine (by `_id`, the first insert wins)
 * when the client's first link is made, and read by `_id` (then kept by the process) when
 * a link is checked. A public request never inserts a key.
 */
@Injectable()
export class CentreLinks {
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly settings: PreferenceCentreSettings,
    private readonly stored: CentreKeyRepository,
    private readonly clock: Clock,
  ) {}

  /** A link's query parameters for the profile, valid for `days`. */
  async sign(
    clientId: string,
    profileId: number,
    purpose: LinkPurpose,
    days: number,
  ): Promise<{ query: string; expiresAt: Date }> {
    const key = await this.keyOf(clientId, true);
    const expiresAt = Math.floor(this.clock.now().getTime() / 1000) + days * 24 * 3600;
    const claims: LinkClaims = { clientId, profileId, expiresAt, purpose };
    const query = new URLSearchParams({ ...linkParameters(claims, key!) }).toString();
    return { query, expiresAt: new Date(expiresAt * 1000) };
  }

  /** The claims of a link's parameters, or why it is refused. */
  async verify(
    clientId: string,
    parameters: Record<string, unknown>,
    purpose: 'page' | 'unsubscribe',
  ): Promise<{ claims: LinkClaims } | { refused: LinkRefusal }> {
    const key = await this.keyOf(clientId, false);
    return verifyLink(clientId, parameters, purpose, key, this.clock.now());
  }

  private async keyOf(clientId: string, create: boolean): Promise<Buffer | null> {
    if (this.settings.secret !== undefined)
      return createHmac('sha256', this.settings.secret).update(clientId).digest();
    const cached = this.keys.get(clientId);
    if (cached) return cached;
    let text = await this.stored.find(clientId);
    if (text === null && create)
      text = await this.stored.insertIfAbsent(
        clientId,
        randomBytes(32).toString('base64'),
        this.clock.now(),
      );
    if (text === null) return null;
    const key = Buffer.from(text, 'base64');
    if (this.keys.size >= MAX_CACHED_KEYS) this.keys.clear();
    this.keys.set(clientId, key);
    return key;
  }
}
