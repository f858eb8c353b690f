import { Injectable, Logger } from '@nestjs/common';
import { JobQueue } from '@app/shared';
import { REBUILD_REPORTS } from '../worker/report.job-definitions';
import { ReportCountStore } from './report-count-store.service';

/** Queues rebuilds of a client's counts (the operator's, the admin CLI's, a reader's). */
@Injectable()
export class ReportRebuilds {
  private readonly logger = new Logger('Reports');

  constructor(
    private readonly countStore: ReportCountStore,
    private readonly jobs: JobQueue,
  ) {}

  /** Queues one now (an operator asked). */
  async queue(clientId: string, restart = false): Promise<void> {
    await this.jobs.enqueue(REBUILD_REPORTS, { clientId, restart }, { lane: 'bulk' });
  }

  /** Queues one unless one was asked for recently (a reader found the counts missing). */
  async ensure(clientId: string): Promise<void> {
    try {
      if (await this.countStore.claimRebuildRequest(clientId)) await this.queue(clientId);
    } catch (error) {
      this.logger.warn(`rebuild of ${clientId}'s counts not queued: ${String(error)}`);
    }
  }
}
