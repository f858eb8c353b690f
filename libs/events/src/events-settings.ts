import type { EnvReader } from '@app/shared';

/** The events module's settings (README, configuration table). */
export class EventsSettings {
  /** Subscriptions a client may hold (the notes name no number). */
  readonly maxSubscriptions: number;
  /**
   * Operators only (tests, a receiver on the same host): allow `http:` URLs and targets on
   * loopback, private and link-local addresses, which are refused otherwise (SSRF).
   */
  readonly allowPrivateTargets: boolean;

  constructor(env: EnvReader) {
    this.maxSubscriptions = env.int('EVENTS_MAX_SUBSCRIPTIONS', 25, 1);
    this.allowPrivateTargets = env.bool('EVENTS_ALLOW_PRIVATE_TARGETS', false);
  }
}
