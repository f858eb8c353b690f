import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError, TenantScopedModel, InjectTenantScoped } from '@app/shared';
import { randomBytes } from 'node:crypto';
import type { IdentifierKind } from '../domain/erased-identifiers';
import { ErasedIdentifier, ErasureSecret, ProfileErasure } from '../domain/profile-erasure.schema';
import { erasedIdentifierKey, erasureSecretKey, profileErasureKey } from '../keys';

/**
 * `profile_erasures` (the audit tombstones), `erased_identifiers` (their hashed identifiers,
 * one document per hash) and `erasure_secrets` (each client's hashing secret). Every
 * command is by `_id`; only the worker writes tombstones and identifiers, while it applies
 * an erasure under the profile's lease.
 */
@Injectable()
export class ProfileErasureRepository {
  constructor(
    @InjectTenantScoped(ProfileErasure)
    private readonly erasures: TenantScopedModel<ProfileErasure>,
    @InjectTenantScoped(ErasedIdentifier)
    private readonly identifiers: TenantScopedModel<ErasedIdentifier>,
    @InjectTenantScoped(ErasureSecret) private readonly secrets: TenantScopedModel<ErasureSecret>,
  ) {}

  /** The client's stored secret; made (32 random bytes) when `create` and there is none. */
  async secret(clientId: string, create: boolean): Promise<Buffer | null> {
    const _id = erasureSecretKey(clientId);
    for (let attempt = 0; attempt < 2; attempt++) {
      const found = await this.secrets.findById(_id).lean<ErasureSecret>().exec();
      if (found) return Buffer.from(found.secret, 'base64');
      if (!create) return null;
      try {
        await this.secrets.create({ _id, clientId, secret: randomBytes(32).toString('base64') });
      } catch (error) {
        // Another process made it first: read theirs.
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
    throw new Error(`the erasure secret of client ${clientId} could not be read`);
  }

  async tombstone(clientId: string, profileId: number): Promise<ProfileErasure | null> {
    return this.erasures
      .findById(profileErasureKey(clientId, profileId))
      .lean<ProfileErasure>()
      .exec();
  }

  /** Writes the tombstone; a retry keeps the first attempt's erasedAt. */
  async saveTombstone(erasure: Omit<ProfileErasure, '_id'>): Promise<void> {
    const _id = profileErasureKey(erasure.clientId, erasure.profileId);
    const earlier = await this.tombstone(erasure.clientId, erasure.profileId);
    await this.erasures.replaceOne(
      { _id },
      { ...erasure, _id, erasedAt: earlier?.erasedAt ?? erasure.erasedAt },
      { upsert: true },
    );
  }

  /** Records that `profileId` held the identifier of hash `hash` (idempotent). */
  async noteIdentifier(
    clientId: string,
    profileId: number,
    kind: IdentifierKind,
    hash: string,
    at: Date,
  ): Promise<void> {
    await this.identifiers.updateOne(
      { _id: erasedIdentifierKey(clientId, hash) },
      { $set: { clientId, kind, lastErasedAt: at }, $addToSet: { profileIds: profileId } },
      { upsert: true },
    );
  }

  async identifier(clientId: string, hash: string): Promise<ErasedIdentifier | null> {
    const found = await this.identifiers
      .findById(erasedIdentifierKey(clientId, hash))
      .lean<ErasedIdentifier>()
      .exec();
    return found?.clientId === clientId ? found : null;
  }
}
