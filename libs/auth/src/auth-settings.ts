import { Global, Module } from '@nestjs/common';
import {
  ClientRateLimits,
  type DeclaredFields,
  defineSettings,
  type EnvReader,
  QuotaMeters,
  settingsProvider,
} from '@app/shared';

/** The auth module's variables (the settings schema: README, configuration table). */
export const AUTH_SETTINGS = defineSettings('auth', [
  {
    name: 'JWT_SECRET',
    field: 'jwtSecret',
    type: 'text',
    required: true,
    secret: true,
    documentedDefault: 'generated once into `.data/jwt-secret`',
    meaning: 'HS256 key of access tokens; the same for every api process',
  },
  {
    name: 'AUTH_REALM',
    field: 'authRealm',
    type: 'text',
    default: 'Profiles',
    meaning: 'realm named in WWW-Authenticate',
  },
  {
    name: 'AUTH_STAMP_REUSE_MS',
    field: 'authStampReuseMs',
    type: 'int',
    default: 1000,
    meaning: 'how long an api process reuses the auth stamps it read (0: read on every request)',
  },
  {
    name: 'TOKEN_FAILURE_LIMIT',
    field: 'tokenFailureLimit',
    type: 'int',
    default: 10,
    atLeast: 1,
    meaning: 'failed token authentications of one OAuth client id before 429',
  },
  {
    name: 'TOKEN_FAILURE_WINDOW_SECONDS',
    field: 'tokenFailureWindowSeconds',
    type: 'int',
    default: 60,
    atLeast: 1,
    meaning: 'the window those failures are counted in, and the longest throttle',
  },
  {
    name: 'TOKEN_FAILURE_LIMIT_PER_ADDRESS',
    field: 'tokenFailureLimitPerAddress',
    type: 'int',
    default: 30,
    atLeast: 1,
    meaning: 'failed token authentications from one address before 429',
  },
  {
    name: 'NOTIFY_AUTH_CHANGES',
    field: 'notifyAuthChanges',
    type: 'bool',
    default: true,
    meaning: 'announce auth changes to running api processes',
  },
] as const);

/** The auth module's settings (README, configuration table). */
export class AuthSettings implements DeclaredFields<typeof AUTH_SETTINGS, AuthSettings> {
  /** Key that signs and verifies access tokens (HS256). */
  declare readonly jwtSecret: string;
  /** Realm named in WWW-Authenticate headers. */
  declare readonly authRealm: string;
  /**
   * How long an api process reuses the auth stamps it read while it receives their change
   * announcements (0: read them on every request). Bounds the life of a change that was
   * not announced (a stamp lost by Redis while the engine changed behind it).
   */
  declare readonly authStampReuseMs: number;
  /** Failed token authentications of one OAuth client id before it is throttled (429). */
  declare readonly tokenFailureLimit: number;
  /** The window, in seconds, those failures are counted in (and the longest throttle). */
  declare readonly tokenFailureWindowSeconds: number;
  /** Failed token authentications from one address (any client ids) before it is throttled. */
  declare readonly tokenFailureLimitPerAddress: number;
  /**
   * Whether auth changes made by this process are announced to the running api processes
   * (the auth stamps in Redis); the admin CLI turns it off when no stack is running.
   */
  declare readonly notifyAuthChanges: boolean;

  constructor(env: EnvReader) {
    Object.assign(this, env.fields(AUTH_SETTINGS));
  }
}

/**
 * Global: what the guards of `@ApiAuth` read wherever it guards a controller: the auth
 * settings and the process's one `ClientRateLimits`; and the process's `QuotaMeters`, where
 * each lib that enforces a quota registers its meter. The worker imports it too: the
 * configuration areas it reads bring their controllers (never served there).
 */
@Global()
@Module({
  providers: [settingsProvider(AuthSettings), ClientRateLimits, QuotaMeters],
  exports: [AuthSettings, ClientRateLimits, QuotaMeters],
})
export class ApiAuthSupportModule {}
