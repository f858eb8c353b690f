import { createHash } from 'node:crypto';
import { textKey } from '@app/shared';
import type { StoredConfirmationEvidence } from './profile-data.schema';

/*
 * What double opt-in's two owners share (docs/double-opt-in.md): Consents holds grants and
 * runs the confirmations (link, outbox, expiry), Preferences holds opt-ins. The confirmation
 * id and the bodies of the preference confirmation writes are declared here, the one lib
 * both may import.
 */

/**
 * The confirmation id of a held grant or opt-in: derived from the write (its time), the
 * address and what it holds (a consent type, a preference's key), so a retried write makes
 * the same id (and the apply extension the same documents).
 */
export function confirmationIdOf(at: string, emailKey: string, subject: string): string {
  return createHash('sha256')
    .update(JSON.stringify([at, emailKey, textKey(subject)]))
    .digest('base64url')
    .slice(0, 22);
}

/** The preference an opt-in confirmation is about (its key fields, as stored). */
export interface ConfirmedPreference {
  ProgramId: string;
  ChannelId: string;
  FilterId: string;
}

/** The system write kind that applies a confirmed opt-in. */
export const PREFERENCE_CONFIRM_WRITE = 'preference-confirm';

/** What an opt-in's confirmation write carries (the `preference-confirm` body). */
export interface PreferenceConfirmWrite {
  /** The email address (as stored) holding the preference. */
  EmailAddress: string;
  Preference: ConfirmedPreference;
  ConfirmationId: string;
  Evidence: StoredConfirmationEvidence;
}

/** The system write kind that ends a pending opt-in confirmation past its time to live. */
export const PREFERENCE_CONFIRMATION_EXPIRE_WRITE = 'preference-confirmation-expire';

/** What an opt-in's expiry write carries (the `preference-confirmation-expire` body). */
export interface PreferenceConfirmationExpireWrite {
  EmailAddress: string;
  Preference: ConfirmedPreference;
  ConfirmationId: string;
}
