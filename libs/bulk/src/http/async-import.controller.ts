import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBadRequestResponse, ApiTags } from '@nestjs/swagger';
import { ApiClientIdParam, type Caller, CurrentCaller } from '@app/auth';
import { MALFORMED_REQUEST, PositiveIntParam } from '@app/shared';
import type { BulkImportStatusDto } from '../dto/bulk-import.dto';
import { ExecuteBulkImportRoute, executeImport } from './bulk-import.controller';

/** The older Execute route of the notes: `POST Async/{clientId}/Import/{accessToken}/Execute`. */
@ApiTags('Bulk import')
@ApiClientIdParam()
@ApiBadRequestResponse({ description: MALFORMED_REQUEST })
@Controller('Async/:clientId/Import')
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
