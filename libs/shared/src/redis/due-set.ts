import type { RedisService } from './redis.service';

/**
 * A Redis sorted set of members due at a time (score: the time in ms) and its `built`
 * marker: derived data a scheduled job reads by due time, so it looks only at what is due,
 * and rebuilds from the engine when the marker is missing (Redis lost the set).
 */
export abstract class DueSet {
  protected constructor(
    protected readonly redis: RedisService,
    /** The set's key (its marker's: `<name>:built`), under the Redis prefix. */
    protected readonly name: string,
  ) {}

  /** Adds or moves members, each at its due time in ms. */
  protected async addDue(entries: [dueMs: number, member: string][]): Promise<void> {
    const args = entries.flat();
    if (args.length) await this.redis.client.zadd(this.key(), ...args);
  }

  async remove(member: string): Promise<void> {
    await this.redis.client.zrem(this.key(), member);
  }

  /** Members due by `asOf`, soonest first, `offset` into that order. */
  protected dueMembers(asOf: Date, offset: number, limit: number): Promise<string[]> {
    return this.redis.client.zrangebyscore(
      this.key(),
      '-inf',
      asOf.getTime(),
      'LIMIT',
      offset,
      limit,
    );
  }

  async isBuilt(): Promise<boolean> {
    return (await this.redis.client.exists(this.key('built'))) === 1;
  }

  async markBuilt(at = new Date()): Promise<void> {
    await this.redis.client.set(this.key('built'), at.toISOString());
  }

  protected key(...parts: string[]): string {
    return this.redis.key(this.name, ...parts);
  }
}
