import { Injectable } from '@nestjs/common';
import { RedisScript, RedisService } from '@app/shared';

/**
 * One partition of the search key index's rebuild: the profile ids `from` to `to` of a
 * client (`to` null: the client's last partition, read on until its ids end).
 */
export interface RebuildPartition {
  n: number;
  clientId: string;
  from: number;
  to: number | null;
  /** The next profile id to read (its checkpoint), or `done`. */
  next: number | 'done';
}

/** The plan as Redis holds it: the epoch it was made under and its partitions. */
export interface RebuildPlan {
  epoch: string;
  /** Partitions not done yet. */
  left: number;
  partitions: RebuildPartition[];
}

/** The partition as stored in its `part:<n>` field (its checkpoint is `next:<n>`). */
type StoredPartition = Pick<RebuildPartition, 'clientId' | 'from' | 'to'>;

// KEYS[1] the plan; ARGV[1] the epoch, ARGV[2] the count, then per partition its JSON and
// first id. Replaces a plan of another epoch (Redis lost the rebuild it belonged to); keeps
// one of this epoch (another worker planned first). 1 when this call wrote the plan.
const PLAN = new RedisScript(
  `
if redis.call('HGET', KEYS[1], 'epoch') == ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'epoch', ARGV[1], 'left', ARGV[2])
local n = 0
for i = 3, #ARGV, 2 do
  redis.call('HSET', KEYS[1], 'part:' .. n, ARGV[i], 'next:' .. n, ARGV[i + 1])
  n = n + 1
end
return 1`,
  1,
);

// ARGV[1] the epoch, ARGV[2] the partition, ARGV[3] its next id. -1: the plan is not this
// epoch's (Redis lost it); 0: the partition is done already (another worker finished it).
const CHECKPOINT = new RedisScript(
  `
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return -1 end
local field = 'next:' .. ARGV[2]
if redis.call('HGET', KEYS[1], field) == 'done' then return 0 end
redis.call('HSET', KEYS[1], field, ARGV[3])
return 1`,
  1,
);

// ARGV[1] the epoch, ARGV[2] the partition: marks it done (once) and answers how many
// partitions are left; -1 when the plan is not this epoch's.
const DONE = new RedisScript(
  `
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return -1 end
local field = 'next:' .. ARGV[2]
if redis.call('HGET', KEYS[1], field) ~= 'done' then
  redis.call('HSET', KEYS[1], field, 'done')
  return redis.call('HINCRBY', KEYS[1], 'left', -1)
end
return tonumber(redis.call('HGET', KEYS[1], 'left'))`,
  1,
);

/**
 * The plan of the search key index's rebuild, in one Redis hash (`<prefix>:kx:rebuild`, no
 * hash tag: every script of the plan takes that key alone): per partition of the profile id
 * space its range and its checkpoint, and how many partitions are left. Kept in the Redis
 * that holds the index: a Redis that loses the index loses its plan with it (the epoch
 * field tells a plan of an earlier Redis apart). Each partition is claimed by a lease
 * (LeaseService, `kx-rebuild:<n>`), so workers take different ones, and a crashed worker's
 * successor resumes at the partition's checkpoint.
 */
@Injectable()
export class KeyIndexRebuildPlan {
  constructor(private readonly redis: RedisService) {}

  /** The plan Redis holds (null: none). */
  async read(): Promise<RebuildPlan | null> {
    const fields = await this.redis.client.hgetall(this.key());
    if (!fields.epoch) return null;
    const partitions: RebuildPartition[] = [];
    for (let n = 0; fields[`part:${n}`] !== undefined; n++) {
      const stored = JSON.parse(fields[`part:${n}`]) as StoredPartition;
      const next = fields[`next:${n}`];
      partitions.push({ n, ...stored, next: next === 'done' ? 'done' : Number(next) });
    }
    return { epoch: fields.epoch, left: Number(fields.left), partitions };
  }

  /** Partition `n`'s checkpoint as stored now (null: the plan is gone). */
  async nextOf(n: number): Promise<RebuildPartition['next'] | null> {
    const next = await this.redis.client.hget(this.key(), `next:${n}`);
    if (next === null) return null;
    return next === 'done' ? 'done' : Number(next);
  }

  /** Stores a plan for `epoch` unless one of that epoch is there already. */
  async make(epoch: string, partitions: StoredPartition[]): Promise<void> {
    const args: (string | number)[] = [epoch, partitions.length];
    for (const { clientId, from, to } of partitions) {
      args.push(JSON.stringify({ clientId, from, to } satisfies StoredPartition), from);
    }
    await PLAN.run(this.redis.client, this.key(), ...args);
  }

  /** The checkpoint of partition `n`: false when the plan is gone or the partition done. */
  async checkpoint(epoch: string, n: number, next: number): Promise<boolean> {
    return (await CHECKPOINT.run(this.redis.client, this.key(), epoch, n, next)) === 1;
  }

  /** Marks partition `n` done: how many are left (null: the plan is gone). */
  async done(epoch: string, n: number): Promise<number | null> {
    const left = Number(await DONE.run(this.redis.client, this.key(), epoch, n));
    return left < 0 ? null : left;
  }

  /** The plan is spent once the index is marked built. */
  async remove(): Promise<void> {
    await this.redis.client.del(this.key());
  }

  private key(): string {
    return this.redis.key('kx', 'rebuild');
  }
}
