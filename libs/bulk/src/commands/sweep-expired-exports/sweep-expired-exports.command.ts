import { Command } from '@nestjs/cqrs';
import type { JobCounts } from '@app/shared';

/** The export expiry sweep's run: what is due of exports nobody touched. */
export class SweepExpiredExportsCommand extends Command<JobCounts> {
  constructor(
    /** Stop after this many batches of due exports (tests: a run cut short). */
    readonly maxPages?: number,
  ) {
    super();
  }
}
