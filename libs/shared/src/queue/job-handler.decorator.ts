import { SetMetadata } from '@nestjs/common';
import type { JobName, JobPayloads } from './queue.constants';

export const JOB_HANDLER_METADATA = 'pcp:job-handler';

/** A provider that handles one job name; the worker refuses to start without exactly one. */
export interface JobHandler<N extends JobName> {
  handle(payload: JobPayloads[N]): Promise<void>;
}

export const HandlesJob = (name: JobName): ClassDecorator =>
  SetMetadata(JOB_HANDLER_METADATA, name);
