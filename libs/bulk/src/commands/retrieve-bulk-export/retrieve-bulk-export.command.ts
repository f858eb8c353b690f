import { Command } from '@nestjs/cqrs';
import type { BulkExportRowsDto } from '../../dto/bulk-export.dto';

/**
 * Retrieve rows `offset` (from 1) to `offset + limit - 1` of a built export. A command:
 * reading to the end marks the export Retrieved, and keepAlive starts its Expires again.
 */
export class RetrieveBulkExportCommand extends Command<BulkExportRowsDto> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    readonly offset: number,
    readonly limit: number,
    readonly keepAlive: boolean,
  ) {
    super();
  }
}
