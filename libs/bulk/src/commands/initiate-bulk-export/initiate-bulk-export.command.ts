import { Command } from '@nestjs/cqrs';
import type { CallerScope } from '@app/profiles';
import type { BulkExportStatusDto, InitiateBulkExportDto } from '../../dto/bulk-export.dto';

/** Initiate: a new export, its access token, and its first run queued. */
export class InitiateBulkExportCommand extends Command<BulkExportStatusDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    /** The rows show what this user group may see. */
    readonly scope: CallerScope | undefined,
    readonly body: InitiateBulkExportDto,
  ) {
    super();
  }
}
