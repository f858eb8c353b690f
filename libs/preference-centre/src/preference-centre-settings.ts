import {
  type DeclaredFields,
  defineSettings,
  type EnvReader,
  PUBLIC_ORIGIN,
  publicOrigin,
  settingFields,
  SIGNING_SECRET,
} from '@app/shared';

/** A calendar date, YYYY-MM-DD. */
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The day this service began honouring Global Privacy Control (the default lastUpdate). */
export const GPC_SUPPORT_SINCE = '2026-11-28';

/** The preference centre's variables (the settings schema: README, configuration table). */
export const PREFERENCE_CENTRE_SETTINGS = defineSettings(
  'preference-centre',
  [
    {
      name: 'PREFERENCE_CENTRE_LINK_DAYS',
      field: 'linkDays',
      type: 'int',
      default: 30,
      atLeast: 1,
      meaning: 'days a link stays valid when its request gives no ExpiresInDays',
    },
    {
      name: 'PREFERENCE_CENTRE_MAX_LINK_DAYS',
      field: 'maxLinkDays',
      type: 'int',
      default: 400,
      atLeast: 1,
      meaning: 'the longest ExpiresInDays a link may be given',
    },
    {
      name: 'PREFERENCE_CENTRE_SECRET',
      field: 'secret',
      ...SIGNING_SECRET,
      meaning: 'the secret the per-client link keys are derived from (at least 32 characters)',
    },
    {
      name: 'PREFERENCE_CENTRE_BASE_URL',
      ...PUBLIC_ORIGIN,
      meaning: 'the public origin the links start with; unset: that of the request',
    },
    {
      name: 'GPC_LAST_UPDATE',
      field: 'gpcLastUpdate',
      type: 'text',
      default: GPC_SUPPORT_SINCE,
      trim: true,
      problem: (date) =>
        DATE.test(date) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date)
          ? undefined
          : 'must be a date written YYYY-MM-DD',
      meaning:
        'the lastUpdate of /.well-known/gpc.json: when the statement of Global Privacy Control support was made',
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
export class PreferenceCentreSettings implements DeclaredFields<
  typeof PREFERENCE_CENTRE_SETTINGS,
  PreferenceCentreSettings
> {
  /** Days a link made without ExpiresInDays stays valid (PREFERENCE_CENTRE_LINK_DAYS). */
  declare readonly linkDays: number;
  /** The longest lifetime a link may be given, in days (PREFERENCE_CENTRE_MAX_LINK_DAYS). */
  declare readonly maxLinkDays: number;
  /**
   * The service's secret the per-client link keys are derived from (HMAC-SHA-256 of the
   * client id; PREFERENCE_CENTRE_SECRET, at least 32 characters). Unset: each client gets a
   * random key, generated once and kept in the engine (preference_centre_keys).
   */
  declare readonly secret: string | undefined;
  /**
   * The public origin the links start with (PREFERENCE_CENTRE_BASE_URL, e.g.
   * https://prefs.example.com). Unset: the origin the operator's request came to.
   */
  readonly baseUrl: string | undefined;
  /** The lastUpdate of /.well-known/gpc.json (GPC_LAST_UPDATE, YYYY-MM-DD). */
  declare readonly gpcLastUpdate: string;

  constructor(env: EnvReader) {
    const read = env.read(PREFERENCE_CENTRE_SETTINGS);
    Object.assign(this, settingFields(PREFERENCE_CENTRE_SETTINGS, read));
    this.baseUrl = publicOrigin(read.PREFERENCE_CENTRE_BASE_URL);
  }
}
