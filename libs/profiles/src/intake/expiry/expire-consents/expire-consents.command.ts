import { Command } from '@nestjs/cqrs';
import type { JobCounts } from '@app/shared';

/** One run of the consent-expiry job; `maxPages` stops it early (tests: a partial run). */
export class ExpireConsentsCommand extends Command<JobCounts> {
  constructor(readonly maxPages?: number) {
    super();
  }
}
