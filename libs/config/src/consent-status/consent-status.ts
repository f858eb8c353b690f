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
