import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProfileWriteChecks } from '@app/profiles';
import { Clock, InvalidInputError } from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';
import { toBulkImportStatus } from '../../mapping/bulk-import.mapper';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { InitiateBulkImportCommand } from './initiate-bulk-import.command';

@CommandHandler(InitiateBulkImportCommand)
export class InitiateBulkImportHandler implements ICommandHandler<InitiateBulkImportCommand> {
  constructor(
    private readonly imports: BulkImportRepository,
    private readonly checks: ProfileWriteChecks,
    private readonly settings: BulkSettings,
    private readonly clock: Clock,
  ) {}

  async execute({
    clientId,
    userId,
    body,
  }: InitiateBulkImportCommand): Promise<BulkImportStatusDto> {
    if (!(await this.checks.isActiveAlternateIdType(clientId, body.MatchValue))) {
      throw new InvalidInputError(
        `Invalid MatchValue (value ${JSON.stringify(body.MatchValue)}): not an active alternate id type of the account`,
      );
    }
    const now = this.clock.now();
    const job = await this.imports.create({
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
    });
    return toBulkImportStatus(job);
  }
}
