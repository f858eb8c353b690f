import type { JobLane } from '@app/shared';

/** System writes (jobs, list propagation, renames) are authored `system:...`. */
const SYSTEM_USER = /^system:/;

/**
 * The weight class of a profile write's job in its tenant's fair share (TenantFairQueue):
 * system writes and a bulk import's writes (`background`) are `bulk`, the writes a
 * tenant's clients send `interactive`. How fast a tenant sends does not matter: its share
 * is its share, whatever its rate and however many api processes accept its writes.
 */
export function laneOfWrite(write: { userId: string; background?: boolean }): JobLane {
  return write.background || SYSTEM_USER.test(write.userId) ? 'bulk' : 'interactive';
}
