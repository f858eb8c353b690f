import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { INT32_MAX, isDuplicateKeyError, TenantScopedModel } from '@app/shared';
import type { Model } from 'mongoose';
import {
  BulkImport,
  BulkImportChunk,
  BulkImportExceptionPage,
  BulkImportHint,
  type StagedRecord,
  type StoredBulkException,
} from '../domain/bulk-import.schema';
import { exceptionPageKey, importChunkKey, importKey, importTokenHintKey } from '../keys';

/**
 * The bulk import collections. Every access is by `_id` (an import by its token, its
 * chunks and exception pages by number), so no request scans a collection and each
 * import's staged data can be removed page by page when it ends.
 */
@Injectable()
export class BulkImportRepository {
  private readonly hints: TenantScopedModel<BulkImportHint>;
  private readonly imports: TenantScopedModel<BulkImport>;
  private readonly chunks: TenantScopedModel<BulkImportChunk>;
  private readonly pages: TenantScopedModel<BulkImportExceptionPage>;

  constructor(
    @InjectModel(BulkImportHint.name) hints: Model<BulkImportHint>,
    @InjectModel(BulkImport.name) imports: Model<BulkImport>,
    @InjectModel(BulkImportChunk.name) chunks: Model<BulkImportChunk>,
    @InjectModel(BulkImportExceptionPage.name) pages: Model<BulkImportExceptionPage>,
  ) {
    this.hints = new TenantScopedModel(hints);
    this.imports = new TenantScopedModel(imports);
    this.chunks = new TenantScopedModel(chunks);
    this.pages = new TenantScopedModel(pages);
  }

  /**
   * Stores a new import under the next access token of its client: the insert of
   * `<client>|<token>` (a unique `_id`) claims the token, as a profile id is claimed; the
   * hint only says where to start probing.
   */
  async create(job: Omit<BulkImport, '_id' | 'accessToken'>): Promise<BulkImport> {
    const hintId = importTokenHintKey(job.clientId);
    const hint = await this.hints.findById(hintId).lean<BulkImportHint>().exec();
    for (let token = (hint?.last ?? 0) + 1; token <= INT32_MAX; token++) {
      const doc: BulkImport = { ...job, _id: importKey(job.clientId, token), accessToken: token };
      try {
        await this.imports.create(doc);
      } catch (error) {
        if (isDuplicateKeyError(error)) continue;
        throw error;
      }
      // A lost hint update only makes the next claim probe further.
      await this.hints
        .replaceOne(
          { _id: hintId },
          { _id: hintId, clientId: job.clientId, last: token },
          { upsert: true },
        )
        .exec();
      return doc;
    }
    throw new Error(`Client ${job.clientId} has used every access token`);
  }

  find(clientId: string, accessToken: number): Promise<BulkImport | null> {
    return this.imports.findById(importKey(clientId, accessToken)).lean<BulkImport>().exec();
  }

  /** Replaces the import (its counters and status) whole, by `_id`. */
  async save(job: BulkImport): Promise<void> {
    await this.imports.replaceOne({ _id: job._id }, job).exec();
  }

  /** Writes chunk `chunk` of the import (replacing what a dead stage may have left there). */
  async writeChunk(
    clientId: string,
    accessToken: number,
    chunk: number,
    records: StagedRecord[],
  ): Promise<void> {
    const _id = importChunkKey(clientId, accessToken, chunk);
    await this.chunks
      .replaceOne({ _id }, { _id, clientId, accessToken, chunk, records }, { upsert: true })
      .exec();
  }

  findChunk(clientId: string, accessToken: number, chunk: number): Promise<BulkImportChunk | null> {
    return this.chunks
      .findById(importChunkKey(clientId, accessToken, chunk))
      .lean<BulkImportChunk>()
      .exec();
  }

  /** The stored records of exception page `page` ([] when it is not there). */
  async exceptionPage(
    clientId: string,
    accessToken: number,
    page: number,
  ): Promise<StoredBulkException[]> {
    const doc = await this.pages
      .findById(exceptionPageKey(clientId, accessToken, page))
      .lean<BulkImportExceptionPage>()
      .exec();
    return doc?.records ?? [];
  }

  async writeExceptionPage(
    clientId: string,
    accessToken: number,
    page: number,
    records: StoredBulkException[],
  ): Promise<void> {
    const _id = exceptionPageKey(clientId, accessToken, page);
    await this.pages
      .replaceOne({ _id }, { _id, clientId, accessToken, page, records }, { upsert: true })
      .exec();
  }
}
