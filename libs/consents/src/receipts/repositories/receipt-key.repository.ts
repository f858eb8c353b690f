import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { GENERATED_RECEIPT_KEY_ID, ReceiptSigningKeyDoc } from '../domain/receipt-key.schema';

/**
 * The `receipt_signing_keys` collection (a global one: the service's key, no tenant's), by
 * `_id` only.
 */
@Injectable()
export class ReceiptKeyRepository {
  constructor(
    @InjectModel(ReceiptSigningKeyDoc.name) private readonly keys: Model<ReceiptSigningKeyDoc>,
  ) {}

  /** The generated key's PEM, if one was stored. */
  async findGenerated(): Promise<string | null> {
    const doc = await this.keys
      .findById(GENERATED_RECEIPT_KEY_ID)
      .lean<ReceiptSigningKeyDoc>()
      .exec();
    return doc?.privateKey ?? null;
  }

  /**
   * Stores `privateKey` as the generated key unless one is there, and returns the one that
   * is: of two processes generating at once, both end up with the first insert's key.
   */
  async insertGeneratedIfAbsent(privateKey: string, at: Date): Promise<string> {
    try {
      await this.keys.collection.insertOne({
        _id: GENERATED_RECEIPT_KEY_ID,
        privateKey,
        createdAt: at,
      } as never);
      return privateKey;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const stored = await this.findGenerated();
    if (!stored) throw new Error('the generated receipt key vanished after a duplicate insert');
    return stored;
  }
}
