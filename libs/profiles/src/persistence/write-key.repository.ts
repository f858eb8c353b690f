import { Injectable, Logger } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { isDuplicateKeyError, type TenantKey, tenantKey } from '@app/shared';
import type { Collection } from 'mongodb';
import type { Connection } from 'mongoose';
import type { CommittedAnswer, StoredKeyAnswer } from '@app/shared';

const PREFIX = 'profile_write_keys_';

/** One run of a request under its `Idempotency-Key`: claimed by insert, so each is run once. */
export interface KeyAttemptDoc {
  _id: TenantKey;
  fingerprint: string;
  startedAt: Date;
  /** How long its request could still commit (its deadline plus a margin for clocks). */
  windowMs: number;
}

/** How an attempt ended: committed (its write counts) or void (it never will). Inserted once. */
export interface KeyFateDoc {
  _id: TenantKey;
  outcome: 'committed' | 'void';
  at: Date;
  /** The committed write's profile (an erasure forgets the answers that name it). */
  clientId?: string;
  profileId?: number;
  /** The committed write's `_id`. */
  writeId?: string;
  /** The answer of a committed write whose request died before answering (202). */
  accepted?: CommittedAnswer;
  /** The answer sent, once sent. */
  answer?: StoredKeyAnswer;
}

/**
 * The records of `Idempotency-Key` attempts, in collections per period of
 * IDEMPOTENCY_TTL_SECONDS (`profile_write_keys_<n>`): a key is looked up in the current and
 * the previous period, and a period older than that is dropped whole, so nothing scans and
 * the records do not grow without bound (the embedded engine has no TTL index). Every
 * command addresses one document by `_id`.
 */
@Injectable()
export class WriteKeyRepository {
  private readonly logger = new Logger('WriteKeyRepository');
  /** The newest period whose older periods this process dropped. */
  private prunedBefore = -1;

  constructor(@InjectConnection() private readonly connection: Connection) {}

  attemptId(clientId: string, key: string, attempt: number): TenantKey {
    return tenantKey(clientId, 'key-attempt', attempt, key);
  }

  fateId(clientId: string, key: string, attempt: number): TenantKey {
    return tenantKey(clientId, 'key-fate', attempt, key);
  }

  findAttempt(bucket: number, id: TenantKey): Promise<KeyAttemptDoc | null> {
    return this.collection<KeyAttemptDoc>(bucket).findOne({ _id: id });
  }

  findFate(bucket: number, id: TenantKey): Promise<KeyFateDoc | null> {
    return this.collection<KeyFateDoc>(bucket).findOne({ _id: id });
  }

  /** True when inserted; false when the `_id` was taken (another claimed it first). */
  async insert<T extends KeyAttemptDoc | KeyFateDoc>(bucket: number, doc: T): Promise<boolean> {
    try {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the driver's OptionalId typing
      await this.collection<T>(bucket).insertOne(doc as any);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** The answer sent for a committed attempt (its only writer is the request that committed). */
  async keepAnswer(bucket: number, id: TenantKey, answer: StoredKeyAnswer): Promise<void> {
    await this.collection<KeyFateDoc>(bucket).updateOne({ _id: id }, { $set: { answer } });
  }

  /**
   * Deletes the committed fates (and their kept answers) of one profile in the current and
   * the previous period: a filter on fields, so a scan of both collections (an erasure only,
   * never a request's path). Returns how many went.
   */
  async forgetProfile(bucket: number, clientId: string, profileId: number): Promise<number> {
    let forgotten = 0;
    for (const period of [bucket, bucket - 1]) {
      const { deletedCount } = await this.collection<KeyFateDoc>(period).deleteMany({
        clientId,
        profileId,
      });
      forgotten += deletedCount;
    }
    return forgotten;
  }

  /** Drops the periods before `bucket - 1` (once per period and process). */
  async prune(bucket: number): Promise<void> {
    if (this.prunedBefore >= bucket) return;
    this.prunedBefore = bucket;
    try {
      const names = await this.connection.db!.listCollections({}, { nameOnly: true }).toArray();
      for (const { name } of names) {
        const n = name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length)) : NaN;
        if (Number.isInteger(n) && n < bucket - 1) await this.connection.db!.dropCollection(name);
      }
    } catch (error) {
      this.logger.warn(`could not drop old Idempotency-Key periods: ${String(error)}`);
    }
  }

  private collection<T extends { _id: TenantKey }>(bucket: number): Collection<T> {
    return this.connection.db!.collection<T>(`${PREFIX}${bucket}`);
  }
}
