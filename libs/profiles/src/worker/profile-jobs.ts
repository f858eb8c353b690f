import { defineJob, defineScheduledJob, type JobLane } from '@app/shared';

/** What an apply-profile-writes job carries. */
export interface ApplyProfileWritesPayload {
  clientId: string;
  profileId: number;
  /** The accepted write that brought the job (absent from the sweeper's jobs). */
  seq?: number;
  /** How many times it found the profile's lease taken and was put back. */
  busy?: number;
  /** The lane it was added to; absent: interactive. A job put back keeps its lane. */
  lane?: JobLane;
}

/** Apply the accepted writes of one profile, in sequence order (both lanes). */
export const APPLY_PROFILE_WRITES = defineJob<ApplyProfileWritesPayload>({
  name: 'apply-profile-writes',
  lanes: 'both',
});

/** Scheduled: mark consents and preferences past their ExpirationDate as expired. */
export const CONSENT_EXPIRY = defineScheduledJob({
  name: 'consent-expiry',
  intervalSetting: 'consentExpiryIntervalMs',
});

/** Scheduled: the configuration's outbox (new consent versions, consent-type renames). */
export const CONSENT_VERSION_NOTIFICATION = defineScheduledJob({
  name: 'consent-version-notification',
  intervalSetting: 'consentVersionIntervalMs',
});

/** Scheduled: apply do-not-contact list changes to the profiles holding the values. */
export const DO_NOT_CONTACT_PROPAGATION = defineScheduledJob({
  name: 'do-not-contact-propagation',
  intervalSetting: 'dncPropagationIntervalMs',
});

/** Every job of the profiles module, for the apps to hand to QueueModule. */
export const PROFILE_JOBS = [
  APPLY_PROFILE_WRITES,
  CONSENT_EXPIRY,
  CONSENT_VERSION_NOTIFICATION,
  DO_NOT_CONTACT_PROPAGATION,
];
