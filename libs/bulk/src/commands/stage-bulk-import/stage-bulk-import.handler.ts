import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProfileWriteChecks } from '@app/profiles';
import { ConflictError, LeaseService } from '@app/shared';
import {
  acceptsStaging,
  appendToPages,
  chunkRecords,
  EXCEPTION_PAGE_SIZE,
  pageOf,
  sortStagedRecords,
} from '../../domain/bulk-import';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';
import { stageLeaseName } from '../../keys';
import { toBulkImportStatus } from '../../mapping/bulk-import.mapper';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { ImportAccess } from '../../services/import-access.service';
import { StageBulkImportCommand } from './stage-bulk-import.command';

/** A stage holds its import's lease at most this long (a dead api frees it by then). */
const STAGE_LEASE_MS = 60_000;

/**
 * Checks each record as a profile write's acceptance does (the records are checked as
 * merges: whether a record creates its profile is known when it is applied), stores the
 * valid ones in chunks and the refused ones as exception records, then the import's
 * counters. The stages of one import are serialized by a lease (a second one meanwhile:
 * 409); the import document is written last, so a stage that dies halfway changes nothing
 * a reader sees, and the next stage overwrites what it left.
 */
@CommandHandler(StageBulkImportCommand)
export class StageBulkImportHandler implements ICommandHandler<StageBulkImportCommand> {
  constructor(
    private readonly imports: BulkImportRepository,
    private readonly access: ImportAccess,
    private readonly checks: ProfileWriteChecks,
    private readonly lease: LeaseService,
  ) {}

  async execute(command: StageBulkImportCommand): Promise<BulkImportStatusDto> {
    const { clientId, accessToken } = command;
    await this.access.open(clientId, accessToken); // 404 or 401 before the lease
    const leaseName = stageLeaseName(clientId, accessToken);
    const token = await this.lease.acquire(leaseName, STAGE_LEASE_MS);
    if (!token) {
      throw new ConflictError(
        `Another Stage of AccessToken ${accessToken} is running; stage again when it has answered`,
      );
    }
    try {
      return await this.stage(command);
    } finally {
      await this.lease.release(leaseName, token);
    }
  }

  private async stage({
    clientId,
    accessToken,
    records,
    scope,
  }: StageBulkImportCommand): Promise<BulkImportStatusDto> {
    // Read again under the lease: the counters of the stage before are final.
    const job = await this.access.open(clientId, accessToken);
    if (!acceptsStaging(job)) {
      throw new ConflictError(
        `AccessToken ${accessToken} is ${job.status}: records can be staged only before Execute`,
      );
    }
    const check = await this.checks.checkerFor(clientId, 'merge', scope);
    const { staged, exceptions } = sortStagedRecords(job, records, check);

    const chunks = chunkRecords(staged);
    for (const [i, chunk] of chunks.entries()) {
      await this.imports.writeChunk(clientId, accessToken, job.chunks + i + 1, chunk);
    }
    // The stored part of a partly filled last page; a stage that died may have left more
    // records on it than the import counts: those are dropped.
    const onLastPage = job.exceptions % EXCEPTION_PAGE_SIZE;
    const lastPage =
      exceptions.length && onLastPage
        ? (await this.imports.exceptionPage(clientId, accessToken, pageOf(job.exceptions))).slice(
            0,
            onLastPage,
          )
        : [];
    for (const page of appendToPages(job.exceptions, lastPage, exceptions)) {
      await this.imports.writeExceptionPage(clientId, accessToken, page.page, page.records);
    }
    const saved = {
      ...job,
      status: 'Staging' as const,
      received: job.received + records.length,
      valid: job.valid + staged.length,
      invalid: job.invalid + exceptions.length,
      stages: job.stages + 1,
      chunks: job.chunks + chunks.length,
      exceptions: job.exceptions + exceptions.length,
    };
    await this.imports.save(saved);
    return toBulkImportStatus(saved);
  }
}
