import type { EnvReader } from '@app/shared';

/** The preference centre's settings (README, configuration table; docs/preference-centre.md). */
export class PreferenceCentreSettings {
  /** Days a link made without ExpiresInDays stays valid (PREFERENCE_CENTRE_LINK_DAYS). */
  readonly linkDays: number;
  /** The longest lifetime a link may be given, in days (PREFERENCE_CENTRE_MAX_LINK_DAYS). */
  readonly maxLinkDays: number;
  /**
   * The service's secret the per-client link keys are derived from (HMAC-SHA-256 of the
   * client id; PREFERENCE_CENTRE_SECRET, at least 32 characters). Unset: each client gets a
   * random key, generated once and kept in the engine (preference_centre_keys).
   */
  readonly secret: string | undefined;
  /**
   * The public origin the links start with (PREFERENCE_CENTRE_BASE_URL, e.g.
   * https://prefs.example.com). Unset: the origin the operator's request came to.
   */
  readonly baseUrl: string | undefined;

  constructor(env: EnvReader) {
    this.linkDays = env.int('PREFERENCE_CENTRE_LINK_DAYS', 30, 1);
    this.maxLinkDays = env.int('PREFERENCE_CENTRE_MAX_LINK_DAYS', 400, 1);
    if (this.linkDays > this.maxLinkDays)
      throw new Error(
        `PREFERENCE_CENTRE_LINK_DAYS (value ${this.linkDays}) must not exceed PREFERENCE_CENTRE_MAX_LINK_DAYS (value ${this.maxLinkDays})`,
      );
    const secret = env.optional('PREFERENCE_CENTRE_SECRET')?.trim() || undefined;
    if (secret !== undefined && secret.length < 32)
      throw new Error(
        `PREFERENCE_CENTRE_SECRET must be at least 32 characters (it has ${secret.length})`,
      );
    this.secret = secret;
    const baseUrl = env.optional('PREFERENCE_CENTRE_BASE_URL')?.trim() || undefined;
    if (baseUrl !== undefined && !/^https?:\/\/[^/?#\s]+$/i.test(baseUrl.replace(/\/+$/, '')))
      throw new Error(
        `PREFERENCE_CENTRE_BASE_URL (value ${JSON.stringify(baseUrl)}) must be an http(s) origin such as https://prefs.example.com`,
      );
    this.baseUrl = baseUrl?.replace(/\/+$/, '');
  }
}
