import { Injectable, Logger, Optional } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { deepFreeze, Metrics, RedisScript, RedisService } from '@app/shared';
import type { ProfileData } from '../domain/profile-data.schema';
import type { Profile, ProfileState } from '../domain/profile.schema';
import { readModelKey } from '../keys';
import { ProfileSettings } from '../profile-settings';

/**
 * What GET needs of a profile, as the worker last saved it: its state, the sequence
 * number of the last write it holds (`appliedSeq`) and its stored data. The caller's
 * view (data scope, implied flag) is applied when it is read, so one entry serves every
 * user group.
 */
export interface ProfileSnapshot {
  clientId: string;
  profileId: number;
  state: ProfileState;
  appliedSeq: number;
  data?: ProfileData;
  createdAt?: Date;
  /** Profile.historyPages as saved (undefined in an entry stored before it was kept). */
  historyPages?: number;
  /** Highest sequence number accepted for the profile, as far as known (>= appliedSeq). */
  acceptedSeq: number;
  /** Profile.historyRefs as saved (domain/history-refs.ts; undefined in older entries). */
  historyRefs?: string;
  /** A merged profile: its survivor (docs/profile-merge.md). */
  mergedInto?: number;
  /** A survivor: the profiles it absorbed. */
  absorbed?: number[];
}

