import { SetMetadata } from '@nestjs/common';
import type { JobDefinition } from './job-definition';
import type { JobCounts } from './queue.constants';

export const JOB_HANDLER_METADATA = 'pcp:job-handler';

/**
 * A provider that handles one job; the worker refuses to start without exactly one per
 * defined job. A scheduled job's handler returns what it changed (recorded with the run).
 */
export interface JobHandler<P, R extends void | JobCounts = void> {
  handle(payload: P): Promise<R>;
}

export const HandlesJob = (job: JobDefinition<unknown>): ClassDecorator =>
  SetMetadata(JOB_HANDLER_METADATA, job.name);
