import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { JobQueue, type JobLane, RedisScript, RedisService } from '@app/shared';
import { applyQueuedKey, profileKey } from '../keys';
import { type EntryProgress, ProfileReadModel } from '../read/profile-read-model.service';
import { APPLY_PROFILE_WRITES } from '../profile.job-definitions';

/**
 * How long a profile's "job queued" flag lives without its job starting. Only a lost job
 * (Redis lost it, or it failed for good) leaves a flag standing that long; meanwhile the
 * sweeper, which never asks the flag (`force`), carries the profile's writes.
 */
const QUEUED_FLAG_TTL_MS = 10 * 60 * 1000;

// Sets the flag to `<token>|<lane>` unless a job is queued already: then 0, except that an
// interactive request does not wait behind a queued bulk job (it takes the flag over and
// gets its own job). `force` (ARGV[3] = '1') always sets it.
const CLAIM = `
local cur = redis.call('GET', KEYS[1])
if cur and ARGV[3] ~= '1' then
  if not (ARGV[2] == 'interactive' and string.sub(cur, -5) == '|bulk') then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 'PX', ARGV[4])
return 1`;
// Clears the flag only when it is still this job's.
const CLEAR = `
local cur = redis.call('GET', KEYS[1])
if cur and string.sub(cur, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. '|' then
  return redis.call('DEL', KEYS[1])
end
return 0`;

const CLAIM_SCRIPT = new RedisScript(CLAIM, 1);
const CLEAR_SCRIPT = new RedisScript(CLEAR, 1);

/** What a job is asked for. */
export interface ApplyJobRequest {
  clientId: string;
  profileId: number;
  /** The accepted write that asks for it (absent: the sweeper's and healing jobs). */
  seq?: number;
  lane: JobLane;
  /** Runnable only after this long. */
  delayMs?: number;
  /** Bounds the wait for a slow Redis (the api's acceptance must not hang on it). */
  timeoutMs?: number;
  /** Times the job found the profile's lease taken (its back-off). */
  busy?: number;
  /** Queue a job even when one is queued (the sweeper, a late save's healing). */
  force?: boolean;
}

/**
 * The one place that asks for apply-profile-writes jobs (the intake for each accepted write,
 * the sweeper, the apply handler's re-runs), so that a profile has at most one queued job
 * at a time and a backlog of N writes costs O(1) queue entries instead of N jobs that are
 * taken, find the lease busy and are put back.
 *
 * Coalescing, and why no write is stranded by it: a flag per profile in Redis
 * (`<prefix>:applyq:{<client>|<profile>}`) says "a job of this profile is queued and has not
 * started". The scheduler sets it with a compare-and-set (absent: set it and enqueue;
 * present: enqueue nothing). A job clears it (if still its own) as the very first thing it
 * does, before it reads the read model's `acceptedSeq` and applies up to it. The intake
 * raises `acceptedSeq` before it asks for a job. So for a write W: if W's request found the
 * flag set, the job holding it had not started, and will clear it and then read an
 * `acceptedSeq` that includes W; if the job that applies had already read `acceptedSeq`
 * without W, its clear came before W's request, which then finds no flag (or a newer job's)
 * and queues a job. A job that finds the profile's lease taken asks again, delayed, through
 * this same flag. Bull `jobId`s were the other way: a job id is refused while its job is
 * kept in any state (running, failed, completed but not yet removed), so a write accepted
 * while the job runs would need a second id scheme anyway, and Bull keeps no per-id TTL.
 *
 * Without Redis for the flag (down, or an error) a job is queued anyway, as before
 * coalescing. A flag whose job was lost only delays writes: the sweeper forces a job for
 * every profile whose writes wait longer than STALE_WRITE_MS, flag or not.
 */
@Injectable()
export class ApplyJobScheduler {
  private readonly logger = new Logger('ApplyJobScheduler');

  constructor(
    private readonly queue: JobQueue,
    private readonly redis: RedisService,
    private readonly readModel: ProfileReadModel,
  ) {}

  /** Queues a job for the profile unless one is queued; true when this call queued it. */
  async schedule(request: ApplyJobRequest): Promise<boolean> {
    const token = randomUUID();
    const flagged = await this.claim(request, token);
    if (flagged === 'queued') return false;
    const { clientId, profileId, seq, lane, delayMs, timeoutMs, busy } = request;
    try {
      await this.queue.enqueue(
        APPLY_PROFILE_WRITES,
        {
          clientId,
          profileId,
          ...(seq !== undefined ? { seq } : {}),
          ...(busy ? { busy } : {}),
          ...(lane === 'bulk' ? { lane } : {}),
          ...(flagged === 'flagged' ? { token } : {}),
        },
        { lane, ...(delayMs ? { delayMs } : {}), ...(timeoutMs ? { timeoutMs } : {}) },
      );
    } catch (error) {
      // No job: the flag must not keep the next write from queuing one.
      if (flagged === 'flagged') await this.started(clientId, profileId, token);
      throw error;
    }
    return true;
  }

  /** A job starts: its profile no longer has a queued job (see the class comment). */
  async started(clientId: string, profileId: number, token: string | undefined): Promise<void> {
    if (!token || !this.redis.available) return;
    try {
      await CLEAR_SCRIPT.run(this.redis.client, this.key(clientId, profileId), token);
    } catch (error) {
      // The flag expires by itself; meanwhile writes wait for this job or the sweeper.
      this.logger.warn(`queued flag of ${profileKey(clientId, profileId)}: ${String(error)}`);
    }
  }

  /**
   * `started`, and the profile's read model entry as it is right after (its `acc` read after
   * the flag is gone, in the same atomic script: one round trip for both). Null when Redis
   * cannot answer (the flag then expires by itself, and the job reads what it needs again).
   */
  async startedReading(
    clientId: string,
    profileId: number,
    token: string | undefined,
  ): Promise<EntryProgress | null> {
    if (!this.redis.available) return null;
    try {
      return await this.readModel.startJob(
        clientId,
        profileId,
        this.key(clientId, profileId),
        token,
      );
    } catch (error) {
      this.logger.warn(`queued flag of ${profileKey(clientId, profileId)}: ${String(error)}`);
      return null;
    }
  }

  /** 'flagged': this request holds the flag; 'queued': a job is queued; 'unknown': no flag. */
  private async claim(
    request: ApplyJobRequest,
    token: string,
  ): Promise<'flagged' | 'queued' | 'unknown'> {
    if (!this.redis.available) return 'unknown';
    try {
      const set = await CLAIM_SCRIPT.run(
        this.redis.client,
        this.key(request.clientId, request.profileId),
        token,
        request.lane,
        request.force ? '1' : '0',
        String(QUEUED_FLAG_TTL_MS + (request.delayMs ?? 0)),
      );
      return set === 1 ? 'flagged' : 'queued';
    } catch {
      return 'unknown';
    }
  }

  private key(clientId: string, profileId: number): string {
    return applyQueuedKey(this.redis, clientId, profileId);
  }
}
