import { Command } from '@nestjs/cqrs';

/** Remove a tag from the account and from every profile that carries it. */
export class DeleteTagCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly tagName: string,
  ) {
    super();
  }
}
