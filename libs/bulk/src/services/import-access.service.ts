import { Injectable } from '@nestjs/common';
import { AccessExpiredError, Clock, NotFoundError } from '@app/shared';
import { isExpired } from '../domain/bulk-import';
import type { BulkImport } from '../domain/bulk-import.schema';
import { BulkImportRepository } from '../repositories/bulk-import.repository';

/**
 * An import as a request reaches it: by its client's key (another client's token is not
 * found, as an unknown one: 404), and refused once its token has expired (401).
 */
@Injectable()
export class ImportAccess {
  constructor(
    private readonly imports: BulkImportRepository,
    private readonly clock: Clock,
  ) {}

  async open(clientId: string, accessToken: number): Promise<BulkImport> {
    const job = await this.imports.find(clientId, accessToken);
    if (!job) throw new NotFoundError(`No bulk import has AccessToken ${accessToken}`);
    if (isExpired(job, this.clock.now())) {
      throw new AccessExpiredError(
        `AccessToken ${accessToken} expired at ${job.expiresAt.toISOString()}; initiate a new import`,
      );
    }
    return job;
  }
}
