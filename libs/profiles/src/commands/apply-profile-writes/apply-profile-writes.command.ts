import { Command } from '@nestjs/cqrs';

/** Apply the pending writes of one profile, strictly in sequence order. */
export class ApplyProfileWritesCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    /** The write that brought the job, when known (see ApplyProfileWritesHandler). */
    readonly seq?: number,
    /** Times the job found the profile's lease taken and was put back. */
    readonly busy?: number,
  ) {
    super();
  }
}
