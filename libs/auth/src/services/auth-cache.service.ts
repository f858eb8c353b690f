import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisService, StampChannel } from '@app/shared';
import type { TenantClient, TenantUser } from '../domain/tenant';
import { ClientRepository } from '../repositories/client.repository';
import {
  OAuthClientRepository,
  type OAuthClientRecord,
} from '../repositories/oauth-client.repository';
import { RevokedTokenRepository } from '../repositories/revoked-token.repository';
import { UserRepository } from '../repositories/user.repository';
import { authStampKeyPrefix, userKey } from '../keys';
import { AuthSettings } from '../auth-settings';

/** Entries one process keeps per kind before it starts over (bounded memory). */
const MAX_ENTRIES = 20000;
/**
 * Stamps expire after a week untouched: a stamp created for a client id that does not
 * exist must not stay in Redis for ever, and an expired stamp only makes caches reload.
 */
const STAMP_TTL_SECONDS = 7 * 24 * 3600;

/** The stamps one request checks: its tenant's, and the revocation list's. */
export interface AuthStamps {
  tenant: string;
  revocations: string;
}

interface Cached<T> {
  stamp: string;
  value: T;
}

/** The stamp name of the revocation list (a token id is revoked across tenants). */
const REVOCATIONS = '~revocations';
/**
 * Announces a failed secret of an OAuth client id on the stamps' channel (client ids and
 * stamp names hold no ':'): processes read its failure count again while it may count.
 */
const FAILURE_ANNOUNCEMENT = 'failure:';

/**
 * What authentication reads on every request (a tenant's client record, its users, whether
 * a token id is revoked, an OAuth client's record), cached in each process and validated on
 * every use against the tenant's auth stamp in Redis, no engine command in steady state.
 * Every change of auth data (TenantAdminService) writes the engine first, then sets a new
 * random stamp for the tenant and announces it on a pub/sub channel in one MULTI, so the
 * change applies from the next request in every process. A process subscribed to the
 * channel reuses the stamps it read for AUTH_STAMP_REUSE_MS without a Redis command (a GET
 * then costs one round trip, the read model's, where reading the stamps made it two); an
 * announcement, or any loss of the subscription, drops them. The stamp read comes before
 * any engine read, so a value loaded during a change is stored under the stamp that
 * preceded it and reloaded on the next use. A missing stamp (Redis lost its data) is
 * replaced by a new random one (all caches reload, within AUTH_STAMP_REUSE_MS where stamps
 * were reused); while Redis cannot answer, every read goes to the engine.
 */
@Injectable()
export class AuthCache implements OnModuleDestroy {
  private readonly logger = new Logger('AuthCache');
  private readonly clientCache = new Map<string, Cached<TenantClient | null>>();
  private readonly userCache = new Map<string, Cached<TenantUser | null>>();
  private readonly revokedCache = new Map<string, Cached<boolean>>();
  private readonly oauthCache = new Map<string, Cached<OAuthClientRecord | null>>();
  /** Stamps read from Redis, by stamp name, reused while the channel stands. */
  private readonly readStampsAt = new Map<string, { stamp: string; at: number }>();
  private readonly channel: StampChannel;
  /** Where the stamps' keys start (built once: a stamp key is built on every request). */
  private readonly stampKeyPrefix: string;
  /** OAuth client ids announced to have failed, until their failures may have lapsed. */
  private readonly failedUntil = new Map<string, number>();
  /** Too many failing ids to remember: until then every token request reads the count. */
  private failuresOverflowUntil = 0;

  constructor(
    private readonly redis: RedisService,
    private readonly settings: AuthSettings,
    private readonly clients: ClientRepository,
    private readonly users: UserRepository,
    private readonly revokedTokens: RevokedTokenRepository,
    private readonly oauthClients: OAuthClientRepository,
  ) {
    this.stampKeyPrefix = authStampKeyPrefix(redis);
    this.channel = new StampChannel(
      (options) => redis.connect(options),
      redis.key('auth', 'stamp-changes'),
      (name) => this.announced(name),
    );
  }

  private announced(message: string | null): void {
    if (message === null) {
      this.readStampsAt.clear();
    } else if (message.startsWith(FAILURE_ANNOUNCEMENT)) {
      this.noteFailure(message.slice(FAILURE_ANNOUNCEMENT.length));
    } else {
      this.readStampsAt.delete(message);
    }
  }

  onModuleDestroy(): void {
    this.channel.stop();
  }

  /**
   * The tenant's stamp and the revocation stamp (one round trip), or null when Redis cannot
   * answer or holds none (then nothing is cached for this request).
   */
  async stamps(clientId: string): Promise<AuthStamps | null> {
    return (await this.readStamps(clientId)).stamps;
  }

