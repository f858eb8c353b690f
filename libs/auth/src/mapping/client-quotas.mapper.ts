import type { QuotaName, QuotaSource } from '@app/shared';
import type { ClientQuotaDto, ClientQuotasDto } from '../dto/client-quotas.dto';

/** A quota as the operator route reads it. */
export interface QuotaReading {
  limit: number;
  source: QuotaSource;
  defaultLimit: number;
  used: number;
}

function toClientQuotaDto(reading: QuotaReading): ClientQuotaDto {
  return {
    Limit: reading.limit,
    Source: reading.source,
    Default: reading.defaultLimit,
    Used: reading.used,
  };
}

export function toClientQuotasDto(
  clientId: string,
  readings: { readonly [name in QuotaName]: QuotaReading },
): ClientQuotasDto {
  return {
    ClientId: clientId,
    ReadsPerSecond: toClientQuotaDto(readings.readsPerSecond),
    WritesPerSecond: toClientQuotaDto(readings.writesPerSecond),
    BulkImportsPerDay: toClientQuotaDto(readings.bulkImportsPerDay),
    MaxEventSubscriptions: toClientQuotaDto(readings.maxEventSubscriptions),
  };
}
