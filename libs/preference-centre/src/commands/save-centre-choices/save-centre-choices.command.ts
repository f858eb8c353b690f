import { Command } from '@nestjs/cqrs';
import type { CentreForm } from '../../domain/centre-changes';
import type { UnsubscribeScope } from '../../domain/link-token';

/** What a person submits: the page's form, or an unsubscribe (the page's or one-click). */
export type CentreSubmission =
  { kind: 'form'; form: CentreForm } | { kind: 'unsubscribe'; scope: UnsubscribeScope };

/** How a submission ended. */
export type CentreSaveOutcome =
  | { status: 'saved' | 'pending' | 'unchanged' }
  | { status: 'refused'; problems: string[] }
  | { status: 'gone' };

/** A person's changes from the preference centre, written as an ordinary merge. */
export class SaveCentreChoicesCommand extends Command<CentreSaveOutcome> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    readonly submission: CentreSubmission,
  ) {
    super();
  }
}