  /**
   * The stamps, and the value of `extraKey` read in the same command (undefined when
   * Redis could not answer), so a caller needing one more key pays no round trip for it.
   */
  private async readStamps(
    clientId: string,
    extraKey?: string,
  ): Promise<{ stamps: AuthStamps | null; extra?: string | null }> {
    if (!this.redis.available) return { stamps: null };
    if (extraKey === undefined) {
      const reused = this.reusableNow(clientId);
      if (reused) return { stamps: reused };
    }
    const reuseMs = this.settings.authStampReuseMs;
    if (reuseMs > 0) this.channel.start();
    try {
      const generation = this.channel.generation;
      const keys = [this.stampKey(clientId), this.stampKey(REVOCATIONS)];
      if (extraKey !== undefined) keys.push(extraKey);
      const [tenant, revocations, extra] = await this.redis.client.mget(...keys);
      const stamps = tenant !== null && revocations !== null ? { tenant, revocations } : null;
      // An announcement received while the read was under way may postdate its answer.
      if (stamps && reuseMs > 0 && this.channel.healthy && this.channel.generation === generation) {
        this.keepStamp(clientId, tenant!);
        this.keepStamp(REVOCATIONS, revocations!);
      }
      return { stamps, ...(extraKey !== undefined ? { extra } : {}) };
    } catch (error) {
      this.logger.warn(`auth stamps unavailable, reading the database: ${String(error)}`);
      return { stamps: null };
    }
  }

  /**
   * After a failed secret of the OAuth client id was counted: every process (this one at
   * once, the others when the announcement arrives) reads the id's failure count again
   * for the failure window, so the throttle holds for a right secret too.
   */
  async failureCounted(oauthClientId: string, windowMs: number): Promise<void> {
    this.noteFailure(oauthClientId, windowMs);
    await this.redis.client.publish(this.channel.name, `${FAILURE_ANNOUNCEMENT}${oauthClientId}`);
  }

  private noteFailure(
    oauthClientId: string,
    windowMs = this.settings.tokenFailureWindowSeconds * 1000,
  ): void {
    const now = Date.now();
    if (this.failedUntil.size >= MAX_ENTRIES) {
      for (const [id, until] of this.failedUntil) if (until <= now) this.failedUntil.delete(id);
    }
    if (this.failedUntil.size >= MAX_ENTRIES) this.failuresOverflowUntil = now + windowMs;
    else this.failedUntil.set(oauthClientId, now + windowMs);
  }

  private mayHaveFailed(oauthClientId: string): boolean {
    const now = Date.now();
    return now < this.failuresOverflowUntil || (this.failedUntil.get(oauthClientId) ?? 0) > now;
  }

  /** The stamps last read, while they may be reused (the channel stands, and not too old). */
  private reusableNow(clientId: string): AuthStamps | null {
    const reuseMs = this.settings.authStampReuseMs;
    if (reuseMs <= 0 || !this.redis.available) return null;
    // Only processes that authenticate subscribe (not the admin CLI, which only announces).
    this.channel.start();
    if (!this.channel.healthy) return null;
    const now = Date.now();
    const tenant = this.readStampsAt.get(clientId);
    const revocations = this.readStampsAt.get(REVOCATIONS);
    if (!tenant || !revocations || now - tenant.at >= reuseMs || now - revocations.at >= reuseMs)
      return null;
    return { tenant: tenant.stamp, revocations: revocations.stamp };
  }

  private keepStamp(name: string, stamp: string): void {
    if (this.readStampsAt.size >= MAX_ENTRIES) this.readStampsAt.clear();
    this.readStampsAt.set(name, { stamp, at: Date.now() });
  }

  /**
   * Creates missing stamps (first use, or Redis lost them) with new random values, so every
   * process reloads. Called once the tenant was found in the database: a request naming a
   * client id that does not exist leaves nothing in Redis.
   */
  async establish(clientId: string): Promise<void> {
    if (!this.redis.available) return;
    try {
      for (const name of [clientId, REVOCATIONS]) {
        await this.redis.client.set(
          this.stampKey(name),
          randomUUID(),
          'EX',
          STAMP_TTL_SECONDS,
          'NX',
        );
      }
    } catch (error) {
      this.logger.warn(`auth stamps not created: ${String(error)}`);
    }
  }

  /** After a change of the tenant's auth data in the engine: every process reloads it. */
  changed(clientId: string): Promise<void> {
    return this.renew(clientId);
  }

  /** After a token revocation (any tenant: a revocation by jti names none). */
  revoked(): Promise<void> {
    return this.renew(REVOCATIONS);
  }

