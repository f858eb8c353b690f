import { ConsentStatus } from '@app/config';
import {
  confirmationIdOf,
  type ProfileData,
  type StoredConsent,
  type StoredConfirmationEvidence,
  type WriteContext,
} from '@app/profiles';
import { textKey } from '@app/shared';

/*
 * Double opt-in in the write path (docs/double-opt-in.md): pure, run by the consent rules
 * in the worker's fold (so the order of writes and "a refused write never applies" hold
 * as for any consent). A grant of a consent type requiring confirmation, on an email
 * address, is held: the consent keeps what it had (NotSet when new) and carries a
 * PendingConfirmation mark; the confirmation write (`consent-confirm`) applies the grant.
 */

/** What the hold needs of the consent's type. */
export interface ConfirmationTerms {
  RequiresConfirmation?: boolean;
}

/** The collection method recorded with a confirmed grant. */
export const DOUBLE_OPT_IN_METHOD = 'DoubleOptIn';

/**
 * The consent of an email address after a write settled it: what a writer cannot set
 * (PendingConfirmation, Confirmation) comes from the stored consent; a new grant of a type
 * requiring confirmation is held; a denial, revocation or deactivation cancels a pending one.
 * `carried`: the write may carry a grant's Confirmation (a merge's absorbed profile, a bulk
 * import's record; see WriteContext): such a grant is already confirmed, so it applies.
 */
export function holdForConfirmation(
  stored: StoredConsent | undefined,
  settled: StoredConsent,
  terms: ConfirmationTerms | undefined,
  emailKey: string,
  at: string,
  carried = false,
): StoredConsent {
  const consent: StoredConsent = { ...settled };
  const storedActive = stored && stored.IsActive !== false ? stored : undefined;
  // Carried evidence is new evidence: one equal to the stored consent's is what a merge of
  // the stored consent kept (a record restating nothing), not a confirmation of this grant.
  const evidence =
    carried &&
    consent.IsActive !== false &&
    consent.ConsentStatus === ConsentStatus.Granted &&
    settled.Confirmation &&
    !sameEvidence(settled.Confirmation, stored?.Confirmation)
      ? settled.Confirmation
      : undefined;
  if (evidence) {
    // Confirmed elsewhere: its evidence travels with it; a pending request it supersedes ends.
    consent.Confirmation = evidence;
    delete consent.PendingConfirmation;
    return consent;
  }
  // A merge's survivor taking over the absorbed profile's request (decideConsent keeps it
  // only where the survivor has no state of its own): the link still confirms, here.
  const takenOver =
    carried &&
    consent.IsActive !== false &&
    !storedActive?.PendingConfirmation &&
    (storedActive?.ConsentStatus ?? ConsentStatus.NotSet) === ConsentStatus.NotSet
      ? settled.PendingConfirmation
      : undefined;
  setOrDelete(consent, 'PendingConfirmation', takenOver ?? storedActive?.PendingConfirmation);
  setOrDelete(consent, 'Confirmation', stored?.Confirmation);
  if (takenOver) return consent;
  if (!terms?.RequiresConfirmation) return consent;

  const granting =
    consent.IsActive !== false &&
    consent.ConsentStatus === ConsentStatus.Granted &&
    storedActive?.ConsentStatus !== ConsentStatus.Granted;
  if (granting) {
    // The grant waits: the consent stays as it was (NotSet for a new one).
    const pending = storedActive?.PendingConfirmation ?? {
      Id: confirmationIdOf(at, emailKey, consent.ConsentType ?? ''),
      RequestedDate: at,
      ...(consent.ConsentVersion ? { ConsentVersion: consent.ConsentVersion } : {}),
      ...(consent.Locale ? { Locale: consent.Locale } : {}),
    };
    const kept: StoredConsent = storedActive
      ? { ...storedActive, Edited: consent.Edited }
      : {
          ...consent,
          ConsentStatus: ConsentStatus.NotSet,
          Expired: false,
        };
    if (!storedActive) {
      delete kept.ConsentDate;
      delete kept.ExpirationDate;
    }
    kept.PendingConfirmation = pending;
    if (stored?.Confirmation) kept.Confirmation = stored.Confirmation;
    else delete kept.Confirmation;
    return kept;
  }
  const cancelled =
    consent.IsActive === false ||
    consent.ConsentStatus === ConsentStatus.Denied ||
    consent.ConsentStatus === ConsentStatus.Revoked;
  if (cancelled) delete consent.PendingConfirmation;
  return consent;
}

