/** Channels a consent type can be bound to (the contact element channels of the spec). */
export const CONSENT_CHANNELS = ['Email', 'Phone', 'SMS', 'Mail'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];
