import { Command } from '@nestjs/cqrs';
import type { JobCounts } from '@app/shared';

/**
 * One run of the new-consent-version job; `maxPages` stops it after that many pages of
 * profiles (tests: a worker stopped halfway).
 */
export class NotifyConsentVersionsCommand extends Command<JobCounts> {
  constructor(readonly maxPages?: number) {
    super();
  }
}
