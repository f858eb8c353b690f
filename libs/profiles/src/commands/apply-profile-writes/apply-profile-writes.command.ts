import { Command } from '@nestjs/cqrs';

/** Apply the pending writes of one profile, strictly in sequence order. */
export class ApplyProfileWritesCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    /** The write that brought the job, when known (see ApplyProfileWritesHandler). */
    readonly seq?: number,
  ) {
    super();
  }
}
