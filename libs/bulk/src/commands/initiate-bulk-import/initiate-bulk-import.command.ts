import { Command } from '@nestjs/cqrs';
import type { BulkImportStatusDto, InitiateBulkImportDto } from '../../dto/bulk-import.dto';

/** Initiate: a new import and its access token. */
export class InitiateBulkImportCommand extends Command<BulkImportStatusDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly body: InitiateBulkImportDto,
  ) {
    super();
  }
}
