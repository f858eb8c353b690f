import { Injectable } from '@nestjs/common';
import { InjectTenantScoped, TenantScopedModel } from '@app/shared';
import { BulkExport, BulkExportHint, BulkExportPage } from '../domain/bulk-export.schema';
import { exportKey, exportPageKey, exportTokenHintKey } from '../keys';
import { claimNextToken, crossTenantJobKeys } from './job-tokens';

/**
 * The bulk export collections. Every access is by `_id`: an export by its token, its pages
 * by number, so no request or run scans a collection and an export's pages are removed one
 * by one.
 */
@Injectable()
export class BulkExportRepository {
  constructor(
    @InjectTenantScoped(BulkExportHint) private readonly hints: TenantScopedModel<BulkExportHint>,
    @InjectTenantScoped(BulkExport) private readonly exports: TenantScopedModel<BulkExport>,
    @InjectTenantScoped(BulkExportPage) private readonly pages: TenantScopedModel<BulkExportPage>,
  ) {}

  /** Stores a new export under the next access token of its client (claimNextToken). */
  async create(job: Omit<BulkExport, '_id' | 'accessToken'>): Promise<BulkExport> {
    const hintId = exportTokenHintKey(job.clientId);
    const hint = await this.hints.findById(hintId).lean<BulkExportHint>().exec();
    return claimNextToken(
      { jobs: this.exports, hints: this.hints },
      { _id: hintId, last: hint?.last },
      (token): BulkExport => ({ ...job, _id: exportKey(job.clientId, token), accessToken: token }),
      { $setOnInsert: { clientId: job.clientId } },
      `Client ${job.clientId} has used every export access token`,
    );
  }

  /** Every export's key fields, across tenants: only for ExportExpiries.ensureBuilt. */
  crossTenantScanForScheduleRebuild(
    batchSize: number,
  ): AsyncIterable<{ clientId: string; accessToken: number }> {
    return crossTenantJobKeys(this.exports, batchSize);
  }

  find(clientId: string, accessToken: number): Promise<BulkExport | null> {
    return this.exports.findById(exportKey(clientId, accessToken)).lean<BulkExport>().exec();
  }

  /** Replaces the export whole, by `_id` (the run holding its lease, or a request on an ended one). */
  async save(job: BulkExport): Promise<void> {
    await this.exports.replaceOne({ _id: job._id }, job).exec();
  }

  /** Sets some fields of the export, by `_id` (the callback's outcome, the purge's end). */
  async update(
    job: Pick<BulkExport, '_id'>,
    fields: Partial<Omit<BulkExport, '_id'>>,
  ): Promise<void> {
    await this.exports.updateOne({ _id: job._id }, { $set: fields }).exec();
  }

  /** Removes the export's record, by `_id` (its pages are gone): its token is unknown then. */
  async remove(clientId: string, accessToken: number): Promise<void> {
    await this.exports.deleteOne({ _id: exportKey(clientId, accessToken) }).exec();
  }

  /** Writes page `page` (replacing what a run that died may have left there). */
  async writePage(clientId: string, accessToken: number, page: number, rows: string[]) {
    const _id = exportPageKey(clientId, accessToken, page);
    await this.pages
      .replaceOne({ _id }, { _id, clientId, accessToken, page, rows }, { upsert: true })
      .exec();
  }

  /** The rows of page `page` (null when it is not stored). */
  async pageRows(clientId: string, accessToken: number, page: number): Promise<string[] | null> {
    const doc = await this.pages
      .findById(exportPageKey(clientId, accessToken, page))
      .lean<BulkExportPage>()
      .exec();
    return doc?.rows ?? null;
  }

  /** Removes page `page`; false when it was not there. */
  async deletePage(clientId: string, accessToken: number, page: number): Promise<boolean> {
    const { deletedCount } = await this.pages
      .deleteOne({ _id: exportPageKey(clientId, accessToken, page) })
      .exec();
    return deletedCount > 0;
  }
}
