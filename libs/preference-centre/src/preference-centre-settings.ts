import { defineSettings, type EnvReader } from '@app/shared';

/** A public origin: http(s), a host, no path (trailing slashes dropped). */
const ORIGIN = /^https?:\/\/[^/?#\s]+$/i;

/** The preference centre's variables (the settings schema: README, configuration table). */
export const PREFERENCE_CENTRE_SETTINGS = defineSettings(
  'preference-centre',
  [
    {
      name: 'PREFERENCE_CENTRE_LINK_DAYS',
      type: 'int',
      default: 30,
      atLeast: 1,
      meaning: 'days a link stays valid when its request gives no ExpiresInDays',
    },
    {
      name: 'PREFERENCE_CENTRE_MAX_LINK_DAYS',
      type: 'int',
      default: 400,
      atLeast: 1,
      meaning: 'the longest ExpiresInDays a link may be given',
    },
    {
      name: 'PREFERENCE_CENTRE_SECRET',
      type: 'text',
      trim: true,
      secret: true,
      problem: (secret) =>
        secret.length < 32 ? `must be at least 32 characters (it has ${secret.length})` : undefined,
      meaning: 'the secret the per-client link keys are derived from (at least 32 characters)',
    },
    {
      name: 'PREFERENCE_CENTRE_BASE_URL',
      type: 'text',
      trim: true,
      problem: (url) =>
        ORIGIN.test(url.replace(/\/+$/, ''))
          ? undefined
          : 'must be an http(s) origin such as https://prefs.example.com',
      meaning: 'the public origin the links start with; unset: that of the request',
    },
  ] as const,
  (values) =>
    values.PREFERENCE_CENTRE_LINK_DAYS > values.PREFERENCE_CENTRE_MAX_LINK_DAYS
      ? [
          {
            name: 'PREFERENCE_CENTRE_LINK_DAYS',
            value: String(values.PREFERENCE_CENTRE_LINK_DAYS),
            message: `must not exceed PREFERENCE_CENTRE_MAX_LINK_DAYS (value ${values.PREFERENCE_CENTRE_MAX_LINK_DAYS})`,
          },
        ]
      : [],
);

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
    const read = env.read(PREFERENCE_CENTRE_SETTINGS);
    this.linkDays = read.PREFERENCE_CENTRE_LINK_DAYS;
    this.maxLinkDays = read.PREFERENCE_CENTRE_MAX_LINK_DAYS;
    this.secret = read.PREFERENCE_CENTRE_SECRET;
    this.baseUrl = read.PREFERENCE_CENTRE_BASE_URL?.replace(/\/+$/, '');
  }
}
