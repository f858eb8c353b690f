import { Command } from '@nestjs/cqrs';
import type { JobLane } from '@app/shared';

/** Apply the pending writes of one profile, strictly in sequence order. */
export class ApplyProfileWritesCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    /** The write that brought the job, when known (see ApplyProfileWritesHandler). */
    readonly seq?: number,
    /** Times the job found the profile's lease taken and was put back. */
    readonly busy?: number,
    /** The queue lane the job came from (a job put back keeps it). */
    readonly lane?: JobLane,
    /** Its profile's "job queued" flag (ApplyJobScheduler), cleared when it starts. */
    readonly token?: string,
  ) {
    super();
  }
}
