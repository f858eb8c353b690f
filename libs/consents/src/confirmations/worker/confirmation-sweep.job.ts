import { Injectable } from '@nestjs/common';
import {
  Clock,
  HandlesJob,
  type JobCounts,
  type JobHandler,
  JobQueue,
  type ScheduledRunPayload,
} from '@app/shared';
import { ConfirmationRepository } from '../repositories/confirmation.repository';
import { CONFIRMATION_MAIL, CONFIRMATION_SWEEP } from './confirmation.job-definitions';

/** An outbox document due for longer than this has lost its job (its job runs at once). */
const LOST_AFTER_MS = 20_000;
/** Outbox documents a run queues at most. */
const PER_RUN = 500;

/**
 * The outbox's safety net: a message due for a while whose job was lost (a worker killed
 * between its lease and the send, a lost Redis) gets a job again. A message queued twice
 * is still sent once: the job's lease and the outbox's send marker.
 */
@Injectable()
@HandlesJob(CONFIRMATION_SWEEP)
export class ConfirmationSweepJob implements JobHandler<ScheduledRunPayload, JobCounts> {
  constructor(
    private readonly confirmations: ConfirmationRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  async handle(): Promise<JobCounts> {
    const due = await this.confirmations.dueOutbox(
      new Date(this.clock.now().getTime() - LOST_AFTER_MS),
      PER_RUN,
    );
    for (const doc of due) {
      await this.jobs.enqueue(CONFIRMATION_MAIL, {
        clientId: doc.clientId,
        profileId: doc.profileId,
        confirmationId: doc.confirmationId,
      });
    }
    return { messages: due.length };
  }
}
