import { Injectable } from '@nestjs/common';
import { ConflictError, LeaseService } from '@app/shared';
import { stageLeaseName } from '../keys';

/**
 * The lease that serializes what changes an import's staged records: each Stage, and the
 * Execute that ends staging. One holder at a time; another call meanwhile is refused (409).
 */
@Injectable()
export class StageLease {
  constructor(private readonly lease: LeaseService) {}

  /** Runs `work` holding the import's stage lease for `ttlMs`; 409 (`busy`) while another holds it. */
  async hold<T>(
    clientId: string,
    accessToken: number,
    ttlMs: number,
    busy: string,
    work: () => Promise<T>,
  ): Promise<T> {
    const name = stageLeaseName(clientId, accessToken);
    const token = await this.lease.acquire(name, ttlMs);
    if (!token) throw new ConflictError(busy);
    try {
      return await work();
    } finally {
      await this.lease.release(name, token);
    }
  }
}
