import {
  type DeclaredFields,
  defineSettings,
  type EnvReader,
  SCHEDULED_JOB_BATCH_SIZE,
} from '@app/shared';

/** The profiles module's variables (the settings schema: README, configuration table). */
export const PROFILE_SETTINGS = defineSettings('profiles', [
  {
    name: 'SWEEP_INTERVAL_MS',
    field: 'sweepIntervalMs',
    type: 'int',
    default: 30000,
    meaning: 'how often the worker looks for accepted writes no job carries',
  },
  {
    name: 'STALE_WRITE_MS',
    field: 'staleWriteMs',
    type: 'int',
    default: 60000,
    meaning: 'age after which a pending write is re-enqueued',
  },
  {
    name: 'MAX_WRITE_ATTEMPTS',
    field: 'maxWriteAttempts',
    type: 'int',
    default: 5,
    meaning: 'attempts before a write failing with an unexpected error is marked failed',
  },
  {
    name: 'WRITE_RECORDS_KEPT',
    field: 'writeRecordsKept',
    type: 'int',
    default: 20,
    atLeast: 1,
    meaning: 'records of applied writes kept per profile (GET .../Updates)',
  },
  SCHEDULED_JOB_BATCH_SIZE,
  {
    name: 'SEARCH_CANDIDATE_LIMIT',
    field: 'searchCandidateLimit',
    type: 'int',
    default: 5000,
    atLeast: 1,
    meaning: 'candidate profiles one search may read from the key index before a 403',
  },
  {
    name: 'READ_MODEL_TTL_SECONDS',
    field: 'readModelTtlSeconds',
    type: 'int',
    default: 3600,
    meaning:
      "how long a profile's read model stays in Redis after its last write or rebuild (0: for ever); a GET after that rebuilds it from the engine",
  },
  {
    name: 'READ_MODEL_WAIT_REPLICAS',
    field: 'readModelWaitReplicas',
    type: 'int',
    default: 0,
    atLeast: 0,
    meaning:
      "replicas of the read model's Redis node that must hold an accepted write's record before its 202 (Redis WAIT): 1 with replicas, so that a failover cannot lose it and make GET answer Complete while the write waits; 0: not waited for",
  },
  {
    name: 'READ_MODEL_WAIT_TIMEOUT_MS',
    field: 'readModelWaitTimeoutMs',
    type: 'int',
    default: 100,
    atLeast: 1,
    meaning:
      'how long an acceptance waits for those replicas; past it the write is answered all the same, and counted in pcp_read_model_unreplicated_writes_total',
  },
  {
    name: 'REDIS_REPAIR_WINDOW_MS',
    field: 'redisRepairWindowMs',
    type: 'int',
    default: 60000,
    atLeast: 0,
    meaning:
      "how far back a worker re-derives, from the engine, the search keys, read models and due expiries of the profiles it saved when a Redis node failed over or came back (longer than the cluster's cluster-node-timeout plus a few seconds; 0: not kept)",
  },
  {
    name: 'SEARCH_INDEX_REBUILD_PARTITION',
    field: 'searchIndexRebuildPartition',
    type: 'int',
    default: 10000,
    atLeast: 1,
    meaning:
      "profile ids per partition of the search key index's rebuild (each taken by one worker at a time)",
  },
  {
    name: 'SEARCH_INDEX_REBUILD_PAGE',
    field: 'searchIndexRebuildPage',
    type: 'int',
    default: 500,
    atLeast: 1,
    meaning: "profile ids the search key index's rebuild reads between two checkpoints",
  },
  {
    name: 'SEARCH_INDEX_SET_SPLIT',
    field: 'searchIndexSetSplit',
    type: 'int',
    default: 500,
    atLeast: 1,
    meaning:
      "profile ids a search key's Redis set holds before it is split into parts by id range (each part then stays within Redis's small-set encoding, set-max-intset-entries 512 by default); a lower server setting only costs memory",
  },
  {
    name: 'ERASURE_HASH_PEPPER',
    field: 'erasureHashPepper',
    type: 'text',
    secret: true,
    meaning: "mixed into each client's erasure secret for the hashes of erased identifiers",
  },
] as const);

/** The profiles module's settings (README, configuration table). */
export class ProfileSettings implements DeclaredFields<typeof PROFILE_SETTINGS, ProfileSettings> {
  /** How often the worker looks for accepted writes that no job is carrying. */
  declare readonly sweepIntervalMs: number;
  /** A pending write older than this is re-enqueued by the sweeper. */
  declare readonly staleWriteMs: number;
  /** Attempts before a write that keeps failing with an unexpected error is marked failed. */
  declare readonly maxWriteAttempts: number;
  /** Records of applied writes kept per profile (GET .../Updates); older ones are deleted. */
  declare readonly writeRecordsKept: number;
  /** Profiles the expiry job reads per page. */
  declare readonly scheduledJobBatchSize: number;
  /** Candidates a user's search may read from the key index before it is a 403. */
  declare readonly searchCandidateLimit: number;
  /** Profile ids per partition of the search key index's rebuild (a worker's claim). */
  declare readonly searchIndexRebuildPartition: number;
  /** Profile ids the rebuild reads between two checkpoints of its partition. */
  declare readonly searchIndexRebuildPage: number;
  /** Ids a search key's set holds before it is split by id range (key-set-encoding.ts). */
  declare readonly searchIndexSetSplit: number;
  /**
   * How long a read model lives after its last write, publication or rebuild (0: for
   * ever): Redis holds the working set's read models, not every profile's.
   */
  declare readonly readModelTtlSeconds: number;
  /** Replicas that must acknowledge an accepted write's record (Redis WAIT; 0: none). */
  declare readonly readModelWaitReplicas: number;
  /** How long an acceptance waits for them (then answers all the same, and counts it). */
  declare readonly readModelWaitTimeoutMs: number;
  /**
   * How long a worker remembers the profiles it saved (RecentSaves), to derive their data in
   * Redis again after a failover or a restart of Redis from its files (0: not kept).
   */
  declare readonly redisRepairWindowMs: number;
  /**
   * Mixed into each client's stored erasure secret for the hashes of erased identifiers
   * (docs/data-subject.md); unset: the stored secret alone. Changing it makes earlier
   * tombstones' hashes unmatchable.
   */
  declare readonly erasureHashPepper: string | undefined;

  constructor(env: EnvReader) {
    Object.assign(this, env.fields(PROFILE_SETTINGS));
  }
}
