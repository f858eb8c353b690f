import { Injectable, Logger } from '@nestjs/common';
import { NotFoundError } from '@app/shared';
import { ProfileReadModel, type ProfileSnapshot } from '../read/profile-read-model.service';
import { ProfileRepository } from './profile.repository';
import { ProfileWriteRepository } from './profile-write.repository';
import { MergedProfileError } from '../domain/profile-merge-steps';
import { alternateIdKey } from '../domain/element-rules';
import { AlternateIdClaimRepository } from './alternate-id-claim.repository';
import type { AlternateIdPair } from './alternate-id-claims.service';

const REBUILD_ATTEMPTS = 3;

/**
 * Looks up a profile that a request names, answering 404 for one that does not exist:
 * never created, deleted, or a shell whose create was refused. It reads the read model
 * (Redis, no database command); on a miss it reads the profile and its last accepted write
 * by `_id` (ProfileWriteRepository.lastAcceptedSeq: one lookup when nothing waits, about
 * 2·log2(n) for n waiting writes) and rebuilds the entry, so a lost entry costs a few `_id`
 * lookups once, and its UpdateStatus is the engine's, whatever Redis lost.
 */
@Injectable()
export class ExistingProfiles {
  private readonly logger = new Logger('ExistingProfiles');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly readModel: ProfileReadModel,
    private readonly claims: AlternateIdClaimRepository,
  ) {}

  /** 404 when there is none; a merged profile's 404 names its survivor (MergedProfileError). */
  async get(clientId: string, profileId: number): Promise<ProfileSnapshot> {
    const profile = await this.findAny(clientId, profileId);
    if (profile?.state === 'merged') throw new MergedProfileError(profileId, profile.mergedInto!);
    if (!profile) throw new NotFoundError(`Profile ${profileId} was not found`);
    return profile;
  }

  /** The profile, or null when there is none (a merged profile is none either). */
  async find(clientId: string, profileId: number): Promise<ProfileSnapshot | null> {
    const profile = await this.findAny(clientId, profileId);
    return profile?.state === 'merged' ? null : profile;
  }

  /** The profile a merged one points at (one hop: a survivor is never merged), else itself. */
  async findFollowingMerge(clientId: string, profileId: number): Promise<ProfileSnapshot | null> {
    const profile = await this.findAny(clientId, profileId);
    if (profile?.state !== 'merged') return profile;
    return this.find(clientId, profile.mergedInto!);
  }

  /**
   * The profile the pair's claim names, when it holds the pair active: the common case of a
   * lookup by alternate id (one `_id` read, then find). Null otherwise: no claim, or one
   * the caller checks for staleness as a write would (AlternateIdClaims.currentHolder).
   */
  async findClaimHolder(clientId: string, pair: AlternateIdPair): Promise<ProfileSnapshot | null> {
    const key = alternateIdKey(pair.AlternateIdType, pair.AlternateId);
    const claimed = await this.claims.holder(clientId, pair.AlternateIdType, pair.AlternateId);
    const holder = claimed === null ? null : await this.find(clientId, claimed);
    const holds = holder?.data?.AlternateIds?.some(
      (stored) =>
        stored.IsActive !== false &&
        alternateIdKey(stored.AlternateIdType, stored.AlternateId) === key,
    );
    return holds ? holder : null;
  }

  /** Like find, merged profiles included (with their survivor). */
  async findAny(clientId: string, profileId: number): Promise<ProfileSnapshot | null> {
    const cached = await this.readModel.read(clientId, profileId);
    return visible(cached ?? (await this.rebuild(clientId, profileId)));
  }

  /**
   * The snapshot from the database. The writes after it are read after the profile: if the
   * profile moved on meanwhile, it is read again, so a rebuilt entry never holds a profile
   * older than a write it calls applied. The profile is read again when no write was found
   * too: the worker's pass that saved meanwhile may have deleted a write's record already
   * (retention), which must not read as "caught up".
   */
  private async rebuild(clientId: string, profileId: number): Promise<ProfileSnapshot | null> {
    for (let attempt = 1; ; attempt++) {
      const profile = await this.profiles.findOne(clientId, profileId);
      if (!profile) return null;
      const acceptedSeq =
        profile.state === 'deleted'
          ? profile.appliedSeq
          : await this.writes.lastAcceptedSeq(clientId, profileId, profile.appliedSeq);
      if (attempt < REBUILD_ATTEMPTS) {
        const again = await this.profiles.findOne(clientId, profileId);
        if (again && again.appliedSeq !== profile.appliedSeq) continue;
      }
      await this.store(profile, acceptedSeq);
      return {
        clientId,
        profileId,
        state: profile.state,
        appliedSeq: profile.appliedSeq,
        data: profile.data,
        createdAt: profile.createdAt,
        historyPages: profile.historyPages ?? 0,
        acceptedSeq,
        historyRefs: profile.historyRefs,
        ...(profile.mergedInto !== undefined ? { mergedInto: profile.mergedInto } : {}),
        ...(profile.absorbed?.length ? { absorbed: profile.absorbed } : {}),
      };
    }
  }

  /** Best effort: a failed store only means the next read rebuilds again. */
  private async store(
    profile: Parameters<ProfileReadModel['publish']>[0],
    acceptedSeq: number,
  ): Promise<void> {
    if (!this.readModel.available) return;
    try {
      // `acc` always recorded, "nothing waits" too: an entry without it is read as lost.
      await this.readModel.publish(profile, acceptedSeq);
    } catch (error) {
      this.logger.warn(`could not store the read model: ${String(error)}`);
    }
  }
}

/**
 * Deleted profiles and shells without an accepted create (refused, or still being
 * claimed) do not exist for a request.
 */
function visible(snapshot: ProfileSnapshot | null): ProfileSnapshot | null {
  if (!snapshot || snapshot.state === 'deleted') return null;
  if (snapshot.state === 'pending' && snapshot.acceptedSeq <= snapshot.appliedSeq) return null;
  return snapshot;
}
