/** The four consent statuses of the spec, with their wire values. */
export enum ConsentStatus {
  Granted = 1,
  Denied = 2,
  Revoked = 3,
  NotSet = 4,
}

export const CONSENT_STATUS_VALUES = [
  ConsentStatus.Granted,
  ConsentStatus.Denied,
  ConsentStatus.Revoked,
  ConsentStatus.NotSet,
];

/** What each status means, for the schemas of the fields that carry one. */
export const CONSENT_STATUS_DESCRIPTION =
  '1 Granted (the person agreed), 2 Denied (the person refused when asked), 3 Revoked (a consent given before was withdrawn, ' +
  'also by a do-not-contact listing), 4 NotSet (no answer recorded)';
