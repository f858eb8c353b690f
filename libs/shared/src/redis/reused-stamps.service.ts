import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ChainableCommander } from 'ioredis';
import { Settings } from '../settings/settings';
import { RedisService } from './redis.service';
import { StampChannel } from './stamp-channel';

/** Stamps one process keeps before it starts over (bounded memory). */
const MAX_KEPT = 20000;

/**
 * Stamps that read paths reuse without a Redis command. A stamp (the configuration's or the
 * do-not-contact lists' of a client, by the name its owner gives it) is kept for
 * READ_STAMP_REUSE_MS after it was read, while this process is subscribed to the channel on
 * which every change of a stamp is announced (`announce`, in the MULTI that writes the new
 * value). An announcement, or any loss of the subscription, drops what was kept, so a change
 * reaches a reader as soon as its announcement does. Only read paths reuse (contact decisions,
 * searches): write acceptance and the worker read the stamp on every use, since what they
 * decide is stored.
 */
@Injectable()
export class ReusedStamps implements OnModuleDestroy {
  private readonly channel: StampChannel;
  private readonly kept = new Map<string, { stamp: string; at: number }>();

  constructor(
    private readonly redis: RedisService,
    private readonly settings: Settings,
  ) {
    this.channel = new StampChannel(
      (options) => redis.connect(options),
      redis.key('stamp-changes'),
      (name) => (name === null ? this.kept.clear() : this.kept.delete(name)),
    );
  }

  onModuleDestroy(): void {
    this.channel.stop();
  }

  /**
   * The stamp `name` as last read while it may be reused; else `read`'s answer, kept when no
   * announcement arrived while it was read (it may postdate the answer). A null answer (the
   * owner could not read it) is never kept.
   */
  read(name: string, read: () => Promise<string | null>): Promise<string | null> {
    const reuseMs = this.settings.readStampReuseMs;
    if (reuseMs <= 0) return read();
    // Only processes that serve read paths subscribe (not the worker, not the admin CLI).
    this.channel.start();
    const kept = this.kept.get(name);
    if (kept && this.channel.healthy && Date.now() - kept.at < reuseMs)
      return Promise.resolve(kept.stamp);
    const generation = this.channel.generation;
    return read().then((stamp) => {
      if (stamp !== null && this.channel.healthy && this.channel.generation === generation) {
        if (this.kept.size >= MAX_KEPT) this.kept.clear();
        this.kept.set(name, { stamp, at: Date.now() });
      }
      return stamp;
    });
  }

  /** Adds the announcement of a change of `name` to the MULTI that writes its new value. */
  announce(multi: ChainableCommander, name: string): ChainableCommander {
    return multi.publish(this.channel.name, name);
  }

  /**
   * After this process changed `name`: it reads the new value at once, not when its
   * announcement comes back, and a read under way that raced the change keeps nothing.
   */
  changedHere(name: string): void {
    this.channel.generation++;
    this.kept.delete(name);
  }
}
