import { Command } from '@nestjs/cqrs';

/** Apply chunk `chunk` of an executed import (the worker's bulk-import-run job). */
export class RunBulkImportCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    /** The chunk the job was queued for: a job whose chunk is done already ends. */
    readonly chunk: number,
  ) {
    super();
  }
}
