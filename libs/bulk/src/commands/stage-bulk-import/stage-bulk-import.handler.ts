import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProfileWriteChecks } from '@app/profiles';
import { ConflictError, LeaseService } from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import {
  acceptsStaging,
  CHECK_SLICE,
  chunkRecords,
  type RecordException,
  sortStagedRecords,
  type StagedBody,
} from '../../domain/bulk-import';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';
import { stageLeaseName } from '../../keys';
import { toBulkImportStatus } from '../../mapping/bulk-import.mapper';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { ImportAccess } from '../../services/import-access.service';
import { ImportRemovals } from '../../services/import-removals.service';
import { StageBulkImportCommand } from './stage-bulk-import.command';

/** A stage's lease outlives its deadline by this much (a dead api frees it after both). */
const STAGE_LEASE_MARGIN_MS = 30_000;

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
    private readonly settings: BulkSettings,
    private readonly removals: ImportRemovals,
  ) {}

  async execute(command: StageBulkImportCommand): Promise<BulkImportStatusDto> {
    const { clientId, accessToken } = command;
    await this.access.open(clientId, accessToken); // 404 or 401 before the lease
    const leaseName = stageLeaseName(clientId, accessToken);
    const token = await this.lease.acquire(
      leaseName,
      this.settings.stageDeadlineMs + STAGE_LEASE_MARGIN_MS,
    );
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
    // Checking a full profile takes milliseconds of CPU: a slice at a time, yielding between
    // slices, so a stage of a thousand records does not hold the api's other requests.
    const staged: StagedBody[] = [];
    const exceptions: RecordException[] = [];
    for (let from = 0; from < records.length; from += CHECK_SLICE) {
      const slice = sortStagedRecords(job, records.slice(from, from + CHECK_SLICE), check, from);
      staged.push(...slice.staged);
      exceptions.push(...slice.exceptions);
      await new Promise((resolve) => setImmediate(resolve));
    }

    const chunks = chunkRecords(staged);
    for (const [i, chunk] of chunks.entries()) {
      await this.imports.writeChunk(clientId, accessToken, job.chunks + i + 1, chunk);
    }
    await this.imports.appendExceptions(clientId, accessToken, job.exceptions, exceptions);
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
    await this.removals.schedule(clientId, accessToken, saved.expiresAt);
    return toBulkImportStatus(saved);
  }
}
