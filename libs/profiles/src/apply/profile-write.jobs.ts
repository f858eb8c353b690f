import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Cluster } from 'ioredis';
import { HandlesJob, JobHandler, RedisService } from '@app/shared';
import { ApplyProfileWritesCommand } from './apply-profile-writes/apply-profile-writes.command';
import { SweepPendingWritesCommand } from './sweep-pending-writes/sweep-pending-writes.command';
import { RecoverLostRedisCommand } from '../read/redis-loss/recover-lost-redis/recover-lost-redis.command';
import { RebuildSearchKeyIndexCommand } from '../read/search/rebuild-search-key-index/rebuild-search-key-index.command';
import { RepairRecentSavesCommand } from '../read/redis-loss/repair-recent-saves/repair-recent-saves.command';
import { APPLY_PROFILE_WRITES, type ApplyProfileWritesPayload } from '../profile.job-definitions';
import { ProfileSettings } from '../profile-settings';

/* Job handlers and timers only hand off to commands; the use cases live in the handlers. */

@Injectable()
@HandlesJob(APPLY_PROFILE_WRITES)
export class ApplyProfileWritesJob implements JobHandler<ApplyProfileWritesPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle(payload: ApplyProfileWritesPayload): Promise<void> {
    await this.commands.execute(
      new ApplyProfileWritesCommand(
        payload.clientId,
        payload.profileId,
        payload.seq,
        payload.busy,
        payload.lane,
        payload.token,
      ),
    );
  }
}

/** How often each worker asks Redis whether it lost its data (one small script call). */
const REDIS_EPOCH_CHECK_MS = 1000;

/** Runs `work` unless its previous run is still going (a slow run outlasting its interval). */
class OneAtATime {
  private running = false;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  async run(work: () => Promise<unknown>): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await work();
    } catch (error) {
      this.logger.warn(`${this.what} failed: ${String(error)}`);
    } finally {
      this.running = false;
    }
  }
}

/**
 * Runs the sweep on a timer of this process, not as a job in Redis: the sweep exists to
 * recover from a Redis that lost its data, and a schedule kept in that same Redis would
 * be lost with it. Every worker sweeps; a profile enqueued twice is applied once. Every
 * REDIS_EPOCH_CHECK_MS each worker also looks whether Redis lost its data
 * (RecoverLostRedis: one of them then sweeps every marker at once, so waiting writes are
 * applied seconds after Redis is back, not after STALE_WRITE_MS), and the search key
 * index, when lost, is rebuilt beside them (its own run: a rebuild of a large index takes
 * minutes and must not hold the sweeps back). A Redis node that failed over to its replica
 * (the masters of the cluster's slots changed) or a Redis back from its own files may lack
 * its last moments: each worker then derives again what it wrote there for the profiles it
 * saved lately (RepairRecentSaves), without a full pass.
 */
@Injectable()
export class PendingWriteSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PendingWriteSweeper');
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly sweeps = new OneAtATime(this.logger, 'sweep');
  private readonly recoveries = new OneAtATime(this.logger, 'recovery after a loss of Redis');
  private readonly catchUps = new OneAtATime(this.logger, 'sweep after Redis came back');
  private readonly indexRebuilds = new OneAtATime(this.logger, 'search key index rebuild');
  private readonly repairs = new OneAtATime(this.logger, 'repair of recently saved profiles');
  /** Which node serves each slot range, as last seen (a cluster only; null: not yet). */
  private slotMasters: string | null = null;
  /** Why a repair of recently saved profiles is still to be done (null: none is). */
  private repairOwed: string | null = null;

  constructor(
    private readonly commands: CommandBus,
    private readonly settings: ProfileSettings,
    private readonly redis: RedisService,
  ) {}

  onApplicationBootstrap(): void {
    // Redis back after an outage (with its data or without): the writes accepted meanwhile
    // found no queue, so every waiting one is queued now rather than after STALE_WRITE_MS.
    let lost = false;
    this.redis.client.on('close', () => (lost = true));
    this.redis.client.on('ready', () => {
      if (!lost) return;
      lost = false;
      void this.catchUps.run(() => this.commands.execute(new SweepPendingWritesCommand(true)));
      void this.repair('Redis came back');
    });
    this.timers.push(
      setInterval(() => void this.sweep(), this.settings.sweepIntervalMs),
      setInterval(() => void this.recover(), REDIS_EPOCH_CHECK_MS),
    );
    this.timers.push(setInterval(() => void this.watchRedisNodes(), REDIS_EPOCH_CHECK_MS));
    // At once too: a Redis that lost its data while no worker ran, a lost search key index.
    void this.recover();
    void this.sweep();
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers) clearInterval(timer);
  }

  private async sweep(): Promise<void> {
    await this.sweeps.run(() => this.commands.execute(new SweepPendingWritesCommand()));
    void this.rebuildIndex();
  }

  private async recover(): Promise<void> {
    await this.recoveries.run(async () => {
      const requeued = await this.commands.execute(new RecoverLostRedisCommand());
      if (requeued !== null) void this.rebuildIndex();
    });
  }

  /**
   * A failover shows as another node serving a slot range (so does a manual failover or a
   * resharding: a repair then costs a little work and changes nothing). One CLUSTER SLOTS
   * per check, answered by any node. A repair that fails (the cluster still settling) is
   * tried again at the next check until it succeeds.
   */
  private async watchRedisNodes(): Promise<void> {
    const slots = this.redis.cluster
      ? await this.redis.client.cluster('SLOTS').catch(() => null)
      : null;
    if (Array.isArray(slots) && slots.length) {
      const masters = slots
        .map(([from, to, [host, port, id]]) => `${from}-${to}@${id ?? `${host}:${port}`}`)
        .sort()
        .join(' ');
      if (this.slotMasters !== null && this.slotMasters !== masters) {
        this.repairOwed = 'the cluster changed masters';
        // This connection's own map may still name the old master (see connectRedis).
        if (this.redis.client instanceof Cluster) this.redis.client.refreshSlotsCache();
      }
      this.slotMasters = masters;
    }
    if (this.repairOwed) await this.repair(this.repairOwed);
  }

  /** Runs RepairRecentSaves; what fails stays owed (repairOwed) for the next check. */
  private repair(why: string): Promise<void> {
    this.repairOwed = why;
    return this.repairs.run(async () => {
      await this.commands.execute(new RepairRecentSavesCommand(why));
      if (this.repairOwed === why) this.repairOwed = null;
    });
  }

  private rebuildIndex(): Promise<void> {
    return this.indexRebuilds.run(() => this.commands.execute(new RebuildSearchKeyIndexCommand()));
  }
}
