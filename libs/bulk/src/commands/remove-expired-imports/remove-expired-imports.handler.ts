import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { JobCounts } from '@app/shared';
import {
  EXCEPTION_PAGE_SIZE,
  IMPORT_RECORD_KEPT_MS,
  isRunning,
  readableUntil,
} from '../../domain/bulk-import';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { type DueRemoval, ImportRemovals } from '../../services/import-removals.service';
import { RemoveExpiredImportsCommand } from './remove-expired-imports.command';

/**
 * Removes what imports past their kept time stored, by `_id` only: first their staged
 * chunks and exception pages (at readableUntil: Expires for an import never executed,
 * DataStageDuration days after the end for one that ran), numbered from 1 on until an
 * `_id` is missing (which also takes what a stage that died left past the counts); the
 * import document, which keeps answering 401, IMPORT_RECORD_KEPT_MS later (then 404). A
 * running import is left alone: its run schedules it again when it ends.
 */
@CommandHandler(RemoveExpiredImportsCommand)
export class RemoveExpiredImportsHandler implements ICommandHandler<RemoveExpiredImportsCommand> {
  constructor(
    private readonly imports: BulkImportRepository,
    private readonly removals: ImportRemovals,
  ) {}

  async execute({ maxPages }: RemoveExpiredImportsCommand): Promise<JobCounts> {
    const counts = { imports: 0, chunks: 0, pages: 0, records: 0, rescheduled: 0 };
    counts.rescheduled = await this.removals.sweep(maxPages, (token, now) =>
      this.removeDue(token, now, counts),
    );
    return counts;
  }

  private async removeDue(
    { clientId, accessToken }: DueRemoval,
    now: Date,
    counts: { imports: number; chunks: number; pages: number; records: number },
  ): Promise<void> {
    const job = await this.imports.find(clientId, accessToken);
    if (!job || isRunning(job)) {
      await this.removals.unschedule(clientId, accessToken);
      return;
    }
    const until = readableUntil(job)!;
    if (now < until) {
      await this.removals.schedule(clientId, accessToken, until);
      return;
    }
    if (!job.dataRemovedAt) {
      counts.chunks += await removeNumbered(
        (c) => this.imports.deleteChunk(clientId, accessToken, c),
        job.chunks,
      );
      counts.pages += await removeNumbered(
        (p) => this.imports.deleteExceptionPage(clientId, accessToken, p),
        Math.ceil(job.exceptions / EXCEPTION_PAGE_SIZE),
      );
      await this.imports.save({ ...job, dataRemovedAt: now });
      await this.removals.schedule(
        clientId,
        accessToken,
        new Date(now.getTime() + IMPORT_RECORD_KEPT_MS),
      );
      counts.imports++;
      return;
    }
    // Due early (a rebuilt schedule): the record stays its kept time after its data.
    const removeAt = new Date(job.dataRemovedAt.getTime() + IMPORT_RECORD_KEPT_MS);
    if (now < removeAt) {
      await this.removals.schedule(clientId, accessToken, removeAt);
      return;
    }
    await this.imports.delete(clientId, accessToken);
    await this.removals.unschedule(clientId, accessToken);
    counts.records++;
  }
}

/**
 * Deletes documents 1, 2, ... by `_id`: all of the `counted` ones, and on past them while
 * one is found (what a writer that died left beyond the counts). Returns how many existed.
 */
async function removeNumbered(
  remove: (n: number) => Promise<boolean>,
  counted: number,
): Promise<number> {
  let removed = 0;
  for (let n = 1; ; n++) {
    if (await remove(n)) removed++;
    else if (n > counted) return removed;
  }
}