const EVIDENCE_FIELDS = [
  'Method',
  'ConfirmedDate',
  'LinkId',
  'IpAddress',
  'UserAgent',
  'Evidence',
] as const satisfies readonly (keyof StoredConfirmationEvidence)[];

function sameEvidence(
  a: StoredConfirmationEvidence,
  b: StoredConfirmationEvidence | undefined,
): boolean {
  return !!b && EVIDENCE_FIELDS.every((field) => (a[field] ?? null) === (b[field] ?? null));
}

/** The system write kind that applies a confirmed grant. */
export const CONSENT_CONFIRM_WRITE = 'consent-confirm';

/** What a confirmation write carries (the `consent-confirm` write kind's body). */
export interface ConsentConfirmWrite {
  /** The email address (as stored) holding the consent. */
  EmailAddress: string;
  ConsentType: string;
  ConfirmationId: string;
  Evidence: StoredConfirmationEvidence;
}

function setOrDelete<K extends 'PendingConfirmation' | 'Confirmation'>(
  target: StoredConsent,
  field: K,
  value: StoredConsent[K],
): void {
  if (value === undefined || value === null) delete target[field];
  else target[field] = value;
}

/**
 * The `consent-confirm` write: the held grant applied, dated at the confirmation, with its
 * evidence; or undefined (nothing changes) when the consent no longer waits for this
 * confirmation (used, cancelled, the address removed): a link applies at most once.
 */
export function applyConfirmation(
  data: ProfileData,
  write: ConsentConfirmWrite,
  settle: (stored: StoredConsent, granted: StoredConsent) => StoredConsent,
  ctx: WriteContext,
): ProfileData | undefined {
  return changeWaitingConsent(data, write, (consent, pending) => {
    const granted: StoredConsent = {
      ...consent,
      ConsentStatus: ConsentStatus.Granted,
      ConsentDate: write.Evidence.ConfirmedDate,
      ...(pending.ConsentVersion ? { ConsentVersion: pending.ConsentVersion } : {}),
      ...(pending.Locale ? { Locale: pending.Locale } : {}),
      Edited: { ...consent.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId },
    };
    const settled = settle(consent, granted);
    delete settled.PendingConfirmation;
    settled.Confirmation = { ...write.Evidence, Method: DOUBLE_OPT_IN_METHOD };
    return settled;
  });
}

/** The system write kind that ends a pending confirmation past its time to live. */
export const CONFIRMATION_EXPIRE_WRITE = 'consent-confirmation-expire';

/** What an expiry write carries (the `consent-confirmation-expire` write kind's body). */
export interface ConfirmationExpireWrite {
  /** The email address (as stored) holding the consent. */
  EmailAddress: string;
  ConsentType: string;
  ConfirmationId: string;
}

/**
 * The `consent-confirmation-expire` write: the consent's PendingConfirmation mark of this
 * confirmation cleared, the consent otherwise as it was (the grant never applied); or
 * undefined (nothing changes) when the consent no longer waits for it (confirmed,
 * cancelled or asked again meanwhile: the writes of a profile apply in order).
 */
export function expirePendingConfirmation(
  data: ProfileData,
  write: ConfirmationExpireWrite,
  ctx: WriteContext,
): ProfileData | undefined {
  return changeWaitingConsent(data, write, (consent) => {
    const expired: StoredConsent = {
      ...consent,
      Edited: { ...consent.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId },
    };
    delete expired.PendingConfirmation;
    return expired;
  });
}

/**
 * The data with `change` made to the consent that waits for the write's confirmation: the
 * active consent of its type, on the active email of its address, whose PendingConfirmation
 * is that confirmation; undefined (nothing changes) when no consent waits for it.
 */
function changeWaitingConsent(
  data: ProfileData,
  write: ConfirmationExpireWrite,
  change: (
    consent: StoredConsent,
    pending: NonNullable<StoredConsent['PendingConfirmation']>,
  ) => StoredConsent,
): ProfileData | undefined {
  const emailKey = textKey(write.EmailAddress);
  const typeKey = textKey(write.ConsentType);
  let applied = false;
  const Emails = (data.Emails ?? []).map((email) => {
    if (email.IsActive === false || textKey(email.EmailAddress) !== emailKey) return email;
    const Consents = email.Consents.map((consent) => {
      const pending = consent.PendingConfirmation;
      if (
        consent.IsActive === false ||
        textKey(consent.ConsentType ?? '') !== typeKey ||
        pending?.Id !== write.ConfirmationId
      )
        return consent;
      applied = true;
      return change(consent, pending);
    });
    return { ...email, Consents };
  });
  return applied ? { ...data, Emails } : undefined;
}
