import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { OAuthClient } from '../schemas/oauth-client.schema';

export interface OAuthClientRecord {
  oauthClientId: string;
  clientId: string;
  secretHash: string;
}

/** The `oauth_clients` collection. */
@Injectable()
export class OAuthClientRepository {
  constructor(@InjectModel(OAuthClient.name) private readonly model: Model<OAuthClient>) {}

  async findById(oauthClientId: string): Promise<OAuthClientRecord | null> {
    const doc = await this.model.findById(oauthClientId).lean<OAuthClient>().exec();
    return doc
      ? { oauthClientId: doc._id, clientId: doc.clientId, secretHash: doc.secretHash }
      : null;
  }

  /**
   * The OAuth clients of a tenant whose record predates its list of OAuth client ids: a
   * filter on `clientId` (no index: every document of the collection is read). Only the
   * admin's `show-client` and `rotate-secret --client-id` call it, once per such tenant.
   */
  async findIdsByClientIdScanning(clientId: string): Promise<string[]> {
    const docs = await this.model
      .find({ clientId }, { _id: 1 })
      .sort({ createdAt: 1 })
      .lean<Pick<OAuthClient, '_id'>[]>()
      .exec();
    return docs.map((doc) => doc._id);
  }

  /** Throws the engine's duplicate-key error (11000) when the id is taken. */
  async insert(record: OAuthClientRecord, now: Date): Promise<void> {
    await this.model.create({
      _id: record.oauthClientId,
      clientId: record.clientId,
      secretHash: record.secretHash,
      createdAt: now,
    });
  }

  /** False when the OAuth client does not exist. */
  async replaceSecret(oauthClientId: string, secretHash: string, now: Date): Promise<boolean> {
    const result = await this.model
      .updateOne({ _id: oauthClientId }, { $set: { secretHash, rotatedAt: now } })
      .exec();
    return result.matchedCount === 1;
  }
}
