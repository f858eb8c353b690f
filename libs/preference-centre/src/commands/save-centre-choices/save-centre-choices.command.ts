import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { CentreForm } from '../../domain/centre-changes';
import type { CentreChoice } from '../../domain/centre-page';
import type { UnsubscribeScope } from '../../domain/link-token';

/**
 * What a person submits: the page's form (with whether the browser sent a Global Privacy
 * Control signal), an unsubscribe (the page's or one-click), or the opt-out a page view
 * with the signal applies.
 */
export type CentreSubmission =
  | { kind: 'form'; form: CentreForm; gpc?: boolean }
  | { kind: 'unsubscribe'; scope: UnsubscribeScope }
  | { kind: 'gpc' };

/** How a submission ended. */
export type CentreSaveOutcome =
  | { status: 'saved' | 'pending' | 'unchanged' }
  /**
   * Saved, and a consent it granted or an opt-in it asked for waits for the person's
   * confirmation from their mailbox (double opt-in): it counts once they confirm.
   */
  | { status: 'awaiting-confirmation' }
  | { status: 'refused'; problems: string[] }
  | { status: 'gone' }
  /** Opt-ins of sale or sharing under the signal, not confirmed yet: nothing written. */
  | { status: 'confirm'; choices: CentreChoice[] };

/** A person's changes from the preference centre, written as an ordinary merge. */
export class SaveCentreChoicesCommand extends Command<CentreSaveOutcome> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    readonly submission: CentreSubmission,
    /**
     * The request's commit window (`@WriteWindow()`): a write answered 503 never commits.
     * Null for the opt-out a page view (GET) applies: a read has no window.
     */
    readonly window: RequestWindow | null,
  ) {
    super();
  }
}
