import { ApiProperty } from '@nestjs/swagger';

/** One quota of a client: its value, whose it is, and how much of it is used now. */
export class ClientQuotaDto {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The value in force for the client: its own, else the default (0: unlimited)',
  })
  Limit: number;

  @ApiProperty({
    enum: ['Client', 'Default'],
    description:
      "Client: the client's own value (npm run admin -- set-client); Default: the process-wide default",
  })
  Source: 'Client' | 'Default';

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description:
      'The process-wide default (its environment variable, as the answering api process read it), whether or not the client has a value of its own',
  })
  Default: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'How much of it the client uses now' })
  Used: number;
}

/** A client's quotas and their current use (the operator route). */
export class ClientQuotasDto {
  @ApiProperty({ example: 'acme' }) ClientId: string;

  @ApiProperty({
    type: ClientQuotaDto,
    description:
      'GET and HEAD requests per second (RATE_LIMIT_READS_PER_SECOND); Used: the requests of the current one-second window as the api processes have shared them in Redis (each adds its counts every 25 ms), 0 between windows and while unlimited (nothing is counted then)',
  })
  ReadsPerSecond: ClientQuotaDto;

  @ApiProperty({
    type: ClientQuotaDto,
    description:
      'POST, PUT, PATCH and DELETE requests per second (RATE_LIMIT_WRITES_PER_SECOND); Used as for ReadsPerSecond',
  })
  WritesPerSecond: ClientQuotaDto;

  @ApiProperty({
    type: ClientQuotaDto,
    description:
      'Bulk imports begun (Initiate) in a rolling 24 hours (BULK_IMPORT_DAILY_LIMIT); Used: those begun in the last 24 hours',
  })
  BulkImportsPerDay: ClientQuotaDto;

  @ApiProperty({
    type: ClientQuotaDto,
    description:
      'Event subscriptions held at once (EVENTS_MAX_SUBSCRIPTIONS; at least 1); Used: those the client holds',
  })
  MaxEventSubscriptions: ClientQuotaDto;
}
