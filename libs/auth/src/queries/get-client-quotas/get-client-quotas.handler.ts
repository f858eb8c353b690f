import { type OnApplicationBootstrap } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { effectiveQuota, type QuotaName, QuotaMeters } from '@app/shared';
import { clientNotFound } from '../../auth-errors';
import type { ClientQuotasDto } from '../../dto/client-quotas.dto';
import { type QuotaReading, toClientQuotasDto } from '../../mapping/client-quotas.mapper';
import { ClientRepository } from '../../repositories/client.repository';
import { GetClientQuotasQuery } from './get-client-quotas.query';

/**
 * Reads the client's record (by `_id`, not through the auth cache: an operator wants what
 * is stored) and asks each quota's meter, registered by the lib that enforces it, for the
 * default and the client's use: documents by `_id` and Redis keys only.
 */
@QueryHandler(GetClientQuotasQuery)
export class GetClientQuotasHandler
  implements IQueryHandler<GetClientQuotasQuery>, OnApplicationBootstrap
{
  constructor(
    private readonly clients: ClientRepository,
    private readonly meters: QuotaMeters,
  ) {}

  /** The api does not start with a quota nobody meters (as with a job nobody handles). */
  onApplicationBootstrap(): void {
    this.meters.all();
  }

  async execute({ clientId }: GetClientQuotasQuery): Promise<ClientQuotasDto> {
    const client = await this.clients.findById(clientId);
    if (!client) throw clientNotFound(clientId);
    const readings = await Promise.all(
      this.meters.all().map(async (meter): Promise<[QuotaName, QuotaReading]> => [
        meter.name,
        {
          ...effectiveQuota(client.quotas, meter.name, meter.defaultLimit),
          defaultLimit: meter.defaultLimit,
          used: await meter.used(clientId),
        },
      ]),
    );
    return toClientQuotasDto(
      clientId,
      Object.fromEntries(readings) as { [name in QuotaName]: QuotaReading },
    );
  }
}
