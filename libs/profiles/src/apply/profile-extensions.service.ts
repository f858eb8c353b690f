import { Inject, Injectable } from '@nestjs/common';
import type { Profile } from '../domain/profile.schema';
import { ProfileEventRepository } from '../persistence/profile-event.repository';
import {
  type CountedStep,
  PROFILE_EXTENSIONS,
  type ProfileExtension,
  type SavedProfile,
  type WriteTransition,
} from '../ports/profile-extension.port';

/**
 * The extensions the app composed (PROFILE_EXTENSIONS), called phase by phase by the
 * apply's stages, whatever the source of the writes (the worker's pass: a batch of one
 * profile; the bulk import: its new profiles). Each phase's contract is the port's.
 */
@Injectable()
export class ProfileExtensions {
  constructor(
    @Inject(PROFILE_EXTENSIONS) private readonly extensions: ProfileExtension[],
    private readonly events: ProfileEventRepository,
  ) {}

  /** The profile read with `read`, each extension's `load` around it (in the same turn). */
  load(
    clientId: string,
    profileId: number,
    read: () => Promise<Profile | null>,
  ): Promise<Profile | null> {
    const wrapped = this.extensions.reduce<() => Promise<Profile | null>>(
      (inner, extension) =>
        extension.load ? () => extension.load!(clientId, profileId, inner) : inner,
      read,
    );
    return wrapped();
  }

  /** The profile to save after a pass (pure). */
  prepare(start: Profile, end: Profile, steps: CountedStep[]): Profile {
    return this.extensions.reduce(
      (profile, extension) =>
        extension.prepare ? extension.prepare(start, profile, steps) : profile,
      end,
    );
  }

  /** In order, one extension after the other (as the apply hooks ran). */
  async beforeSave(clientId: string, writes: WriteTransition[]): Promise<void> {
    if (!writes.length) return;
    for (const extension of this.extensions) await extension.beforeSave?.(clientId, writes);
  }

  /** Together (they precede the save side by side); the first failure is thrown. */
  async beforeCommit(clientId: string, profiles: Profile[]): Promise<void> {
    await settleAll(
      this.extensions.map((extension) => extension.beforeCommit?.(clientId, profiles)),
    );
  }

  /**
   * Together, each whatever the others do; then the first failure is thrown (the caller
   * leaves the rest to a job of its own).
   */
  async afterSave(clientId: string, saved: SavedProfile[]): Promise<void> {
    if (!saved.length) return;
    await settleAll(this.extensions.map((extension) => extension.afterSave?.(clientId, saved)));
  }

  /**
   * `afterSave` again for profiles as saved before (a job or a resumed import that finds
   * them saved: the worker before it may have died right after the save), each with the
   * events of its last applied write, read back.
   */
  async afterSaveAgain(clientId: string, profiles: Profile[]): Promise<void> {
    if (!profiles.length || !this.extensions.some((extension) => extension.afterSave)) return;
    const saved = await Promise.all(
      profiles.map(async (profile): Promise<SavedProfile> => {
        const last = profile.eventLog?.[profile.eventLog.length - 1];
        if (!last || last.seq !== profile.appliedSeq) return { profile, events: [] };
        return {
          profile,
          events: await this.events.find(profile.clientId, profile.profileId, last.seq),
        };
      }),
    );
    await this.afterSave(clientId, saved);
  }

  /** In order, one after the other; a failure fails the erasure's attempt. */
  async erased(clientId: string, profileId: number): Promise<void> {
    for (const extension of this.extensions) await extension.erased?.(clientId, profileId);
  }
}

/** Waits for all; throws the first failure. */
async function settleAll(calls: (Promise<unknown> | undefined)[]): Promise<void> {
  const outcomes = await Promise.allSettled(calls);
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
}
