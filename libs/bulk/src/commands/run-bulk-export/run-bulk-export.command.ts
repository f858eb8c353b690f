import { Command } from '@nestjs/cqrs';

/** Build the next page of an export (the worker's bulk-export-run job). */
export class RunBulkExportCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    /** The run the job was queued for: a job whose run is done already ends. */
    readonly run: number,
  ) {
    super();
  }
}
