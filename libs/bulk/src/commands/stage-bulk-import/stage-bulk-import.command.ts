import { Command } from '@nestjs/cqrs';
import type { CallerScope } from '@app/profiles';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';

/** Stage: one array of profile records added to an import. */
export class StageBulkImportCommand extends Command<BulkImportStatusDto> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    /** The records: a JSON array's, or read as they arrive (NDJSON). */
    readonly records: readonly unknown[] | AsyncIterable<unknown>,
    /** The writer's user-group scope (undefined: unrestricted), checked on every record. */
    readonly scope: CallerScope | undefined,
  ) {
    super();
  }
}
