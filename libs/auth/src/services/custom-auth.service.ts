import { Injectable } from '@nestjs/common';
import {
  checkIssuedTime,
  isSignatureValid,
  parseCustomAuthHeader,
  parseIssuedTimestamp,
  type CustomAuthFailure,
} from '../domain/custom-auth';
import { type Caller, callerOf } from '../domain/tenant';
import { clientNotFoundEmpty, customAuthError } from '../auth-errors';
import { AuthCache } from './auth-cache.service';
import { AuthSettings } from '../auth-settings';

/** Verified headers one process remembers before it starts over (bounded memory). */
const MAX_VERIFIED_HEADERS = 10000;

/** What a verified header established: its issued time, under the key it was checked with. */
interface VerifiedHeader {
  issued: number;
  apiHashKey: string;
}

/** Verifies the signed CUSTOMAUTH3 header against the tenant named in the path. */
@Injectable()
export class CustomAuthService {
  /**
   * Headers whose signature this process has verified, by client id and exact text: a
   * caller signs with a timestamp of one-second precision and may send one header for many
   * requests, and the HMAC and the ISO 8601 parse were a seventh of a GET's CPU. Valid only
   * under the APIHashKey it was checked with (a rotated key checks afresh); the time window
   * and the user are still checked on every request.
   */
  private readonly verified = new Map<string, VerifiedHeader>();

  constructor(
    private readonly cache: AuthCache,
    private readonly settings: AuthSettings,
  ) {}

  /**
   * The caller, or an ApiError: 401 per failure, 404 with no body for an unknown client.
   * `pathClientId` is the `{clientId}` segment exactly as in the URL.
   */
  async authenticate(
    authorization: string | undefined,
    pathClientId: string | undefined,
    now = Date.now(),
  ): Promise<Caller> {
    const parsed = parseCustomAuthHeader(authorization);
    if (
      !parsed.ok &&
      (parsed.failure === 'missing-header' || parsed.failure === 'invalid-scheme')
    ) {
      throw this.failure(parsed.failure, parsed.schemeAsSent);
    }
    const schemeAsSent = parsed.ok ? parsed.credentials.schemeAsSent : parsed.schemeAsSent;
    const fail = (failure: CustomAuthFailure) => this.failure(failure, schemeAsSent);

    if (pathClientId === undefined) throw fail('generic');
    // Warm (the usual case): the client and the user without a promise or a Redis command.
    const warm = parsed.ok ? this.cache.warm(pathClientId, parsed.credentials.userId) : null;
    const stamps = warm ? undefined : await this.cache.stamps(pathClientId);
    const client = warm ? warm.client : await this.cache.client(pathClientId, stamps ?? null);
    if (!client) throw clientNotFoundEmpty();
    if (stamps === null) await this.cache.establish(client.clientId);
    if (!parsed.ok) throw fail('generic');

    const credentials = parsed.credentials;
    const memoKey = `${pathClientId}\n${authorization}`;
    const known = this.verified.get(memoKey);
    const remembered = known?.apiHashKey === client.apiHashKey;
    const issued = remembered ? known.issued : parseIssuedTimestamp(credentials.timestamp);
    if (issued === null) throw fail('invalid-timestamp');
    const timing = checkIssuedTime(issued, now, client.customAuthWindowSeconds);
    if (timing !== 'ok') throw fail(timing);

    const signatureValid =
      remembered ||
      isSignatureValid(
        credentials.scheme,
        {
          clientId: pathClientId,
          userId: credentials.userIdAsSent,
          timestamp: credentials.timestamp,
          key: client.apiHashKey,
        },
        credentials.signature,
      );
    if (signatureValid && !remembered) {
      if (this.verified.size >= MAX_VERIFIED_HEADERS) this.verified.clear();
      this.verified.set(memoKey, { issued, apiHashKey: client.apiHashKey });
    }
    const user = warm
      ? warm.user
      : await this.cache.user(client.clientId, credentials.userId, stamps ?? null);
    if (!signatureValid || !user || !user.isActive) throw fail('generic');
    return callerOf(client, user);
  }

  private failure(failure: CustomAuthFailure, schemeAsSent?: string) {
    return customAuthError(failure, this.settings.authRealm, schemeAsSent);
  }
}
