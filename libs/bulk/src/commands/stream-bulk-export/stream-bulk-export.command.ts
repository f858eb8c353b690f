import { Command } from '@nestjs/cqrs';

/**
 * Stream: every row of a built export as NDJSON, page by page. The command checks the
 * export and answers the lines to send; the whole export is never in memory.
 */
export class StreamBulkExportCommand extends Command<AsyncIterable<string>> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    readonly keepAlive: boolean,
  ) {
    super();
  }
}
