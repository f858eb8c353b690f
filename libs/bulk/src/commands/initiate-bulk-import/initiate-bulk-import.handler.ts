import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProfileWriteChecks } from '@app/profiles';
import { Clock, effectiveQuota, InvalidInputError, QuotaExceededError } from '@app/shared';
import { dailyImportQuota } from '../../domain/bulk-import';
import { BulkSettings } from '../../bulk-settings';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';
import { toBulkImportStatus } from '../../mapping/bulk-import.mapper';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { ImportRemovals } from '../../services/import-removals.service';
import { InitiateBulkImportCommand } from './initiate-bulk-import.command';

@CommandHandler(InitiateBulkImportCommand)
export class InitiateBulkImportHandler implements ICommandHandler<InitiateBulkImportCommand> {
  constructor(
    private readonly imports: BulkImportRepository,
    private readonly checks: ProfileWriteChecks,
    private readonly settings: BulkSettings,
    private readonly clock: Clock,
    private readonly removals: ImportRemovals,
  ) {}

  async execute({
    clientId,
    userId,
    body,
    quotas,
  }: InitiateBulkImportCommand): Promise<BulkImportStatusDto> {
    if (!(await this.checks.isActiveAlternateIdType(clientId, body.MatchValue))) {
      throw new InvalidInputError(
        `Invalid MatchValue (value ${JSON.stringify(body.MatchValue)}): not an active alternate id type of the account`,
      );
    }
    const now = this.clock.now();
    // The daily limit: two Initiates at the same moment may both pass its last place (the
    // hint is replaced, not updated atomically), which a limit of this size tolerates.
    const hint = await this.imports.hint(clientId);
    // The client's own quota, else BULK_IMPORT_DAILY_LIMIT.
    const { limit } = effectiveQuota(quotas, 'bulkImportsPerDay', this.settings.dailyImportLimit);
    const quota = dailyImportQuota(hint?.initiated ?? [], now, limit);
    if (!quota.allowed) {
      throw new QuotaExceededError(
        `The daily import limit of client ${clientId} is reached (${limit} imports in 24 hours); retry after ${quota.retryAfterSeconds} s`,
        quota.retryAfterSeconds,
      );
    }
    const job = await this.imports.create(
      {
        clientId,
        name: body.Name,
        dataStageDuration: body.DataStageDuration ?? 3,
        matchCriteria: body.MatchCriteria,
        matchValue: body.MatchValue,
        operation: body.Operation ?? 'Add',
        allowPriorConsents: body.AllowPriorConsents ?? false,
        refresh: {
          AlternateIds: body.RefreshAlternateIds ?? false,
          Contacts: body.RefreshContacts ?? false,
          CustomFields: body.RefreshCustomFields ?? false,
          Groups: body.RefreshGroups ?? false,
          Tags: body.RefreshTags ?? false,
        },
        status: 'Initiated',
        createdAt: now,
        createdBy: userId,
        expiresAt: new Date(now.getTime() + this.settings.importTokenTtlMs),
        received: 0,
        valid: 0,
        invalid: 0,
        stages: 0,
        chunks: 0,
        exceptions: 0,
      },
      hint,
      quota.initiated,
    );
    return toBulkImportStatus(job);
  }
}
