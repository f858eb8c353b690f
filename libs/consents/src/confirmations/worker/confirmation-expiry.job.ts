import { Injectable, Logger } from '@nestjs/common';
import { ProfileWriteQueue } from '@app/profiles';
import {
  Clock,
  HandlesJob,
  type JobCounts,
  type JobHandler,
  type ScheduledRunPayload,
} from '@app/shared';
import { expireWriteOf } from '../domain/confirmation-subject';
import { ConfirmationRepository } from '../repositories/confirmation.repository';
import { ConfirmationExpiryIndex } from '../services/confirmation-expiry-index.service';
import { CONFIRMATION_EXPIRY } from './confirmation.job-definitions';

/** Who an expiry write names as its author (Edited.ModifiedBy). */
export const CONFIRMATION_EXPIRY_USER = 'system:confirmation-expiry';

/** Due confirmations a run reads at a time. */
const PAGE = 200;
/** Pages a run takes at most (the rest waits for the next run). */
const MAX_PAGES = 25;
const REBUILD_PAGE = 500;

/**
 * Pending confirmations past their time to live (docs/double-opt-in.md, "States"): each
 * due one, found through the ConfirmationExpiryIndex and read by `_id`, gets the write
 * `consent-confirmation-expire` (`preference-confirmation-expire` for an opt-in) queued like any profile write (so it applies in the
 * profile's write order: a confirmation applied before it wins); applying it clears the
 * consent's mark and records the confirmation Expired (the apply extension).
 */
@Injectable()
@HandlesJob(CONFIRMATION_EXPIRY)
export class ConfirmationExpiryJob implements JobHandler<ScheduledRunPayload, JobCounts> {
  private readonly logger = new Logger(ConfirmationExpiryJob.name);

  constructor(
    private readonly confirmations: ConfirmationRepository,
    private readonly index: ConfirmationExpiryIndex,
    private readonly profiles: ProfileWriteQueue,
    private readonly clock: Clock,
  ) {}

  async handle(): Promise<JobCounts> {
    if (!(await this.index.isBuilt())) await this.rebuild();
    const now = this.clock.now();
    let expired = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const due = await this.index.due(now, PAGE);
      for (const key of due) {
        const confirmation = await this.confirmations.findByKey(key);
        if (
          confirmation?.State === 'Pending' &&
          Date.parse(confirmation.ExpiresDate) > now.getTime()
        ) {
          // Not due after all (its index entry is stale): scored again from the document.
          await this.index.add([confirmation]);
          continue;
        }
        if (confirmation?.State === 'Pending') {
          const { kind, body } = expireWriteOf(confirmation);
          await this.profiles.queue({
            clientId: confirmation.clientId,
            profileId: confirmation.profileId,
            kind,
            body,
            userId: CONFIRMATION_EXPIRY_USER,
            window: null,
          });
          expired++;
        }
        // Queued (a death before this line queues it again: the write is idempotent), or
        // closed, or gone with its profile's erasure.
        await this.index.remove(key);
      }
      if (due.length < PAGE) break;
    }
    return { confirmations: expired };
  }

  /** The index from the confirmations, after Redis lost it: one pass, once per loss. */
  private async rebuild(): Promise<void> {
    let count = 0;
    for await (const page of this.confirmations.pendingExpiries(REBUILD_PAGE)) {
      await this.index.add(page);
      count += page.length;
    }
    await this.index.markBuilt();
    this.logger.log(`confirmation expiry index rebuilt: ${count} pending`);
  }
}
