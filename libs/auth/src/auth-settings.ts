import { Global, Module } from '@nestjs/common';
import { ClientRateLimits, type EnvReader, settingsProvider } from '@app/shared';

/** The auth module's settings (README, configuration table). */
export class AuthSettings {
  /** Key that signs and verifies access tokens (HS256). */
  readonly jwtSecret: string;
  /** Realm named in WWW-Authenticate headers. */
  readonly authRealm: string;
  /**
   * How long an api process reuses the auth stamps it read while it receives their change
   * announcements (0: read them on every request). Bounds the life of a change that was
   * not announced (a stamp lost by Redis while the engine changed behind it).
   */
  readonly authStampReuseMs: number;
  /** Failed token authentications of one OAuth client id before it is throttled (429). */
  readonly tokenFailureLimit: number;
  /** The window, in seconds, those failures are counted in (and the longest throttle). */
  readonly tokenFailureWindowSeconds: number;
  /** Failed token authentications from one address (any client ids) before it is throttled. */
  readonly tokenFailureLimitPerAddress: number;
  /**
   * Whether auth changes made by this process are announced to the running api processes
   * (the auth stamps in Redis); the admin CLI turns it off when no stack is running.
   */
  readonly notifyAuthChanges: boolean;

  constructor(env: EnvReader) {
    this.jwtSecret = env.required('JWT_SECRET');
    this.authRealm = env.text('AUTH_REALM', 'Profiles');
    this.authStampReuseMs = env.int('AUTH_STAMP_REUSE_MS', 1000);
    this.tokenFailureLimit = env.int('TOKEN_FAILURE_LIMIT', 10, 1);
    this.tokenFailureWindowSeconds = env.int('TOKEN_FAILURE_WINDOW_SECONDS', 60, 1);
    this.tokenFailureLimitPerAddress = env.int('TOKEN_FAILURE_LIMIT_PER_ADDRESS', 30, 1);
    this.notifyAuthChanges = env.bool('NOTIFY_AUTH_CHANGES', true);
  }
}

/**
 * Global: what the guards of `@ApiAuth` read wherever it guards a controller: the auth
 * settings and the process's one `ClientRateLimits`. The worker imports it too: the
 * configuration areas it reads bring their controllers (never served there).
 */
@Global()
@Module({
  providers: [settingsProvider(AuthSettings), ClientRateLimits],
  exports: [AuthSettings, ClientRateLimits],
})
export class ApiAuthSupportModule {}
