import { Command } from '@nestjs/cqrs';
import type { CallerScope } from '@app/profiles';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';

/** Execute: the staged records of an import are to be applied by the worker. */
export class ExecuteBulkImportCommand extends Command<BulkImportStatusDto> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    /** The records are written as this user, within their user group's scope. */
    readonly userId: string,
    readonly scope: CallerScope | undefined,
  ) {
    super();
  }
}
