import { Command } from '@nestjs/cqrs';

/** Permanent delete; the answer says whether the worker applied it within the wait bound. */
export class DeleteProfileCommand extends Command<'deleted' | 'pending'> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly profileId: number,
    readonly reasonCode?: string,
  ) {
    super();
  }
}
