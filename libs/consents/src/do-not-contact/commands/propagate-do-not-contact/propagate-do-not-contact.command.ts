import { Command } from '@nestjs/cqrs';

import type { JobCounts } from '@app/shared';

/** What one propagation run did: list changes completed, profiles given a write. */
export interface DncPropagationCounts extends JobCounts {
  entries: number;
  profiles: number;
}

/**
 * One run of the do-not-contact job: applies pending list changes to the profiles holding
 * the values. `maxPages` stops it early (tests: a worker stopped halfway).
 */
export class PropagateDoNotContactCommand extends Command<DncPropagationCounts> {
  constructor(readonly maxPages?: number) {
    super();
  }
}
