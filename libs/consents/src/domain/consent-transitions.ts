import { ConsentStatus } from '@app/config';

/*
 * The allowed changes of a consent's status (the spec leaves them open). One consent is
 * one consent type in one container (the profile, or one contact element).
 *
 * - NotSet means "never answered": a consent may start there, and leave it for an answer
 *   (Granted, Denied), but no answer goes back to it.
 * - Granted can only be withdrawn, with Revoked: Denied would hide that a grant existed.
 * - Revoked and Denied both mean "no consent"; Revoked says a grant was withdrawn, Denied
 *   that none was given. Only a new grant leaves them (Revoked → Denied would relabel a
 *   withdrawal as a refusal; Denied → Revoked withdraws nothing).
 * - A consent that does not exist yet starts in any status but Revoked: nothing was
 *   granted, so nothing can be revoked.
 * - Restating the same status is always allowed (Granted → Granted is a re-consent, e.g.
 *   on a new version or at a new ConsentDate).
 */
const ALLOWED_FROM: Record<ConsentStatus, (ConsentStatus | 'new')[]> = {
  [ConsentStatus.Granted]: [
    'new',
    ConsentStatus.Granted,
    ConsentStatus.Denied,
    ConsentStatus.Revoked,
    ConsentStatus.NotSet,
  ],
  [ConsentStatus.Denied]: ['new', ConsentStatus.Denied, ConsentStatus.NotSet],
  [ConsentStatus.Revoked]: [ConsentStatus.Granted, ConsentStatus.Revoked],
  [ConsentStatus.NotSet]: ['new', ConsentStatus.NotSet],
};

/** Why each refused change is refused (the reason ends the 400 message). */
const REFUSAL_REASON: Record<ConsentStatus, (from: ConsentStatus | 'new') => string> = {
  [ConsentStatus.Granted]: () => 'a consent can always be granted',
  [ConsentStatus.Denied]: (from) =>
    from === ConsentStatus.Granted
      ? 'a granted consent is withdrawn with Revoked (3)'
      : 'only a consent never answered (new or NotSet) can be denied; a new answer after a refusal or a withdrawal is Granted (1)',
  [ConsentStatus.Revoked]: (from) =>
    from === 'new'
      ? 'the consent was never granted, so there is nothing to revoke'
      : 'only a granted consent can be revoked',
  [ConsentStatus.NotSet]: () => 'an answered consent cannot go back to NotSet',
};

/** The status name and wire value, for messages: `Granted (1)`. */
export function consentStatusLabel(status: ConsentStatus | 'new'): string {
  if (status === 'new') return 'no consent';
  const name = ConsentStatus[status] as string | undefined;
  return name ? `${name} (${status})` : String(status);
}

export function isConsentStatus(value: unknown): value is ConsentStatus {
  return typeof value === 'number' && ConsentStatus[value] !== undefined;
}

/** Whether a consent may change from `from` ('new': it does not exist yet) to `to`. */
export function isAllowedConsentTransition(
  from: ConsentStatus | 'new',
  to: ConsentStatus,
): boolean {
  return ALLOWED_FROM[to].includes(from);
}

/**
 * The refusal of a status change, or null when it is allowed: `Granted (1) → Denied (2)
 * is not allowed: a granted consent is withdrawn with Revoked (3)`.
 */
export function consentTransitionRefusal(
  from: ConsentStatus | 'new',
  to: ConsentStatus,
): string | null {
  if (isAllowedConsentTransition(from, to)) return null;
  return `${consentStatusLabel(from)} → ${consentStatusLabel(to)} is not allowed: ${REFUSAL_REASON[to](from)}`;
}