// Stores the rendered entry only when it is newer than the one there (or there is none):
// the worker and an api rebuilding after a miss may race, and the newest must win. An
// entry at or past the dirty mark clears it. ARGV[3], when not empty, is the highest accepted
// sequence number as the engine's records tell it (a rebuild): `acc` is raised to it. Answers
// the highest accepted sequence number recorded (-1: none), so the worker learns it without
// another round trip. ARGV[4]: the entry's time to live in ms (READ_MODEL_TTL_SECONDS; 0:
// none), renewed by every publication, accepted write and dirty mark.
const PUBLISH = `
local v = redis.call('HGET', KEYS[1], 'v')
if not (v and tonumber(v) >= tonumber(ARGV[1]) and redis.call('HEXISTS', KEYS[1], 'doc') == 1) then
  redis.call('HSET', KEYS[1], 'v', ARGV[1], 'doc', ARGV[2])
end
local d = redis.call('HGET', KEYS[1], 'dirty')
if d and tonumber(d) <= tonumber(ARGV[1]) then redis.call('HDEL', KEYS[1], 'dirty') end
local a = redis.call('HGET', KEYS[1], 'acc')
if ARGV[3] ~= '' and not (a and tonumber(a) >= tonumber(ARGV[3])) then
  redis.call('HSET', KEYS[1], 'acc', ARGV[3])
  a = ARGV[3]
end
if tonumber(ARGV[4]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
if a then return tonumber(a) end
return -1`;
// Raises a mark that only grows to ARGV[1] (answers 0 when it was there already or past it).
function raiseMark(field: 'dirty' | 'acc'): string {
  return `
local m = redis.call('HGET', KEYS[1], '${field}')
if m and tonumber(m) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], '${field}', ARGV[1])
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;
}
// dirty: the worker is about to save this sequence number.
const DIRTY = raiseMark('dirty');
// acc: the highest accepted sequence number.
const ACCEPTED = raiseMark('acc');

// The same, answering how far the worker got as far as the entry knows: the highest of the
// published appliedSeq and the dirty mark (a save under way), or -1 without an entry.
const ACCEPTED_AHEAD = `
local a = redis.call('HGET', KEYS[1], 'acc')
if not (a and tonumber(a) >= tonumber(ARGV[1])) then redis.call('HSET', KEYS[1], 'acc', ARGV[1]) end
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
local d = redis.call('HGET', KEYS[1], 'dirty')
if d and tonumber(d) > tonumber(v) then return tonumber(d) end
return tonumber(v)`;

// Clears a job's "queued" flag (KEYS[2]) when it still holds the job's token (ARGV[1], none
// when empty), then answers the entry's small fields: the flag is cleared before `acc` is
// read, in one atomic step (see ApplyJobScheduler).
const START_JOB = `
if ARGV[1] ~= '' then
  local cur = redis.call('GET', KEYS[2])
  if cur and string.sub(cur, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. '|' then
    redis.call('DEL', KEYS[2])
  end
end
return redis.call('HMGET', KEYS[1], 'v', 'acc', 'dirty')`;

// PUBLISH for many entries (KEYS, ARGV: per key its appliedSeq and doc, then the time to
// live in ms), answering nothing. New profiles whose every write is applied: `acc` is raised
// to appliedSeq too.
const PUBLISH_MANY = `
local ttl = ARGV[2 * #KEYS + 1]
for i = 1, #KEYS do
  local key, seq, doc = KEYS[i], ARGV[2 * i - 1], ARGV[2 * i]
  local v = redis.call('HGET', key, 'v')
  if not (v and tonumber(v) >= tonumber(seq) and redis.call('HEXISTS', key, 'doc') == 1) then
    redis.call('HSET', key, 'v', seq, 'doc', doc)
  end
  local d = redis.call('HGET', key, 'dirty')
  if d and tonumber(d) <= tonumber(seq) then redis.call('HDEL', key, 'dirty') end
  local a = redis.call('HGET', key, 'acc')
  if not (a and tonumber(a) >= tonumber(seq)) then redis.call('HSET', key, 'acc', seq) end
  if tonumber(ttl) > 0 then redis.call('PEXPIRE', key, ttl) end
end
return #KEYS`;

const SCRIPTS = {
  publish: new RedisScript(PUBLISH, 1),
  publishMany: new RedisScript(PUBLISH_MANY, null),
  dirty: new RedisScript(DIRTY, 1),
  accepted: new RedisScript(ACCEPTED, 1),
  acceptedAhead: new RedisScript(ACCEPTED_AHEAD, 1),
  startJob: new RedisScript(START_JOB, 2),
};

/** Accepted writes a process keeps to record once Redis is back (about 100 B each). */
const MAX_OWED_NOTES = 100_000;

/** Entries per PUBLISH_MANY call: Redis runs each call alone, briefly. */
const PUBLISH_MANY_ENTRIES = 250;

/** The entry `publish` stores for a saved profile. */
function storedEntry(profile: Profile): StoredEntry {
  return {
    s: profile.state,
    ...(profile.state === 'deleted' ? {} : { d: profile.data }),
    ...(profile.createdAt ? { c: new Date(profile.createdAt).toISOString() } : {}),
    h: profile.historyPages ?? 0,
    ...(profile.state !== 'deleted' && profile.historyRefs ? { r: profile.historyRefs } : {}),
    ...(profile.mergedInto !== undefined ? { m: profile.mergedInto } : {}),
    ...(profile.absorbed?.length ? { a: profile.absorbed } : {}),
  };
}

/**
 * What the worker needs of an entry to start a job: the published appliedSeq (`v`), the
 * highest accepted sequence number (`acc`) and the dirty mark, each null when absent.
 */
export interface EntryProgress {
  appliedSeq: number | null;
  acceptedSeq: number | null;
  dirty: number | null;
}

interface StoredEntry {
  s: ProfileState;
  d?: ProfileData;
  c?: string;
  /** historyPages */
  h?: number;
  /** historyRefs */
  r?: string;
  /** mergedInto */
  m?: number;
  /** absorbed */
  a?: number[];
}

/** One parsed entry kept in the process, for the appliedSeq it was stored at. */
interface ParsedEntry {
  v: number;
  entry: StoredEntry;
}

/**
 * Characters of stored JSON the process keeps parsed (about 3 bytes of heap each once
 * parsed): 8M characters, some 1,500 profiles of 5 KB.
 */
const PARSED_CHARACTERS = 8_000_000;

/**
 * The profile read model in Redis: one hash per profile (`pm:{<client>|<id>}`) with the
 * rendered stored profile (`doc`) at `appliedSeq` (`v`) and the highest accepted sequence
 * number (`acc`). The worker publishes after every save; the api records each accepted
 * write; GET reads the hash alone (Pending Update while acc > v). The hash is derived data:
 * when it is missing (never built, expired, evicted, Redis lost) the reader rebuilds it from
 * the engine (ExistingProfiles), so a lost entry is rebuilt, never served stale. Each entry
 * lives READ_MODEL_TTL_SECONDS after its last publication, accepted write or dirty mark
 * (reads do not renew it: that would cost GET a command), so Redis holds the read models of
 * the profiles written or read in the last hour, not of every profile (docs/scaling.md). Because acc
 * and doc live in one hash, an eviction loses both together. An entry without `acc` is
 * one the worker published into a Redis that lost the entry (it knows only what it applied,
 * not what was accepted after): it counts as missing too, so its `acc` comes from the
 * engine's records of accepted writes, never from a guess. The worker sets `dirty` to
 * the sequence number it is about to save before the save, so an entry whose publication
 * failed after a save is never served (readers go to the database until it is replaced).
 */
@Injectable()
export class ProfileReadModel {
  private readonly logger = new Logger('ProfileReadModel');
  /**
   * Parsed entries by key. An entry's content is fixed by its `v` (every save moves
   * appliedSeq, and PUBLISH never replaces a doc at the same or a higher v), so a parsed
   * entry is valid exactly while Redis still holds its `v`: a read of the small fields
   * (`v`, `acc`, `dirty`) decides, and the doc is fetched and parsed only when `v` moved.
   * Frozen: callers share it and must not change it.
   */
  private readonly parsed = new LRUCache<string, ParsedEntry>({
    maxSize: PARSED_CHARACTERS,
  });

  /** The entries' time to live in ms (0: none), passed to every script that writes one. */
  private readonly ttlMs: number;

  /**
   * Accepted writes whose record could not reach Redis (down, or the command failed), by
   * entry key with the highest such seq: recorded as soon as Redis is ready again, so that a
   * Redis back with its data (its entries as they were before) does not make GET answer
   * Complete while they wait. Bounded: past MAX_OWED_NOTES the worker's job start records
   * them (ApplyProfileWrites, from the engine), once its sweep after the outage queued them.
   */
  private readonly owed = new Map<string, { clientId: string; profileId: number; seq: number }>();

  /** Replicas an acceptance's record waits for, and how long (READ_MODEL_WAIT_*). */
  private readonly waitReplicas: number;
  private readonly waitTimeoutMs: number;

  constructor(
    private readonly redis: RedisService,
    settings: ProfileSettings,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.ttlMs = settings.readModelTtlSeconds * 1000;
    this.waitReplicas = settings.readModelWaitReplicas;
    this.waitTimeoutMs = settings.readModelWaitTimeoutMs;
    // Sent before any command issued after the reconnection: the records come first.
    this.redis.client.on('ready', () => void this.recordOwed());
  }

  /**
   * An accepted write `seq` whose record (`noteAcceptedAhead`) did not reach Redis: recorded
   * once Redis is ready again. false when too many are owed already (logged).
   */
  oweAccepted(clientId: string, profileId: number, seq: number): boolean {
    const key = this.key(clientId, profileId);
    const known = this.owed.get(key);
    if (known) {
      known.seq = Math.max(known.seq, seq);
      return true;
    }
    if (this.owed.size >= MAX_OWED_NOTES) {
      this.logger.warn(`more than ${MAX_OWED_NOTES} accepted writes await their record in Redis`);
      return false;
    }
    this.owed.set(key, { clientId, profileId, seq });
    return true;
  }

  /** Records the owed acceptances (those that fail again stay owed until the next ready). */
  private async recordOwed(): Promise<void> {
    if (!this.owed.size) return;
    const owed = [...this.owed.values()];
    this.owed.clear();
    await Promise.all(
      owed.map(({ clientId, profileId, seq }) =>
        this.noteAccepted(clientId, profileId, seq).catch(() =>
          this.oweAccepted(clientId, profileId, seq),
        ),
      ),
    );
    this.logger.log(
      `recorded ${owed.length} accepted writes owed to Redis since it was unreachable`,
    );
  }

  /** Whether Redis is connected (readers rebuilding an entry skip storing it otherwise). */
  get available(): boolean {
    return this.redis.available;
  }

  /** The entry, or null when there is none (or Redis cannot answer). */
  async read(clientId: string, profileId: number): Promise<ProfileSnapshot | null> {
    if (!this.redis.available) return null;
    const key = this.key(clientId, profileId);
    try {
      const known = this.parsed.get(key);
      if (known) {
        const [v, acc, dirty] = await this.redis.client.hmget(key, 'v', 'acc', 'dirty');
        if (v !== null && Number(v) === known.v) {
          return this.snapshot(clientId, profileId, known, acc, dirty);
        }
      }
      const [v, doc, acc, dirty] = await this.redis.client.hmget(key, 'v', 'doc', 'acc', 'dirty');
      if (v === null || doc === null) return null;
      const entry: ParsedEntry = {
        v: Number(v),
        entry: deepFreeze(JSON.parse(doc) as StoredEntry),
      };
      this.parsed.set(key, entry, { size: doc.length });
      return this.snapshot(clientId, profileId, entry, acc, dirty);
    } catch (error) {
      this.logger.warn(`read model unavailable, reading the database: ${String(error)}`);
      return null;
    }
  }

  private snapshot(
    clientId: string,
    profileId: number,
    { v: appliedSeq, entry }: ParsedEntry,
    acc: string | null,
    dirty: string | null,
  ): ProfileSnapshot | null {
    // A save past this entry began; until its publication the database is the truth.
    if (dirty !== null && Number(dirty) > appliedSeq) return null;
    // Redis lost what was accepted (see the class comment): the engine's records decide.
    if (acc === null) return null;
    return {
      clientId,
      profileId,
      state: entry.s,
      appliedSeq,
      data: entry.d,
      createdAt: entry.c ? new Date(entry.c) : undefined,
      historyPages: entry.h,
      acceptedSeq: Math.max(appliedSeq, Number(acc)),
      historyRefs: entry.r,
      ...(entry.m !== undefined ? { mergedInto: entry.m } : {}),
      ...(entry.a ? { absorbed: entry.a } : {}),
    };
  }

  /**
   * Stores the profile as saved (ignored when a newer one is there); answers the highest
   * accepted sequence number the entry records (null: none), read in the same step.
   * `acceptedSeq`: the highest accepted sequence number read from the engine's records (a
   * rebuild), recorded with the entry in the same step.
   */
  async publish(profile: Profile, acceptedSeq?: number): Promise<number | null> {
    const acc = Number(
      await SCRIPTS.publish.run(
        this.redis.client,
        this.key(profile.clientId, profile.profileId),
        profile.appliedSeq,
        JSON.stringify(storedEntry(profile)),
        acceptedSeq ?? '',
        this.ttlMs,
      ),
    );
    return acc < 0 ? null : acc;
  }

  /**
   * `publish` of many saved profiles (a bulk import's new ones), each entry exactly as
   * `publish` stores it, in script calls of PUBLISH_MANY_ENTRIES (not a command each: the
   * client's cost per command was the larger part). On a cluster a call takes the entries
   * of one slot (each profile's entry has a slot of its own, so mostly one each). Answers
   * nothing.
   */
  async publishMany(profiles: Profile[]): Promise<void> {
    const calls: Promise<unknown>[] = [];
    const keyed = profiles.map((profile) => ({
      profile,
      key: this.key(profile.clientId, profile.profileId),
    }));
    for (const group of this.redis.sameSlotGroups(keyed, (entry) => entry.key)) {
      for (let at = 0; at < group.length; at += PUBLISH_MANY_ENTRIES) {
        const some = group.slice(at, at + PUBLISH_MANY_ENTRIES);
        calls.push(
          SCRIPTS.publishMany.run(
            this.redis.client,
            some.length,
            ...some.map((entry) => entry.key),
            ...some.flatMap(({ profile }) => [
              profile.appliedSeq,
              JSON.stringify(storedEntry(profile)),
            ]),
            this.ttlMs,
          ),
        );
      }
    }
    await Promise.all(calls);
  }

  /**
   * Called by the worker before it saves `seq`: until the saved profile is published,
   * readers go to the database. If the publication after the save fails, the mark stays
   * and readers keep reading the database (and republish) instead of a stale entry.
   */
  async markDirty(clientId: string, profileId: number, seq: number): Promise<void> {
    await SCRIPTS.dirty.run(this.redis.client, this.key(clientId, profileId), seq, this.ttlMs);
  }

  /** Records that write `seq` was accepted, so GET shows Pending Update until it applies. */
  async noteAccepted(clientId: string, profileId: number, seq: number): Promise<void> {
    await SCRIPTS.accepted.run(this.redis.client, this.key(clientId, profileId), seq, this.ttlMs);
  }

  /**
   * `noteAccepted`, answering how far the worker got as far as the entry knows (the
   * published appliedSeq, or a save under way past it); null when the entry has none.
   */
  async noteAcceptedAhead(
    clientId: string,
    profileId: number,
    seq: number,
  ): Promise<number | null> {
    const key = this.key(clientId, profileId);
    let ahead: number;
    if (this.waitReplicas > 0) {
      // Held by a replica before the 202, so a failover keeps it (docs/scaling.md, Redis).
      const { result, acknowledged } = await SCRIPTS.acceptedAhead.runReplicated(
        this.redis.client,
        this.waitReplicas,
        this.waitTimeoutMs,
        key,
        seq,
        this.ttlMs,
      );
      if (acknowledged < this.waitReplicas) this.metrics?.unreplicatedWrite();
      ahead = Number(result);
    } else {
      ahead = Number(await SCRIPTS.acceptedAhead.run(this.redis.client, key, seq, this.ttlMs));
    }
    return ahead < 0 ? null : ahead;
  }

  /**
   * A job starts (ApplyJobScheduler.started): clears its "queued" flag at `flagKey` when
   * still its own (`token`), then reads the entry's small fields, in one atomic script (one
   * round trip, and the flag is gone before `acc` is read). The doc is not fetched: the job
   * only compares sequence numbers. Redis errors are the caller's.
   */
  async startJob(
    clientId: string,
    profileId: number,
    flagKey: string,
    token: string | undefined,
  ): Promise<EntryProgress> {
    const [v, acc, dirty] = (await SCRIPTS.startJob.run(
      this.redis.client,
      this.key(clientId, profileId),
      flagKey,
      token ?? '',
    )) as (string | null)[];
    const num = (value: string | null | undefined) =>
      value === null || value === undefined ? null : Number(value);
    return { appliedSeq: num(v), acceptedSeq: num(acc), dirty: num(dirty) };
  }

  /**
   * The highest accepted sequence number as recorded (null: no entry, or Redis cannot
   * answer). The worker stops applying at it instead of probing for one more write.
   */
  async acceptedSeq(clientId: string, profileId: number): Promise<number | null> {
    if (!this.redis.available) return null;
    try {
      const acc = await this.redis.client.hget(this.key(clientId, profileId), 'acc');
      return acc === null ? null : Number(acc);
    } catch {
      return null;
    }
  }

  /**
   * Drops the entry: the next read rebuilds it from the database. Only for a profile
   * changed behind the worker's back at the same appliedSeq (repairs, tests): this process
   * forgets its parsed copy too, other processes keep theirs until it is evicted.
   */
  async forget(clientId: string, profileId: number): Promise<void> {
    const key = this.key(clientId, profileId);
    this.parsed.delete(key);
    await this.redis.client.del(key);
  }

  private key(clientId: string, profileId: number): string {
    return readModelKey(this.redis, clientId, profileId);
  }
}
