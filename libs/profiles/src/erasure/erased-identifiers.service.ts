import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { type Identifier, identifierHash } from '../domain/erased-identifiers';
import type { HashedIdentifier } from '../domain/profile-erasure.schema';
import { ProfileSettings } from '../profile-settings';
import { ProfileErasureRepository } from '../persistence/profile-erasure.repository';

/** One identifier found among the erased ones. */
export interface ErasedMatch {
  identifier: Identifier;
  /** The erased profiles that held it, ascending. */
  profileIds: number[];
  lastErasedAt: Date;
}

/**
 * The salted hashes of erased identifiers (docs/data-subject.md): HMAC-SHA-256 under the
 * client's secret (its stored `erasure_secrets` entry, mixed with ERASURE_HASH_PEPPER when
 * set). The secret is read once per process and client (it never changes).
 */
@Injectable()
export class ErasedIdentifiers {
  private readonly keys = new LRUCache<string, Buffer>({ max: 10_000 });

  constructor(
    private readonly repository: ProfileErasureRepository,
    private readonly settings: ProfileSettings,
  ) {}

  /** The hashes of `identifiers`, the secret made first when the client has none yet. */
  async hash(clientId: string, identifiers: Identifier[]): Promise<HashedIdentifier[]> {
    if (!identifiers.length) return [];
    const key = await this.keyOf(clientId, true);
    return identifiers.map((identifier) => ({
      kind: identifier.kind,
      hash: identifierHash(key!, identifier),
    }));
  }

  /**
   * Which of `identifiers` an erased profile of the client held: one `_id` read for the
   * secret (once per process) and one per identifier; none when the client never erased.
   */
  async matches(clientId: string, identifiers: Identifier[]): Promise<ErasedMatch[]> {
    if (!identifiers.length) return [];
    const key = await this.keyOf(clientId, false);
    if (!key) return [];
    const found = await Promise.all(
      identifiers.map((identifier) =>
        this.repository.identifier(clientId, identifierHash(key, identifier)),
      ),
    );
    return identifiers.flatMap((identifier, i) => {
      const doc = found[i];
      return doc
        ? [
            {
              identifier,
              profileIds: [...doc.profileIds].sort((a, b) => a - b),
              lastErasedAt: doc.lastErasedAt,
            },
          ]
        : [];
    });
  }

  private async keyOf(clientId: string, create: boolean): Promise<Buffer | null> {
    const known = this.keys.get(clientId);
    if (known) return known;
    const stored = await this.repository.secret(clientId, create);
    if (!stored) return null;
    const pepper = this.settings.erasureHashPepper;
    const key = pepper ? createHmac('sha256', pepper).update(stored).digest() : stored;
    this.keys.set(clientId, key);
    return key;
  }
}
