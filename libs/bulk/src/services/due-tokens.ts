import { type Clock, DueSet, type LeaseService, type RedisService } from '@app/shared';
import { dueTokenKey } from '../keys';

/** A bulk import or export due for its next step. */
export interface DueToken {
  clientId: string;
  accessToken: number;
}

/** Tokens scheduled per pipeline when the set is rebuilt. */
const REBUILD_PAGE = 500;
/** Stored jobs read per batch when the set is rebuilt. */
const SCAN_BATCH = 500;
/** Due tokens handed on per batch by a sweep. */
const SWEEP_BATCH = 100;
const REBUILD_LEASE_MS = 60_000;

/**
 * When each import's or export's next step is due: a Redis sorted set (member
 * `<client>|<token>`, score the time), as the profile expiry index is, so a scheduled job
 * finds what is due without a filter on a collection. Derived data: when its `built`
 * marker is missing (first start, or Redis lost its data) the job that reads it rebuilds it
 * first (`ensureBuilt`), so that no stored import or export is left without its removal.
 */
export abstract class DueTokens extends DueSet {
  protected constructor(
    redis: RedisService,
    private readonly lease: LeaseService,
    private readonly clock: Clock,
    name: string,
    /** Every stored job's key fields (a deliberate cross-tenant scan), to rebuild the set. */
    private readonly stored: (batchSize: number) => AsyncIterable<DueToken>,
  ) {
    super(redis, name);
  }

  async schedule(clientId: string, accessToken: number, at: Date): Promise<void> {
    await this.addDue([[at.getTime(), dueTokenKey(clientId, accessToken)]]);
  }

  async unschedule(clientId: string, accessToken: number): Promise<void> {
    await this.remove(dueTokenKey(clientId, accessToken));
  }

  /** Up to `limit` tokens due at `now`, the earliest first. */
  async due(now: Date, limit: number): Promise<DueToken[]> {
    const members = await this.dueMembers(now, 0, limit);
    return members.map((m) => {
      // Client ids never hold '|' (libs/auth identifiers): the last part is the token.
      const at = m.lastIndexOf('|');
      return { clientId: m.slice(0, at), accessToken: Number(m.slice(at + 1)) };
    });
  }

  /**
   * A scheduled job's pass over the set: rebuilt first when it was lost (ensureBuilt), then
   * the due tokens handed to `visit` a batch at a time, each batch read at the clock's now,
   * until fewer than a batch are due or after `maxPages` batches. Returns how many tokens
   * the rebuild scheduled (0 when there was none).
   */
  async sweep(
    maxPages: number | undefined,
    visit: (token: DueToken, now: Date) => Promise<void>,
  ): Promise<number> {
    // The schedule is derived data: lost with Redis, it is rebuilt from the stored jobs first.
    const rescheduled = (await this.ensureBuilt(this.clock.now())) ?? 0;
    for (let batch = 0; maxPages === undefined || batch < maxPages; batch++) {
      const now = this.clock.now();
      const due = await this.due(now, SWEEP_BATCH);
      for (const token of due) await visit(token, now);
      if (due.length < SWEEP_BATCH) break;
    }
    return rescheduled;
  }

  /**
   * Rebuilds the set when its marker is missing, once across workers (a lease): every
   * stored token is scheduled at `now` unless it is scheduled already (a step
   * scheduled since the loss keeps its time). Due at once, each is then looked at by the
   * job, which decides its next step from its stored document as for any due token. One
   * pass over the stored documents, once per loss of Redis, off every request's path.
   * Returns how many were scheduled (null: the marker was there, or another worker holds
   * the rebuild).
   */
  private async ensureBuilt(now: Date): Promise<number | null> {
    if (await this.isBuilt()) return null;
    const leaseName = `${this.name}-rebuild`;
    const token = await this.lease.acquire(leaseName, REBUILD_LEASE_MS);
    if (!token) return null;
    try {
      let count = 0;
      let pipeline = this.redis.client.pipeline();
      for await (const { clientId, accessToken } of this.stored(SCAN_BATCH)) {
        pipeline.zadd(this.key(), 'NX', now.getTime(), dueTokenKey(clientId, accessToken));
        if (++count % REBUILD_PAGE === 0) {
          await execOrThrow(pipeline);
          pipeline = this.redis.client.pipeline();
          await this.lease.extend(leaseName, token, REBUILD_LEASE_MS);
        }
      }
      await execOrThrow(pipeline);
      await this.markBuilt(now);
      return count;
    } finally {
      await this.lease.release(leaseName, token);
    }
  }
}

async function execOrThrow(pipeline: ReturnType<RedisService['client']['pipeline']>) {
  const failed = (await pipeline.exec())?.find(([error]) => error);
  if (failed) throw failed[0];
}
