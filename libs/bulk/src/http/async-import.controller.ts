import { CommandBus } from '@nestjs/cqrs';
import { type Caller, CurrentCaller, TenantController } from '@app/auth';
import { PositiveIntParam } from '@app/shared';
import type { BulkImportStatusDto } from '../dto/bulk-import.dto';
import { ExecuteBulkImportRoute, executeImport } from './bulk-import.controller';

/** The older Execute route of the notes: `POST Async/{clientId}/Import/{accessToken}/Execute`. */
@TenantController('Async/:clientId/Import', { tag: 'Bulk import' })
export class AsyncImportController {
  constructor(private readonly commands: CommandBus) {}

  @ExecuteBulkImportRoute(true)
  execute(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('accessToken') accessToken: number,
  ): Promise<BulkImportStatusDto> {
    return executeImport(this.commands, caller, accessToken);
  }
}
