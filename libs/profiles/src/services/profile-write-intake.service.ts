import { Injectable, Logger } from '@nestjs/common';
import { JOB_NAMES, JobQueue } from '@app/shared';
import type {
  ProfileWrite,
  ProfileWriteKind,
  ProfileWriteStatus,
} from '../domain/profile-write.schema';
import type { CallerScope } from '../mapping/profile-view';
import { ProfileWriteRepository } from '../repositories/profile-write.repository';

const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * Accepts a validated profile write: records it in the database first (the record that
 * survives any crash), then enqueues a job that names its profile. It never writes the
 * profile document itself: the worker is its only writer (the embedded engine does not
 * make concurrent updates of one document atomic, so a second writer could undo a save). A lost job or a lost
 * Redis only delays the write: the worker's sweeper finds it again.
 */
@Injectable()
export class ProfileWriteIntake {
  private readonly logger = new Logger('ProfileWriteIntake');

  constructor(
    private readonly writes: ProfileWriteRepository,
    private readonly queue: JobQueue,
  ) {}

  async accept(write: {
    clientId: string;
    profileId: number;
    kind: ProfileWriteKind;
    body?: object;
    userId: string;
    /** The writer's scope: an overwrite or patch keeps what lies outside it. */
    scope?: CallerScope;
  }): Promise<ProfileWrite> {
    const stored = await this.writes.append({
      clientId: write.clientId,
      profileId: write.profileId,
      fromSeq: (await this.writes.lastSeq(write.clientId, write.profileId)) + 1,
      kind: write.kind,
      body: write.body === undefined ? undefined : JSON.stringify(write.body),
      userId: write.userId,
      scope: write.scope,
    });
    try {
      // The write is already recorded: a slow or absent Redis must not hold the answer.
      await this.queue.enqueue(
        JOB_NAMES.applyProfileWrites,
        { clientId: write.clientId, profileId: write.profileId },
        { timeoutMs: ENQUEUE_TIMEOUT_MS },
      );
    } catch (error) {
      this.logger.warn(
        `enqueue failed for ${stored._id}; the sweeper will carry it: ${String(error)}`,
      );
    }
    return stored;
  }

  /** Waits until the worker has applied (or refused) the write, up to `timeoutMs`. */
  async waitFor(clientId: string, writeId: string, timeoutMs: number): Promise<ProfileWriteStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const write = await this.writes.findById(clientId, writeId);
      const status = write?.status ?? 'applied';
      if (status !== 'pending' || Date.now() >= deadline) return status;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
