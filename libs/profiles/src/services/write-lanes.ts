import type { JobLane } from '@app/shared';

/** System writes (jobs, list propagation, renames) are authored `system:...`. */
const SYSTEM_USER = /^system:/;

/**
 * Which queue lane a profile write's job takes (see BULK_JOBS_QUEUE): system writes and the
 * writes of a tenant accepting more than `burstPerSecond` in this process (in the current
 * second or the one before) take the bulk lane; the rest the interactive lane. Counted per
 * process, in memory: no Redis command on the acceptance path, and with several api
 * processes each lets a tenant burst that much.
 */
export class WriteLanes {
  private window = 0;
  private current = new Map<string, number>();
  private previous = new Map<string, number>();

  constructor(
    private readonly burstPerSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  laneOf(clientId: string, userId: string): JobLane {
    if (SYSTEM_USER.test(userId)) return 'bulk';
    const second = Math.floor(this.now() / 1000);
    if (second !== this.window) {
      this.previous = second === this.window + 1 ? this.current : new Map();
      this.current = new Map();
      this.window = second;
    }
    const count = (this.current.get(clientId) ?? 0) + 1;
    this.current.set(clientId, count);
    const before = this.previous.get(clientId) ?? 0;
    return count > this.burstPerSecond || before > this.burstPerSecond ? 'bulk' : 'interactive';
  }
}
