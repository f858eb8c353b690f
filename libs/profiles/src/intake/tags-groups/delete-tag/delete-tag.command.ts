import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';

/** Remove a tag from the account and from every profile that carries it. */
export class DeleteTagCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly tagName: string,
    /**
     * The request's commit window (`@WriteWindow()`), shared by the writes of every profile:
     * a request answered 503 commits none after it.
     */
    readonly window: RequestWindow | null,
  ) {
    super();
  }
}
