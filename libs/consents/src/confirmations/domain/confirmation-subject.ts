import {
  canSeeConsentType,
  canSeeProgram,
  PREFERENCE_CONFIRM_WRITE,
  PREFERENCE_CONFIRMATION_EXPIRE_WRITE,
  type PreferenceConfirmationExpireWrite,
  type PreferenceConfirmWrite,
  type ProfileView,
  type StoredConfirmationEvidence,
} from '@app/profiles';
import {
  CONFIRMATION_EXPIRE_WRITE,
  CONSENT_CONFIRM_WRITE,
  type ConfirmationExpireWrite,
  type ConsentConfirmWrite,
} from './confirmation-hold';
import type { StoredConfirmation } from './confirmation.schema';

/*
 * What a confirmation confirms: a consent's grant (ConsentType) or a program's opt-in
 * (Preference). The rest of the confirmation (link, outbox, expiry, resend) is the same for
 * both; these say where they differ: who may see it and which write applies or ends it.
 */

/** The write that applies a confirmation or ends it, with its body. */
export type ConfirmationWrite =
  | { kind: typeof CONSENT_CONFIRM_WRITE; body: ConsentConfirmWrite }
  | { kind: typeof PREFERENCE_CONFIRM_WRITE; body: PreferenceConfirmWrite }
  | { kind: typeof CONFIRMATION_EXPIRE_WRITE; body: ConfirmationExpireWrite }
  | { kind: typeof PREFERENCE_CONFIRMATION_EXPIRE_WRITE; body: PreferenceConfirmationExpireWrite };

/** Whether a user group's view takes in the confirmation (its consent type, or its program). */
export function canSeeConfirmation(
  view: ProfileView,
  confirmation: Pick<StoredConfirmation, 'ConsentType' | 'Preference'>,
): boolean {
  return confirmation.Preference
    ? canSeeProgram(view, confirmation.Preference.ProgramId)
    : canSeeConsentType(view, confirmation.ConsentType);
}

/** The write applying the confirmed grant or opt-in, with the confirming request's evidence. */
export function confirmWriteOf(
  confirmation: StoredConfirmation,
  evidence: StoredConfirmationEvidence,
): ConfirmationWrite {
  const target = {
    EmailAddress: confirmation.EmailAddress,
    ConfirmationId: confirmation.confirmationId,
    Evidence: evidence,
  };
  return confirmation.Preference
    ? {
        kind: PREFERENCE_CONFIRM_WRITE,
        body: { ...target, Preference: preferenceOf(confirmation.Preference) },
      }
    : {
        kind: CONSENT_CONFIRM_WRITE,
        body: { ...target, ConsentType: confirmation.ConsentType ?? '' },
      };
}

/** The write ending a pending confirmation past its time to live. */
export function expireWriteOf(confirmation: StoredConfirmation): ConfirmationWrite {
  const target = {
    EmailAddress: confirmation.EmailAddress,
    ConfirmationId: confirmation.confirmationId,
  };
  return confirmation.Preference
    ? {
        kind: PREFERENCE_CONFIRMATION_EXPIRE_WRITE,
        body: { ...target, Preference: preferenceOf(confirmation.Preference) },
      }
    : {
        kind: CONFIRMATION_EXPIRE_WRITE,
        body: { ...target, ConsentType: confirmation.ConsentType ?? '' },
      };
}

/** Whether an ending write expired its confirmation (rather than cancelled it). */
export function isExpireWrite(kind: string | undefined): boolean {
  return kind === CONFIRMATION_EXPIRE_WRITE || kind === PREFERENCE_CONFIRMATION_EXPIRE_WRITE;
}

function preferenceOf(preference: NonNullable<StoredConfirmation['Preference']>) {
  return {
    ProgramId: preference.ProgramId,
    ChannelId: preference.ChannelId,
    FilterId: preference.FilterId,
  };
}
