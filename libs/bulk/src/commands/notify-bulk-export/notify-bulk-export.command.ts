import { Command } from '@nestjs/cqrs';

/** POST an ended export's status to its CallbackURL (the worker's bulk-export-callback job). */
export class NotifyBulkExportCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    /** From 1; after CALLBACK_ATTEMPTS the callback is given up. */
    readonly attempt: number,
  ) {
    super();
  }
}
