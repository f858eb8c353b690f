import type { OnModuleInit } from '@nestjs/common';
import type { QuotaName } from './client-quotas';
import type { QuotaMeter, QuotaMeters } from './quota-meters';

/**
 * A lib's meter of the quota it enforces, registered with QuotaMeters when its module
 * starts: a subclass names the quota and says how much of it a client uses.
 */
export abstract class RegisteredQuotaMeter implements QuotaMeter, OnModuleInit {
  abstract readonly name: QuotaName;

  constructor(
    private readonly meters: QuotaMeters,
    readonly defaultLimit: number,
  ) {}

  onModuleInit(): void {
    this.meters.register(this);
  }

  abstract used(clientId: string): Promise<number>;
}
