/**
 * What more than one lib declares alike: a whole variable (SCHEDULED_JOB_BATCH_SIZE, read by
 * two libs' settings classes) or the kind of a variable each names for itself (a public
 * origin, a signing secret), spread into its spec.
 */

/** Profiles a scheduled job reads per page: the consents' and the profiles' jobs. */
export const SCHEDULED_JOB_BATCH_SIZE = {
  name: 'SCHEDULED_JOB_BATCH_SIZE',
  field: 'scheduledJobBatchSize',
  type: 'int',
  default: 200,
  atLeast: 1,
  meaning: 'profiles a scheduled job reads per page',
} as const;

/** A public origin: http(s), a host, no path (trailing slashes dropped). */
const ORIGIN = /^https?:\/\/[^/?#\s]+$/i;

/** A public origin links start with (`publicOrigin` drops its trailing slashes). */
export const PUBLIC_ORIGIN = {
  type: 'text',
  trim: true,
  problem: (url: string) =>
    ORIGIN.test(url.replace(/\/+$/, ''))
      ? undefined
      : 'must be an http(s) origin such as https://prefs.example.com',
} as const;

/** A PUBLIC_ORIGIN variable's value without its trailing slashes. */
export function publicOrigin(url: string | undefined): string | undefined {
  return url?.replace(/\/+$/, '');
}

/** A secret links are signed with or keys derived from: never shown, at least 32 characters. */
export const SIGNING_SECRET = {
  type: 'text',
  trim: true,
  secret: true,
  problem: (secret: string) =>
    secret.length < 32 ? `must be at least 32 characters (it has ${secret.length})` : undefined,
} as const;
