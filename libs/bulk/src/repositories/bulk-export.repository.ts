import { Injectable } from '@nestjs/common';
import {
  acrossTenants,
  INT32_MAX,
  insertAtNextFreeNumber,
  TenantScopedModel,
  InjectTenantScoped,
} from '@app/shared';
import { BulkExport, BulkExportHint, BulkExportPage } from '../domain/bulk-export.schema';
import { exportKey, exportPageKey, exportTokenHintKey } from '../keys';

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

  /**
   * Stores a new export under the next access token of its client: the insert of
   * `<client>|<token>` (a unique `_id`) claims the token, as an import's is claimed.
   */
  async create(job: Omit<BulkExport, '_id' | 'accessToken'>): Promise<BulkExport> {
    const hintId = exportTokenHintKey(job.clientId);
    const hint = await this.hints.findById(hintId).lean<BulkExportHint>().exec();
    const doc = await insertAtNextFreeNumber(
      (hint?.last ?? 0) + 1,
      (token): BulkExport => ({ ...job, _id: exportKey(job.clientId, token), accessToken: token }),
      (claim) => this.exports.create(claim),
      INT32_MAX,
    );
    if (!doc) throw new Error(`Client ${job.clientId} has used every export access token`);
    // A lost hint update only makes the next claim probe further. `$max`: a concurrent
    // create's smaller token never lowers it (the records of old exports are removed, so
    // a probe from below could hand out a token a client still holds).
    await this.hints
      .updateOne(
        { _id: hintId },
        { $max: { last: doc.accessToken }, $setOnInsert: { clientId: job.clientId } },
        { upsert: true },
      )
      .exec();
    return doc;
  }

  /**
   * Every export of every tenant, by its key fields: a deliberate cross-tenant scan, only
   * for rebuilding the expiry schedule after Redis lost it (ExportExpiries.ensureBuilt).
   * Never on a request path.
   */
  async *crossTenantScanForScheduleRebuild(
    batchSize: number,
  ): AsyncIterable<{ clientId: string; accessToken: number }> {
    const cursor = this.exports
      .find(acrossTenants(), { clientId: 1, accessToken: 1 })
      .lean<BulkExport>()
      .batchSize(batchSize)
      .cursor();
    for await (const { clientId, accessToken } of cursor) yield { clientId, accessToken };
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
