import { Injectable } from '@nestjs/common';
import { InjectTenantScoped, TenantScopedModel } from '@app/shared';
import {
  BulkImport,
  BulkImportChunk,
  BulkImportExceptionPage,
  BulkImportHint,
  decodeStagedRecords,
  type StagedChunk,
  type StoredBulkException,
} from '../domain/bulk-import.schema';
import { appendToPages, EXCEPTION_PAGE_SIZE, pageOf } from '../domain/bulk-import';
import { exceptionPageKey, importChunkKey, importKey, importTokenHintKey } from '../keys';
import { claimNextToken, crossTenantJobKeys } from './job-tokens';

/**
 * The bulk import collections. Every access is by `_id` (an import by its token, its
 * chunks and exception pages by number), so no request scans a collection and each
 * import's staged data can be removed page by page when it ends.
 */
@Injectable()
export class BulkImportRepository {
  constructor(
    @InjectTenantScoped(BulkImportHint) private readonly hints: TenantScopedModel<BulkImportHint>,
    @InjectTenantScoped(BulkImport) private readonly imports: TenantScopedModel<BulkImport>,
    @InjectTenantScoped(BulkImportChunk)
    private readonly chunks: TenantScopedModel<BulkImportChunk>,
    @InjectTenantScoped(BulkImportExceptionPage)
    private readonly pages: TenantScopedModel<BulkImportExceptionPage>,
  ) {}

  /**
   * Stores a new import under the next access token of its client (claimNextToken), from
   * `hint` (read by Initiate for the daily limit), which then holds `initiated`.
   */
  create(
    job: Omit<BulkImport, '_id' | 'accessToken'>,
    hint: BulkImportHint | null,
    initiated: Date[],
  ): Promise<BulkImport> {
    return claimNextToken(
      { jobs: this.imports, hints: this.hints },
      { _id: importTokenHintKey(job.clientId), last: hint?.last },
      (token): BulkImport => ({ ...job, _id: importKey(job.clientId, token), accessToken: token }),
      { $set: { clientId: job.clientId, initiated } },
      `Client ${job.clientId} has used every access token`,
    );
  }

  /** The client's token hint and recent Initiates (`bulk_import_hints`, by `_id`). */
  hint(clientId: string): Promise<BulkImportHint | null> {
    return this.hints.findById(importTokenHintKey(clientId)).lean<BulkImportHint>().exec();
  }

  find(clientId: string, accessToken: number): Promise<BulkImport | null> {
    return this.imports.findById(importKey(clientId, accessToken)).lean<BulkImport>().exec();
  }

  /** Every import's key fields, across tenants: only for ImportRemovals.ensureBuilt. */
  crossTenantScanForScheduleRebuild(
    batchSize: number,
  ): AsyncIterable<{ clientId: string; accessToken: number }> {
    return crossTenantJobKeys(this.imports, batchSize);
  }

  /** Replaces the import (its counters and status) whole, by `_id`. */
  async save(job: BulkImport): Promise<void> {
    await this.imports.replaceOne({ _id: job._id }, job).exec();
  }

  /**
   * Writes chunk `chunk` of the import (replacing what a dead stage may have left there),
   * each record as its JSON text (`encodeStagedRecords`).
   */
  async writeChunk(
    clientId: string,
    accessToken: number,
    chunk: number,
    /** Each record's JSON text (encodeStagedRecords). */
    stored: string[],
  ): Promise<void> {
    const _id = importChunkKey(clientId, accessToken, chunk);
    await this.chunks
      .replaceOne({ _id }, { _id, clientId, accessToken, chunk, records: stored }, { upsert: true })
      .exec();
  }

  /** Chunk `chunk` with its records decoded (a chunk staged before the JSON text, as is). */
  async findChunk(
    clientId: string,
    accessToken: number,
    chunk: number,
  ): Promise<StagedChunk | null> {
    const doc = await this.chunks
      .findById(importChunkKey(clientId, accessToken, chunk))
      .lean<BulkImportChunk>()
      .exec();
    if (!doc) return null;
    return { ...doc, records: decodeStagedRecords(doc.records) };
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

  /**
   * Stores `added` exception records after the `count` the import holds: the partly filled
   * last page completed (records a dead writer left past `count` dropped), then new pages.
   * The caller saves the import's new count afterwards.
   */
  async appendExceptions(
    clientId: string,
    accessToken: number,
    count: number,
    added: StoredBulkException[],
  ): Promise<void> {
    if (!added.length) return;
    const onLastPage = count % EXCEPTION_PAGE_SIZE;
    const lastPage = onLastPage
      ? (await this.exceptionPage(clientId, accessToken, pageOf(count))).slice(0, onLastPage)
      : [];
    for (const page of appendToPages(count, lastPage, added)) {
      await this.writeExceptionPage(clientId, accessToken, page.page, page.records);
    }
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

  /** Deletes chunk `chunk` by `_id`; false when there was none. */
  async deleteChunk(clientId: string, accessToken: number, chunk: number): Promise<boolean> {
    const _id = importChunkKey(clientId, accessToken, chunk);
    return (await this.chunks.deleteOne({ _id }).exec()).deletedCount > 0;
  }

  /** Deletes exception page `page` by `_id`; false when there was none. */
  async deleteExceptionPage(clientId: string, accessToken: number, page: number): Promise<boolean> {
    const _id = exceptionPageKey(clientId, accessToken, page);
    return (await this.pages.deleteOne({ _id }).exec()).deletedCount > 0;
  }

  async delete(clientId: string, accessToken: number): Promise<void> {
    await this.imports.deleteOne({ _id: importKey(clientId, accessToken) }).exec();
  }
}