  /**
   * A new random stamp and its announcement, in one MULTI: a process that dies in between
   * cannot leave a new stamp that subscribed processes were not told of.
   */
  private async renew(name: string): Promise<void> {
    const results = await this.redis.client
      .multi()
      .set(this.stampKey(name), randomUUID(), 'EX', STAMP_TTL_SECONDS)
      .publish(this.channel.name, name)
      .exec();
    const failed = results?.find(([error]) => error)?.[0];
    if (!results || failed) throw failed ?? new Error('the auth stamp transaction was discarded');
    // This process reads its own change at once, not when its announcement comes back
    // (on a Redis Cluster it may reach this process's subscriber after the next request),
    // and a read under way that raced it keeps nothing.
    this.channel.generation++;
    this.announced(name);
  }

  client(clientId: string, stamps: AuthStamps | null): Promise<TenantClient | null> {
    return this.cached(this.clientCache, clientId, stamps?.tenant, () =>
      this.clients.findById(clientId),
    );
  }

  user(clientId: string, userId: string, stamps: AuthStamps | null): Promise<TenantUser | null> {
    return this.cached(this.userCache, userKey(clientId, userId), stamps?.tenant, () =>
      this.users.find(clientId, userId),
    );
  }

  /** A revocation changes the revocation stamp, so `false` is never kept past it. */
  isRevoked(jti: string, stamps: AuthStamps | null): Promise<boolean> {
    return this.cached(this.revokedCache, jti, stamps?.revocations, () =>
      this.revokedTokens.isRevoked(jti),
    );
  }

  /**
   * An OAuth client's record, with the stamps of the tenant it names as read to validate
   * it (the caller reuses them: one round trip). The record is valid while that tenant's
   * stamp is unchanged (rotating its secret changes that stamp). `failureCountKey`: the
   * Redis key of the id's failure count, read in the same command (`failures`; undefined
   * when it could not be read). With reusable stamps and no failure of the id announced
   * (see `failureCounted`), no Redis command is sent and `failures` is null.
   */
  async oauthClient(
    oauthClientId: string,
    failureCountKey?: string,
  ): Promise<{
    record: OAuthClientRecord | null;
    stamps: AuthStamps | null;
    failures?: string | null;
  }> {
    const cached = this.oauthCache.get(oauthClientId);
    if (cached?.value) {
      const reused = this.reusableNow(cached.value.clientId);
      if (reused && reused.tenant === cached.stamp && !this.mayHaveFailed(oauthClientId))
        return {
          record: cached.value,
          stamps: reused,
          ...(failureCountKey ? { failures: null } : {}),
        };
      const { stamps, extra } = await this.readStamps(cached.value.clientId, failureCountKey);
      if (stamps !== null && stamps.tenant === cached.stamp)
        return { record: cached.value, stamps, failures: extra };
    }
    const record = await this.oauthClients.findById(oauthClientId);
    if (!record) return { record, stamps: null };
    // The stamp is read after the record here, so a record read during a rotation could
    // be stored under the new stamp: read it once more, and keep it only if unchanged.
    const { stamps, extra } = await this.readStamps(record.clientId, failureCountKey);
    const again = stamps === null ? null : await this.oauthClients.findById(oauthClientId);
    if (stamps !== null && again?.secretHash === record.secretHash) {
      this.remember(this.oauthCache, oauthClientId, { stamp: stamps.tenant, value: record });
    }
    return { record, stamps, failures: extra };
  }

  /**
   * A warm request's lookups without a promise (the bearer and CUSTOMAUTH3 hot paths): the
   * stamps this process may reuse (see `reusableNow`) and the client, the user and, with a
   * token id, the revocation cached under them. Null when any of them is not warm: the
   * caller takes the asynchronous path (`stamps`, `client`, `user`, `isRevoked`), which
   * answers the same.
   */
  warm(
    clientId: string,
    userId: string,
    jti?: string,
  ): { client: TenantClient | null; user: TenantUser | null; revoked: boolean } | null {
    const stamps = this.reusableNow(clientId);
    if (!stamps) return null;
    const client = this.clientCache.get(clientId);
    const user = this.userCache.get(userKey(clientId, userId));
    if (client?.stamp !== stamps.tenant || user?.stamp !== stamps.tenant) return null;
    let revoked = false;
    if (jti !== undefined) {
      const revocation = this.revokedCache.get(jti);
      if (revocation?.stamp !== stamps.revocations) return null;
      revoked = revocation.value;
    }
    return { client: client.value, user: user.value, revoked };
  }

  private async cached<T>(
    cache: Map<string, Cached<T>>,
    key: string,
    stamp: string | undefined,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = cache.get(key);
    if (stamp !== undefined && hit?.stamp === stamp) return hit.value;
    const value = await load();
    if (stamp !== undefined) this.remember(cache, key, { stamp, value });
    return value;
  }

  private remember<T>(cache: Map<string, Cached<T>>, key: string, entry: Cached<T>): void {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, entry);
  }

  private stampKey(clientId: string): string {
    return this.stampKeyPrefix + clientId;
  }
}
