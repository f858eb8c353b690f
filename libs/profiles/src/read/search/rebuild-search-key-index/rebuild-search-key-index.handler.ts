import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CRASH_POINTS, CrashPoints, LeaseService } from '@app/shared';
import { ProfileSettings } from '../../../profile-settings';
import { ProfileRepository } from '../../../persistence/profile.repository';
import { KeyIndexRebuildPlan, type RebuildPartition } from '../key-index-rebuild-plan';
import { ProfileKeyIndex } from '../profile-key-index.service';
import { RedisEpoch } from '../../redis-loss/redis-epoch.service';
import { RebuildSearchKeyIndexCommand } from './rebuild-search-key-index.command';

/** A partition's claim; renewed after every page, so a dead holder's lapses within this. */
const PARTITION_LEASE_MS = 60000;

/**
 * Rebuilds the search key index when its `built` marker is missing (a Redis that lost its
 * data), shared by every worker that runs it: the profile id space of each client is cut
 * into partitions (SEARCH_INDEX_REBUILD_PARTITION ids; profile ids are claimed densely from
 * 1 per client), planned once per epoch in Redis (KeyIndexRebuildPlan). A worker takes
 * partitions under a lease each, reads their profiles by `_id` a page at a time (the only
 * read the embedded engine serves without decoding the whole collection; a range filter
 * would be a scan per page), adds their keys and stores the partition's checkpoint after
 * each page: a worker that dies leaves its partition to the next one at that checkpoint.
 * The index is marked built (epoch-guarded) when the last partition is done. Writes
 * applied meanwhile maintain the index themselves; a key added from an older version of a
 * profile is a stale member, which the search's exact check discards.
 */
@CommandHandler(RebuildSearchKeyIndexCommand)
export class RebuildSearchKeyIndexHandler implements ICommandHandler<RebuildSearchKeyIndexCommand> {
  private readonly logger = new Logger('RebuildSearchKeyIndex');

  constructor(
    private readonly index: ProfileKeyIndex,
    private readonly plan: KeyIndexRebuildPlan,
    private readonly profiles: ProfileRepository,
    private readonly lease: LeaseService,
    private readonly epoch: RedisEpoch,
    private readonly settings: ProfileSettings,
    private readonly crashPoints: CrashPoints,
  ) {}

  async execute(): Promise<void> {
    // Not `available`: at a worker's start the connection may still be opening.
    if (await this.index.isBuilt()) return;
    // The epoch it is built under (none yet: the worker writes it within a second; later).
    const epoch = await this.epoch.current();
    if (epoch === null) return;
    let plan = await this.plan.read();
    if (plan?.epoch !== epoch) {
      await this.plan.make(epoch, await this.partitions());
      // Built meanwhile (the last partition's worker marked it, then removed its plan): this
      // plan is not needed.
      if (await this.index.isBuilt()) return this.plan.remove();
      plan = await this.plan.read();
      if (plan?.epoch !== epoch) return;
    }
    // Its last partition's worker died before marking the index built.
    if (plan.left === 0) return this.markBuilt(epoch);
    const open = plan.partitions.filter((partition) => partition.next !== 'done');
    // From a random one: workers that start together try different partitions first.
    const start = Math.floor(Math.random() * open.length);
    for (const partition of [...open.slice(start), ...open.slice(0, start)]) {
      const left = await this.rebuildPartition(epoch, partition);
      if (left === 'lost') return;
      if (left === 0) return this.markBuilt(epoch);
    }
  }

  /** Every client's partitions: [1, P], [P + 1, 2P], ..., the last one open-ended. */
  private async partitions(): Promise<Omit<RebuildPartition, 'n' | 'next'>[]> {
    const size = this.settings.searchIndexRebuildPartition;
    const partitions: Omit<RebuildPartition, 'n' | 'next'>[] = [];
    for (const { clientId, last } of await this.profiles.crossTenantClientsForIndexRebuild()) {
      const count = Math.max(1, Math.ceil(last / size));
      for (let k = 0; k < count; k++) {
        const from = k * size + 1;
        partitions.push({ clientId, from, to: k === count - 1 ? null : from + size - 1 });
      }
    }
    return partitions;
  }

  /**
   * Rebuilds one partition from its checkpoint unless another worker holds it: how many
   * partitions are left once it is done, null when it was taken or is done already, `lost`
   * when Redis lost the plan meanwhile (the next run plans anew).
   */
  private async rebuildPartition(
    epoch: string,
    partition: RebuildPartition,
  ): Promise<number | null | 'lost'> {
    const name = `kx-rebuild:${partition.n}`;
    const token = await this.lease.acquire(name, PARTITION_LEASE_MS);
    if (!token) return null;
    try {
      // The checkpoint as stored now, not as the plan was read: a worker may have moved it.
      const checkpoint = await this.plan.nextOf(partition.n);
      if (checkpoint === null || checkpoint === 'done') return null;
      let next = checkpoint;
      let read = 0;
      for (;;) {
        const count = Math.min(
          this.settings.searchIndexRebuildPage,
          partition.to === null ? Infinity : partition.to + 1 - next,
        );
        if (count <= 0) break;
        const page = await this.profiles.readIdRange(partition.clientId, next, count);
        await this.index.addAll(page.profiles);
        read += page.profiles.length;
        // Lost: another worker holds the partition now and carries on from its checkpoint.
        if (!(await this.lease.extend(name, token, PARTITION_LEASE_MS))) return null;
        next = page.next;
        if (!(await this.plan.checkpoint(epoch, partition.n, next))) return null;
        await this.crashPoints.at(CRASH_POINTS.indexRebuildAfterCheckpoint);
        if (page.done) break;
      }
      const left = await this.plan.done(epoch, partition.n);
      this.logger.log(
        `partition ${partition.n} (client ${partition.clientId}, ids ${checkpoint} to ${next - 1}): ${read} profiles, ${left ?? '?'} partitions left`,
      );
      return left ?? 'lost';
    } finally {
      await this.lease.release(name, token);
    }
  }

  /** Marked only if Redis kept the plan's epoch: what was added under an earlier one is gone. */
  private async markBuilt(epoch: string): Promise<void> {
    if (await this.epoch.setWithin(epoch, this.index.builtKey(), new Date().toISOString())) {
      await this.plan.remove();
      this.logger.log('search key index rebuilt');
    } else {
      this.logger.warn('Redis lost its data while the search key index was rebuilt: again');
    }
  }
}
