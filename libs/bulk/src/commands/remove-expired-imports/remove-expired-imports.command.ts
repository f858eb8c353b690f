import { Command } from '@nestjs/cqrs';
import type { JobCounts } from '@app/shared';

/** The cleanup job's run: removes the stored data of imports past their kept time. */
export class RemoveExpiredImportsCommand extends Command<JobCounts> {
  constructor(
    /** Stop after this many batches of due imports (tests: a run cut short). */
    readonly maxPages?: number,
  ) {
    super();
  }
}
