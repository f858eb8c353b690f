import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobHandler, scheduledCommandJob } from '@app/shared';
import { RemoveExpiredImportsCommand } from '../commands/remove-expired-imports/remove-expired-imports.command';
import { RunBulkImportCommand } from '../commands/run-bulk-import/run-bulk-import.command';
import {
  BULK_IMPORT_CLEANUP,
  RUN_BULK_IMPORT,
  type RunBulkImportPayload,
} from './bulk.job-definitions';

/* Job handlers only hand off to commands; the use case lives in RunBulkImportHandler. */

@Injectable()
@HandlesJob(RUN_BULK_IMPORT)
export class RunBulkImportJob implements JobHandler<RunBulkImportPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle({ clientId, accessToken, chunk }: RunBulkImportPayload): Promise<void> {
    await this.commands.execute(new RunBulkImportCommand(clientId, accessToken, chunk));
  }
}

/** The cleanup's runs (defined in bulk.job-definitions.ts). */
export const BulkImportCleanupJob = scheduledCommandJob(
  BULK_IMPORT_CLEANUP,
  ({ maxPages }) => new RemoveExpiredImportsCommand(maxPages),
);
