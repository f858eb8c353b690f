import { Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { OperatorController } from '@app/shared';
import { CLIENT_ID_PATTERN } from '../domain/identifiers';
import { ClientQuotasDto } from '../dto/client-quotas.dto';
import { GetClientQuotasQuery } from '../queries/get-client-quotas/get-client-quotas.query';

/**
 * A client's quotas for operators: outside the client's own routes (`Clients/{clientId}`,
 * which no tenant route's shape takes), behind the operator credential, never a tenant's.
 */
@OperatorController('Clients', { tag: 'Quotas' })
export class ClientQuotasController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':clientId/Quotas')
  @ApiOperation({
    summary: "A client's quotas and their use now",
    description:
      "Operator credential: Authorization: Bearer <OPERATOR_TOKEN>, or Basic with the token as password (401 without it; 403 while OPERATOR_TOKEN is unset). For each quota (reads and writes per second, bulk imports per day, event subscriptions): the value in force for the client, whether it is the client's own (npm run admin -- set-client) or the process-wide default, that default, and how much of it the client uses now. A change made with set-client applies to every api process from its next request of the client.",
  })
  @ApiParam({
    name: 'clientId',
    description: 'The client (tenant) id',
    schema: { type: 'string', pattern: CLIENT_ID_PATTERN, minLength: 1, maxLength: 64 },
    example: 'acme',
  })
  @ApiOkResponse({ type: ClientQuotasDto, description: "The client's quotas and their use now" })
  @ApiNotFoundResponse({ description: 'No client has this id' })
  quotas(@Param('clientId') clientId: string): Promise<ClientQuotasDto> {
    return this.queries.execute(new GetClientQuotasQuery(clientId));
  }
}
