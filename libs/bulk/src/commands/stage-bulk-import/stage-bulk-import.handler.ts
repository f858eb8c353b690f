import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProfileWriteChecks } from '@app/profiles';
import { ConflictError } from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import {
  acceptsStaging,
  CHECK_SLICE,
  CHUNK_MAX_CHARS,
  CHUNK_MAX_RECORDS,
  checkReadable,
  chunkRecords,
  EXCEPTION_PAGE_SIZE,
  type RecordException,
  sortStagedRecords,
} from '../../domain/bulk-import';
import { encodeStagedRecords } from '../../domain/bulk-import.schema';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';
import { toBulkImportStatus } from '../../mapping/bulk-import.mapper';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { ImportAccess } from '../../services/import-access.service';
import { ImportRemovals } from '../../services/import-removals.service';
import { StageLease } from '../../services/stage-lease.service';
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
    private readonly stageLease: StageLease,
    private readonly settings: BulkSettings,
    private readonly removals: ImportRemovals,
  ) {}

  async execute(command: StageBulkImportCommand): Promise<BulkImportStatusDto> {
    const { clientId, accessToken } = command;
    await this.access.open(clientId, accessToken); // 404 or 401 before the lease
    return this.stageLease.hold(
      clientId,
      accessToken,
      this.settings.stageDeadlineMs + STAGE_LEASE_MARGIN_MS,
      `Another Stage of AccessToken ${accessToken} is running; stage again when it has answered`,
      () => this.stage(command),
    );
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
    const check = checkReadable(
      await this.checks.checkerFor(clientId, 'merge', scope, undefined, true),
    );
    // Records arrive as an array or a stream (NDJSON): checked a slice at a time (a full
    // profile takes milliseconds of CPU; the event loop turns between slices, so other
    // requests run), staged records written a chunk at a time as chunks fill, exception
    // records a page's worth at a time: never the whole stage in memory.
    let received = 0;
    let chunks = job.chunks;
    let exceptions = job.exceptions;
    let valid = 0;
    // The staged records as their stored JSON text, encoded once (sized and written as is).
    let staged: string[] = [];
    let refused: RecordException[] = [];
    let slice: unknown[] = [];
    const sortSlice = async () => {
      const sorted = sortStagedRecords(job, slice, check, received);
      received += slice.length;
      slice = [];
      staged.push(...encodeStagedRecords(sorted.staged));
      valid += sorted.staged.length;
      refused.push(...sorted.exceptions);
      await new Promise((resolve) => setImmediate(resolve));
    };
    // One chunk write at a time, left running while the next slice is checked (the engine
    // writes while this process checks); its outcome is awaited before the next write.
    let writing: Promise<Error | null> = Promise.resolve(null);
    const written = async () => {
      const failure = await writing;
      if (failure) throw failure;
    };
    const flush = async (final: boolean) => {
      const filled = chunkRecords(
        staged,
        CHUNK_MAX_RECORDS,
        CHUNK_MAX_CHARS,
        (text) => text.length,
      );
      // The last chunk may fill further, unless the records ended.
      const ready = final ? filled : filled.slice(0, -1);
      for (const chunk of ready) {
        await written();
        writing = this.imports.writeChunk(clientId, accessToken, ++chunks, chunk).then(
          () => null,
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
      }
      staged = final ? [] : (filled.at(-1) ?? []);
      if (final) await written();
      if (final || refused.length >= EXCEPTION_PAGE_SIZE) {
        await this.imports.appendExceptions(clientId, accessToken, exceptions, refused);
        exceptions += refused.length;
        refused = [];
      }
    };
    for await (const record of records) {
      slice.push(record);
      if (slice.length < CHECK_SLICE) continue;
      await sortSlice();
      await flush(false);
    }
    if (slice.length) await sortSlice();
    await flush(true);
    const saved = {
      ...job,
      status: 'Staging' as const,
      received: job.received + received,
      valid: job.valid + valid,
      invalid: job.invalid + (exceptions - job.exceptions),
      stages: job.stages + 1,
      chunks,
      exceptions,
    };
    await this.imports.save(saved);
    await this.removals.schedule(clientId, accessToken, saved.expiresAt);
    return toBulkImportStatus(saved);
  }
}
