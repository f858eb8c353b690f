import { Injectable } from '@nestjs/common';
import { AccessExpiredError, Clock, NotFoundError } from '@app/shared';
import { isExpired, readableUntil } from '../domain/bulk-import';
import type { BulkImport } from '../domain/bulk-import.schema';
import { BulkImportRepository } from '../repositories/bulk-import.repository';

/**
 * An import as a request reaches it: by its client's key (another client's token is not
 * found, as an unknown one: 404), and refused once its access has ended (401). Stage and
 * Execute (`change`) end at Expires; Status and Exceptions (`read`) also while the import
 * runs and for DataStageDuration days after it ended (readableUntil).
 */
@Injectable()
export class ImportAccess {
  constructor(
    private readonly imports: BulkImportRepository,
    private readonly clock: Clock,
  ) {}

  async open(
    clientId: string,
    accessToken: number,
    purpose: 'change' | 'read' = 'change',
  ): Promise<BulkImport> {
    const job = await this.imports.find(clientId, accessToken);
    if (!job) throw new NotFoundError(`No bulk import has AccessToken ${accessToken}`);
    const now = this.clock.now();
    if (purpose === 'read') {
      const until = readableUntil(job);
      if (until === null || now < until) return job;
      throw new AccessExpiredError(
        `AccessToken ${accessToken} expired at ${until.toISOString()}; initiate a new import`,
      );
    }
    if (isExpired(job, now)) {
      throw new AccessExpiredError(
        `AccessToken ${accessToken} expired at ${job.expiresAt.toISOString()}; initiate a new import`,
      );
    }
    return job;
  }
}
