import Redis, { Cluster, type RedisOptions } from 'ioredis';
import type { Settings } from '../settings/settings';

/** A connection to the service's Redis: one Redis, or a client of a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/**
 * How a connection behaves, whichever kind it is (each option goes where ioredis takes it:
 * on a cluster, some are the cluster client's and the rest each node connection's).
 */
export interface RedisConnectionOptions {
  commandTimeout?: number;
  /** null: retried until it succeeds (Bull's blocking and subscriber connections). */
  maxRetriesPerRequest?: number | null;
  enableOfflineQueue?: boolean;
  enableReadyCheck?: boolean;
  lazyConnect?: boolean;
  enableAutoPipelining?: boolean;
  autoResubscribe?: boolean;
  connectionName?: string;
}

/** How often a cluster client reads the slot map again (one CLUSTER SLOTS). */
const SLOTS_REFRESH_INTERVAL_MS = 5000;

/**
 * A new connection to the Redis the settings name: REDIS_URL's, or with REDIS_CLUSTER_NODES
 * an ioredis `Cluster` seeded with those nodes and REDIS_URL's (the URL's password, user
 * and `rediss:` TLS apply to every node; a cluster has no database number). Every
 * connection of the service is made here, so a cluster is used everywhere or nowhere.
 */
export function connectRedis(settings: Settings, options: RedisConnectionOptions): RedisClient {
  if (!settings.redisClusterNodes.length) return new Redis(settings.redisUrl, options);
  const { enableOfflineQueue, enableReadyCheck, lazyConnect, enableAutoPipelining, ...perNode } =
    options;
  const url = new URL(settings.redisUrl);
  const seed = { host: url.hostname, port: Number(url.port || 6379) };
  return new Cluster([seed, ...settings.redisClusterNodes], {
    // After a failover a batch of commands to several slots of the old master fails with
    // MOVED and is not retried, nor does it refresh the slot map (ioredis retries a
    // pipeline only when every command got the same redirection), so the map is refreshed
    // on a timer too: a stale map lasts at most this long.
    slotsRefreshInterval: SLOTS_REFRESH_INTERVAL_MS,
    enableOfflineQueue,
    enableReadyCheck,
    lazyConnect,
    enableAutoPipelining,
    redisOptions: { ...nodeCredentials(url), ...perNode },
  });
}

/** The part of REDIS_URL that every node of a cluster takes: credentials and TLS. */
function nodeCredentials(url: URL): Pick<RedisOptions, 'username' | 'password' | 'tls'> {
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/**
 * The connections that hold keys: every master of a cluster, or the one Redis. Commands
 * that act on one node's keyspace (SCAN, KEYS, FLUSHDB, DBSIZE, INFO) run on each.
 */
export function masterNodes(client: RedisClient): Redis[] {
  return client instanceof Cluster ? client.nodes('master') : [client];
}
