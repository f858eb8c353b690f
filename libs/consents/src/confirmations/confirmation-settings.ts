import { defineSettings, type EnvReader } from '@app/shared';

/** A public origin: http(s), a host, no path (trailing slashes dropped). */
const ORIGIN = /^https?:\/\/[^/?#\s]+$/i;

/** The double opt-in's variables (the settings schema: README, configuration table). */
export const CONFIRMATION_SETTINGS = defineSettings('double opt-in', [
  {
    name: 'SMTP_URL',
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
    type: 'text',
    default: 'no-reply@localhost',
    trim: true,
    meaning: "the sender of confirmation messages when the client's settings name none",
  },
  {
    name: 'CONFIRMATION_SECRET',
    type: 'text',
    trim: true,
    secret: true,
    problem: (secret) =>
      secret.length < 32 ? `must be at least 32 characters (it has ${secret.length})` : undefined,
    meaning:
      'the per-deployment secret confirmation links are signed with (HMAC-SHA-256, at least 32 characters); unset: a random key generated once and kept in the engine',
  },
  {
    name: 'CONFIRMATION_BASE_URL',
    type: 'text',
    trim: true,
    problem: (url) =>
      ORIGIN.test(url.replace(/\/+$/, ''))
        ? undefined
        : 'must be an http(s) origin such as https://prefs.example.com',
    meaning: 'the public origin confirmation links start with; unset: http://HOST:PORT',
  },
  {
    name: 'CONFIRMATION_MAIL_ATTEMPTS',
    type: 'int',
    default: 6,
    atLeast: 1,
    meaning: 'SMTP attempts of a confirmation message before it is marked Failed',
  },
  {
    name: 'CONFIRMATION_MAIL_BACKOFF_MS',
    type: 'int',
    default: 2000,
    atLeast: 1,
    meaning: 'the wait after a failed SMTP attempt (doubled after each further one)',
  },
  {
    name: 'CONFIRMATION_MAIL_LEASE_MS',
    type: 'int',
    default: 60_000,
    atLeast: 100,
    meaning:
      'how long one attempt holds a confirmation message (a sender that died frees it after this)',
  },
  {
    name: 'CONFIRMATION_RESEND_LIMIT_PER_HOUR',
    type: 'int',
    default: 3,
    atLeast: 1,
    meaning:
      'resends of confirmation messages to one address of a client per hour (counted in Redis; while Redis is unreachable, per process)',
  },
] as const);

/** The double opt-in's settings (docs/double-opt-in.md, "Settings"). */
export class ConfirmationMailSettings {
  readonly smtpUrl: string | undefined;
  readonly from: string;
  readonly secret: string | undefined;
  readonly baseUrl: string;
  readonly maxAttempts: number;
  readonly backoffMs: number;
  readonly leaseMs: number;
  readonly resendsPerHour: number;

  constructor(env: EnvReader) {
    const read = env.read(CONFIRMATION_SETTINGS);
    this.smtpUrl = read.SMTP_URL;
    this.from = read.CONFIRMATION_FROM;
    this.secret = read.CONFIRMATION_SECRET;
    this.baseUrl =
      read.CONFIRMATION_BASE_URL?.replace(/\/+$/, '') ??
      `http://${env.text('HOST', '127.0.0.1')}:${env.text('PORT', '3000')}`;
    this.maxAttempts = read.CONFIRMATION_MAIL_ATTEMPTS;
    this.backoffMs = read.CONFIRMATION_MAIL_BACKOFF_MS;
    this.leaseMs = read.CONFIRMATION_MAIL_LEASE_MS;
    this.resendsPerHour = read.CONFIRMATION_RESEND_LIMIT_PER_HOUR;
  }
}
