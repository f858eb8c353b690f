import { Injectable } from '@nestjs/common';
import type { RequestWindow } from '@app/shared';
import type { CallerScope } from '../domain/profile-view';
import type { ProfileWriteKind } from '../domain/profile-write.schema';
import { parseWriteBody } from '../domain/profile-write-body';
import { ProfileWriteRepository } from '../persistence/profile-write.repository';
import { ExistingProfiles } from '../persistence/existing-profiles.service';
import { ProfileWriteIntake } from '../intake/profile-write-intake.service';

/** Writes after the applied one searched for a system write an earlier run queued. */
const PENDING_LOOKAHEAD = 100;

/**
 * The port through which other modules change profiles: writes of the kinds their rule
 * modules own, queued like any write and applied by the worker in the profile's write
 * order (the owning rule module says how). Nothing else of another module writes a profile.
 */
@Injectable()
export class ProfileWriteQueue {
  constructor(
    private readonly intake: ProfileWriteIntake,
    private readonly writes: ProfileWriteRepository,
    private readonly existing: ExistingProfiles,
  ) {}

  /**
   * A user's write on an existing profile (NotFoundError when there is none), waited for
   * up to `timeoutMs` like a DELETE: applied, still pending, or failed with its reason.
   */
  async submitAndWait(
    write: {
      clientId: string;
      profileId: number;
      kind: ProfileWriteKind;
      body: object;
      userId: string;
      scope?: CallerScope;
      /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
      window: RequestWindow | null;
    },
    timeoutMs: number,
  ): Promise<{ status: 'applied' | 'pending' } | { status: 'failed'; reason?: string }> {
    const known = await this.existing.get(write.clientId, write.profileId);
    const accepted = await this.intake.accept({ ...write, known });
    const status = await this.intake.waitFor(accepted, timeoutMs);
    if (status !== 'failed') return { status };
    const reason = (await this.writes.findById(write.clientId, accepted._id))?.failureReason;
    return { status, reason };
  }

  /** Queues a system write on an existing profile; durable when the promise resolves. */
  async queue(write: {
    clientId: string;
    profileId: number;
    kind: ProfileWriteKind;
    body: object;
    userId: string;
    /** The request's commit window; null for a write queued by the worker (a job, a hook). */
    window: RequestWindow | null;
  }): Promise<void> {
    await this.intake.accept(write);
  }

  /**
   * The bodies of the writes of `kind` queued on the profile after write `afterSeq` and
   * not applied yet (the next 100 at most): so a job run again, or a write retried, does
   * not queue the same system write twice.
   */
  async pendingBodies<T>(
    profile: { clientId: string; profileId: number },
    afterSeq: number,
    kind: ProfileWriteKind,
  ): Promise<T[]> {
    const pending = await this.writes.pendingAfter(
      profile.clientId,
      profile.profileId,
      afterSeq,
      PENDING_LOOKAHEAD,
    );
    return (
      pending
        .filter((write) => write.kind === kind && write.body)
        // Parsed where every stored body is (parseWriteBody); a rule module's kind says its shape.
        .map((write) => parseWriteBody(write).body as T)
    );
  }
}
