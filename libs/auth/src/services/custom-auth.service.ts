import { Injectable } from '@nestjs/common';
import {
  checkIssuedTime,
  isSignatureValid,
  parseCustomAuthHeader,
  parseIssuedTimestamp,
  type CustomAuthFailure,
  type ParsedCustomAuthHeader,
} from '../domain/custom-auth';
import { type Caller, callerOf, type TenantClient, type TenantUser } from '../domain/tenant';
import { clientNotFoundEmpty, customAuthError } from '../auth-errors';
import { AuthCache } from './auth-cache.service';
import { AuthSettings } from '../auth-settings';

/** Verified headers one process remembers before it starts over (bounded memory). */
const MAX_VERIFIED_HEADERS = 10000;

/** A header as parsed when it is valid. */
type ParsedCredentials = Extract<ParsedCustomAuthHeader, { ok: true }>;

/** What a verified header established: its parse and issued time, under the key it was checked with. */
interface VerifiedHeader {
  parsed: ParsedCredentials;
  issued: number;
  apiHashKey: string;
}

/** Verifies the signed CUSTOMAUTH3 header against the tenant named in the path. */
@Injectable()
export class CustomAuthService {
  /**
   * Headers whose signature this process has verified, by client id and exact text: a
   * caller signs with a timestamp of one-second precision and may send one header for many
   * requests, and the HMAC, the ISO 8601 parse and the header's parse were a seventh of a
   * GET's CPU. Valid only under the APIHashKey it was checked with (a rotated key checks
   * afresh); the time window and the user are still checked on every request.
   */
  private readonly verified = new Map<string, VerifiedHeader>();

  constructor(
    private readonly cache: AuthCache,
    private readonly settings: AuthSettings,
  ) {}

  /**
   * The caller, or an ApiError: 401 per failure, 404 with no body for an unknown client.
   * `pathClientId` is the `{clientId}` segment exactly as in the URL. Answered without a
   * promise when the client and the user are warm in the AuthCache (the usual case).
   */
  authenticate(
    authorization: string | undefined,
    pathClientId: string | undefined,
    now = Date.now(),
  ): Caller | Promise<Caller> {
    const memoKey = `${pathClientId}\n${authorization}`;
    const known = pathClientId === undefined ? undefined : this.verified.get(memoKey);
    const parsed = known ? known.parsed : parseCustomAuthHeader(authorization);
    if (
      !parsed.ok &&
      (parsed.failure === 'missing-header' || parsed.failure === 'invalid-scheme')
    ) {
      throw this.failure(parsed.failure, parsed.schemeAsSent);
    }
    if (pathClientId === undefined) throw this.failure('generic', schemeAsSentOf(parsed));
    if (parsed.ok) {
      // Warm: the client and the user without a promise or a Redis command.
      const warm = this.cache.warm(pathClientId, parsed.credentials.userId);
      if (warm) {
        if (!warm.client) throw clientNotFoundEmpty();
        const valid = this.checkSignature(parsed, pathClientId, memoKey, known, warm.client, now);
        return this.admitted(valid, warm.client, warm.user, parsed);
      }
    }
    return this.authenticateCold(parsed, pathClientId, memoKey, known, now);
  }

  /** `authenticate` with the client, the user and their stamps looked up. */
  private async authenticateCold(
    parsed: ParsedCustomAuthHeader,
    pathClientId: string,
    memoKey: string,
    known: VerifiedHeader | undefined,
    now: number,
  ): Promise<Caller> {
    const stamps = await this.cache.stamps(pathClientId);
    const client = await this.cache.client(pathClientId, stamps);
    if (!client) throw clientNotFoundEmpty();
    if (stamps === null) await this.cache.establish(client.clientId);
    if (!parsed.ok) throw this.failure('generic', parsed.schemeAsSent);
    const valid = this.checkSignature(parsed, pathClientId, memoKey, known, client, now);
    const user = await this.cache.user(client.clientId, parsed.credentials.userId, stamps);
    return this.admitted(valid, client, user, parsed);
  }

  /**
   * Whether the signature is the client's (remembered per header and key); throws for a
   * timestamp that is malformed or outside the client's window.
   */
  private checkSignature(
    parsed: ParsedCredentials,
    pathClientId: string,
    memoKey: string,
    known: VerifiedHeader | undefined,
    client: TenantClient,
    now: number,
  ): boolean {
    const credentials = parsed.credentials;
    const remembered = known?.apiHashKey === client.apiHashKey;
    const issued = remembered ? known.issued : parseIssuedTimestamp(credentials.timestamp);
    if (issued === null) throw this.failure('invalid-timestamp', credentials.schemeAsSent);
    const timing = checkIssuedTime(issued, now, client.customAuthWindowSeconds);
    if (timing !== 'ok') throw this.failure(timing, credentials.schemeAsSent);

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
      this.verified.set(memoKey, { parsed, issued, apiHashKey: client.apiHashKey });
    }
    return signatureValid;
  }

  /** The caller of a valid signature by an active user; else the generic 401. */
  private admitted(
    signatureValid: boolean,
    client: TenantClient,
    user: TenantUser | null,
    parsed: ParsedCredentials,
  ): Caller {
    if (!signatureValid || !user || !user.isActive) {
      throw this.failure('generic', parsed.credentials.schemeAsSent);
    }
    return callerOf(client, user);
  }

  private failure(failure: CustomAuthFailure, schemeAsSent?: string) {
    return customAuthError(failure, this.settings.authRealm, schemeAsSent);
  }
}

function schemeAsSentOf(parsed: ParsedCustomAuthHeader): string | undefined {
  return parsed.ok ? parsed.credentials.schemeAsSent : parsed.schemeAsSent;
}
