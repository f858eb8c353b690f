import { Command } from '@nestjs/cqrs';
import type { BulkExportStatusDto } from '../../dto/bulk-export.dto';

/** Commit: the client has what it needs; the export ends (Retrieved), its pages go unless kept. */
export class CommitBulkExportCommand extends Command<BulkExportStatusDto> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    /** true: the pages stay readable until Expires. */
    readonly keepFiles: boolean,
  ) {
    super();
  }
}
