import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import {
  ConfirmationLinkKeyDoc,
  GENERATED_CONFIRMATION_KEY_ID,
} from '../domain/confirmation-key.schema';

/**
 * The `confirmation_link_keys` collection (a global one: the deployment's key, no
 * tenant's), by `_id` only.
 */
@Injectable()
export class ConfirmationLinkKeyRepository {
  constructor(
    @InjectModel(ConfirmationLinkKeyDoc.name) private readonly keys: Model<ConfirmationLinkKeyDoc>,
  ) {}

  async findGenerated(): Promise<string | null> {
    const doc = await this.keys
      .findById(GENERATED_CONFIRMATION_KEY_ID)
      .lean<ConfirmationLinkKeyDoc>()
      .exec();
    return doc?.key ?? null;
  }

  /** Stores `key` unless one is there, and returns the one that is (the first insert wins). */
  async insertGeneratedIfAbsent(key: string, at: Date): Promise<string> {
    try {
      await this.keys.collection.insertOne({
        _id: GENERATED_CONFIRMATION_KEY_ID,
        key,
        createdAt: at,
      } as never);
      return key;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const stored = await this.findGenerated();
    if (!stored) throw new Error('the confirmation link key vanished after a duplicate insert');
    return stored;
  }
}
