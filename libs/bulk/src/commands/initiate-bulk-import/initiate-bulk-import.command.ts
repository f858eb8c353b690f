import { Command } from '@nestjs/cqrs';
import type { ClientQuotas } from '@app/shared';
import type { BulkImportStatusDto, InitiateBulkImportDto } from '../../dto/bulk-import.dto';

/** Initiate: a new import and its access token. */
export class InitiateBulkImportCommand extends Command<BulkImportStatusDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly body: InitiateBulkImportDto,
    /** The caller's client's own quotas, as authentication loaded them (its daily imports). */
    readonly quotas: ClientQuotas,
  ) {
    super();
  }
}
