import { SetMetadata } from '@nestjs/common';
import type { JobCounts, JobName, JobPayloads, ScheduledJobName } from './queue.constants';

export const JOB_HANDLER_METADATA = 'pcp:job-handler';

/**
 * A provider that handles one job name; the worker refuses to start without exactly one.
 * A scheduled job's handler returns what it changed (recorded with the run).
 */
export interface JobHandler<N extends JobName> {
  handle(payload: JobPayloads[N]): Promise<N extends ScheduledJobName ? JobCounts : void>;
}

export const HandlesJob = (name: JobName): ClassDecorator =>
  SetMetadata(JOB_HANDLER_METADATA, name);
