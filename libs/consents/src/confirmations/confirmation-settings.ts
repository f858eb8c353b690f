import {
  type DeclaredFields,
  defineSettings,
  type EnvReader,
  PUBLIC_ORIGIN,
  publicOrigin,
  settingFields,
  SIGNING_SECRET,
} from '@app/shared';

/** The double opt-in's variables (the settings schema: README, configuration table). */
export const CONFIRMATION_SETTINGS = defineSettings('double opt-in', [
  {
    name: 'SMTP_URL',
    field: 'smtpUrl',
    type: 'text',
    trim: true,
    secret: true,
    problem: (url) =>
      /^smtps?:\/\/[^/\s]+/i.test(url) ? undefined : 'must be an smtp:// or smtps:// URL',
    meaning:
      'the SMTP server confirmation messages are sent through (smtp[s]://user:pass@host:port); unset: messages wait in the outbox and end Failed',
  },
  {
    name: 'CONFIRMATION_FROM',
    field: 'from',
    type: 'text',
    default: 'no-reply@localhost',
    trim: true,
    meaning: "the sender of confirmation messages when the client's settings name none",
  },
  {
    name: 'CONFIRMATION_SECRET',
    field: 'secret',
    ...SIGNING_SECRET,
    meaning:
      'the per-deployment secret confirmation links are signed with (HMAC-SHA-256, at least 32 characters); unset: a random key generated once and kept in the engine',
  },
  {
    name: 'CONFIRMATION_BASE_URL',
    ...PUBLIC_ORIGIN,
    meaning: 'the public origin confirmation links start with; unset: http://HOST:PORT',
  },
  {
    name: 'CONFIRMATION_MAIL_ATTEMPTS',
    field: 'maxAttempts',
    type: 'int',
    default: 6,
    atLeast: 1,
    meaning: 'SMTP attempts of a confirmation message before it is marked Failed',
  },
  {
    name: 'CONFIRMATION_MAIL_BACKOFF_MS',
    field: 'backoffMs',
    type: 'int',
    default: 2000,
    atLeast: 1,
    meaning: 'the wait after a failed SMTP attempt (doubled after each further one)',
  },
  {
    name: 'CONFIRMATION_MAIL_LEASE_MS',
    field: 'leaseMs',
    type: 'int',
    default: 60_000,
    atLeast: 100,
    meaning:
      'how long one attempt holds a confirmation message (a sender that died frees it after this)',
  },
  {
    name: 'CONFIRMATION_RESEND_LIMIT_PER_HOUR',
    field: 'resendsPerHour',
    type: 'int',
    default: 3,
    atLeast: 1,
    meaning:
      'resends of confirmation messages to one address of a client per hour (counted in Redis; while Redis is unreachable, per process)',
  },
] as const);

/** The double opt-in's settings (docs/double-opt-in.md, "Settings"). */
export class ConfirmationMailSettings implements DeclaredFields<
  typeof CONFIRMATION_SETTINGS,
  ConfirmationMailSettings
> {
  declare readonly smtpUrl: string | undefined;
  declare readonly from: string;
  declare readonly secret: string | undefined;
  readonly baseUrl: string;
  declare readonly maxAttempts: number;
  declare readonly backoffMs: number;
  declare readonly leaseMs: number;
  declare readonly resendsPerHour: number;

  constructor(env: EnvReader) {
    const read = env.read(CONFIRMATION_SETTINGS);
    Object.assign(this, settingFields(CONFIRMATION_SETTINGS, read));
    this.baseUrl =
      publicOrigin(read.CONFIRMATION_BASE_URL) ??
      `http://${env.text('HOST', '127.0.0.1')}:${env.text('PORT', '3000')}`;
  }
}
