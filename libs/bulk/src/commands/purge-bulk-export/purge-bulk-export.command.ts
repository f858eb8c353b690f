import { Command } from '@nestjs/cqrs';

/** Remove the pages of a committed or expired export (the worker's bulk-export-purge job). */
export class PurgeBulkExportCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
  ) {
    super();
  }
}
