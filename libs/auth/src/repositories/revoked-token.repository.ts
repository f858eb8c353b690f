import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { RevokedToken } from '../schemas/revoked-token.schema';

/** The `revoked_tokens` collection, keyed by jti. */
@Injectable()
export class RevokedTokenRepository {
  constructor(@InjectModel(RevokedToken.name) private readonly model: Model<RevokedToken>) {}

  async isRevoked(jti: string): Promise<boolean> {
    const doc = await this.model.findById(jti, { _id: 1 }).lean().exec();
    return doc !== null;
  }

  /**
   * Idempotent: revoking twice keeps the first entry. Also purges entries of tokens that
   * have expired anyway (revocations are rare, so the list stays short without a TTL index).
   */
  async revoke(jti: string, expiresAt: Date, now = new Date()): Promise<void> {
    try {
      await this.model.create({ _id: jti, expiresAt });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    await this.model.deleteMany({ expiresAt: { $lt: now } }).exec();
  }
}
