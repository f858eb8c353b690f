import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobHandler, scheduledCommandJob } from '@app/shared';
import { NotifyBulkExportCommand } from '../commands/notify-bulk-export/notify-bulk-export.command';
import { PurgeBulkExportCommand } from '../commands/purge-bulk-export/purge-bulk-export.command';
import { RunBulkExportCommand } from '../commands/run-bulk-export/run-bulk-export.command';
import { SweepExpiredExportsCommand } from '../commands/sweep-expired-exports/sweep-expired-exports.command';
import {
  BULK_EXPORT_EXPIRY,
  NOTIFY_BULK_EXPORT,
  type NotifyBulkExportPayload,
  PURGE_BULK_EXPORT,
  type PurgeBulkExportPayload,
  RUN_BULK_EXPORT,
  type RunBulkExportPayload,
} from './bulk.job-definitions';

/* Job handlers only hand off to commands; the use cases live in the command handlers. */

@Injectable()
@HandlesJob(RUN_BULK_EXPORT)
export class RunBulkExportJob implements JobHandler<RunBulkExportPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle({ clientId, accessToken, run }: RunBulkExportPayload): Promise<void> {
    await this.commands.execute(new RunBulkExportCommand(clientId, accessToken, run));
  }
}

@Injectable()
@HandlesJob(NOTIFY_BULK_EXPORT)
export class NotifyBulkExportJob implements JobHandler<NotifyBulkExportPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle({ clientId, accessToken, attempt }: NotifyBulkExportPayload): Promise<void> {
    await this.commands.execute(new NotifyBulkExportCommand(clientId, accessToken, attempt));
  }
}

@Injectable()
@HandlesJob(PURGE_BULK_EXPORT)
export class PurgeBulkExportJob implements JobHandler<PurgeBulkExportPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle({ clientId, accessToken }: PurgeBulkExportPayload): Promise<void> {
    await this.commands.execute(new PurgeBulkExportCommand(clientId, accessToken));
  }
}

/** The expiry sweep's runs (defined in bulk.job-definitions.ts). */
export const BulkExportExpiryJob = scheduledCommandJob(
  BULK_EXPORT_EXPIRY,
  ({ maxPages }) => new SweepExpiredExportsCommand(maxPages),
);
