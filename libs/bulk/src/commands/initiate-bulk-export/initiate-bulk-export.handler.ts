import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProfileWriteChecks } from '@app/profiles';
import { Clock, InvalidInputError, JobQueue } from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import { callbackUrlProblem } from '../../domain/bulk-export';
import type { BulkExportStatusDto, InitiateBulkExportDto } from '../../dto/bulk-export.dto';
import { toBulkExportStatus } from '../../mapping/bulk-export.mapper';
import { BulkExportRepository } from '../../repositories/bulk-export.repository';
import { ExportExpiries } from '../../services/export-expiries.service';
import { RUN_BULK_EXPORT } from '../../worker/bulk.job-definitions';
import { InitiateBulkExportCommand } from './initiate-bulk-export.command';

/**
 * Checks what the DTO cannot (MatchType against MatchCriteria and the configuration, the
 * CallbackURL's scheme), claims the export's token and queues its first run in the bulk
 * lane. The export is stored before the job is queued: an api that dies in between leaves
 * an export without a job, which the next read of its status queues (ExportAccess).
 */
@CommandHandler(InitiateBulkExportCommand)
export class InitiateBulkExportHandler implements ICommandHandler<InitiateBulkExportCommand> {
  constructor(
    private readonly exports: BulkExportRepository,
    private readonly checks: ProfileWriteChecks,
    private readonly queue: JobQueue,
    private readonly settings: BulkSettings,
    private readonly clock: Clock,
    private readonly expiries: ExportExpiries,
  ) {}

  async execute({
    clientId,
    userId,
    scope,
    body,
  }: InitiateBulkExportCommand): Promise<BulkExportStatusDto> {
    await this.check(clientId, body);
    const now = this.clock.now();
    const job = await this.exports.create({
      clientId,
      segmentName: body.SegmentName ?? null,
      lastDateTime: body.LastDateTime ? new Date(body.LastDateTime) : null,
      matchCriteria: body.MatchCriteria ?? null,
      matchType: body.MatchCriteria === 'AlternateID' ? body.MatchType! : null,
      callbackUrl: body.CallbackURL ?? null,
      callbackStatus: null,
      status: 'Processing',
      createdAt: now,
      createdBy: userId,
      ...(scope ? { scope } : {}),
      expiresAt: new Date(now.getTime() + this.settings.exportTtlMs),
      nextProfileId: 1,
      pageRows: [],
      rowCount: 0,
      byteCount: 0,
      runs: 0,
      progressAt: now,
      failures: 0,
    });
    await this.queue.enqueue(
      RUN_BULK_EXPORT,
      { clientId, accessToken: job.accessToken, run: 1 },
      { lane: 'bulk' },
    );
    // The sweep looks again while it is built (a run lost is queued again), then at Expires.
    await this.expiries.schedule(clientId, job.accessToken, job.expiresAt);
    return toBulkExportStatus(job);
  }

  private async check(clientId: string, body: InitiateBulkExportDto): Promise<void> {
    const shown = (value: unknown) => (value === undefined ? 'missing' : JSON.stringify(value));
    if (body.MatchCriteria === 'AlternateID') {
      if (!body.MatchType?.trim()) {
        throw new InvalidInputError(
          `Invalid MatchType (value ${shown(body.MatchType)}): MatchCriteria AlternateID needs the alternate id type`,
        );
      }
      if (!(await this.checks.isActiveAlternateIdType(clientId, body.MatchType))) {
        throw new InvalidInputError(
          `Invalid MatchType (value ${shown(body.MatchType)}): not an active alternate id type of the account`,
        );
      }
    } else if (body.MatchType != null) {
      // null is absent, as for every optional field of the document.
      throw new InvalidInputError(
        `Invalid MatchType (value ${shown(body.MatchType)}): only MatchCriteria AlternateID takes a MatchType (MatchCriteria is ${shown(body.MatchCriteria)})`,
      );
    }
    if (body.CallbackURL != null) {
      const problem = callbackUrlProblem(body.CallbackURL);
      if (problem) {
        throw new InvalidInputError(
          `Invalid CallbackURL (value ${shown(body.CallbackURL)}): ${problem}`,
        );
      }
    }
  }
}
