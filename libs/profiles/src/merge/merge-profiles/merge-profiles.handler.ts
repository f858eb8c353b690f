import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  Settings,
} from '@app/shared';
import type { MergedIntoWrite, ProfileMergeRecord } from '../../domain/profile-merge-record.schema';
import { mergedMessage } from '../../domain/profile-merge-steps';
import { storedScopeViolations } from '../../domain/profile-scope.rules';
import type { MergeProfileDto } from '../merge-profile.dto';
import { UPDATE_STATUS } from '../../wire/profile.mapper';
import { PROFILE_WIRE_FORMAT } from '../../wire/profile-wire-format';
import type { ProfileSnapshot } from '../../read/profile-read-model.service';
import { ProfileMergeRepository } from '../../persistence/profile-merge.repository';
import { ProfileWriteRepository } from '../../persistence/profile-write.repository';
import { AlternateIdClaims } from '../../persistence/alternate-id-claims.service';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { ProfileWriteIntake } from '../../intake/profile-write-intake.service';
import { ProfileSettings } from '../../profile-settings';
import { type MergeAnswer, MergeProfilesCommand } from './merge-profiles.command';

/** Writes after the absorbed profile's appliedSeq looked at for a stale record's write. */
const PENDING_LOOKAHEAD = 100;

/**
 * Step 0 of a merge (docs/profile-merge.md, "The crash-safe sequence"): the checks, the
 * merge record inserted by `_id` (of two merges absorbing one profile, one wins), then the
 * `merged-into` write queued on the absorbed profile, behind every write accepted for it
 * before. Nothing fallible runs after that write is accepted: an answered error never
 * leaves a write that applies. Every read is by `_id` (read model, records, claims).
 */
@CommandHandler(MergeProfilesCommand)
export class MergeProfilesHandler implements ICommandHandler<MergeProfilesCommand> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly alternateIds: AlternateIdClaims,
    private readonly merges: ProfileMergeRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly intake: ProfileWriteIntake,
    private readonly settings: Settings,
    private readonly profileSettings: ProfileSettings,
  ) {}

  async execute(command: MergeProfilesCommand): Promise<MergeAnswer> {
    const { clientId, userId, survivorId, body, scope, window } = command;
    if (!command.writesProfiles)
      throw new PermissionDeniedError('The user group lacks write permission on profiles');
    const absorbedId = await this.absorbedIdOf(clientId, body);
    if (absorbedId === survivorId) {
      throw new InvalidInputError(
        `AbsorbedProfileId (value ${absorbedId}) is the survivor itself: a profile cannot absorb itself`,
      );
    }
    const survivor = await this.existing.findAny(clientId, survivorId);
    if (!survivor) throw new NotFoundError(`Profile ${survivorId} was not found`);
    const absorbed = await this.existing.findAny(clientId, absorbedId);
    if (!absorbed) throw new NotFoundError(`Profile ${absorbedId} was not found`);

    const earlier = await this.liveRecord(clientId, absorbed);
    if (earlier) return this.repeated(earlier, survivor);
    if (absorbed.state === 'merged')
      throw new ConflictError(mergedMessage(absorbedId, absorbed.mergedInto!));
    if (survivor.state === 'merged')
      throw new ConflictError(mergedMessage(survivorId, survivor.mergedInto!));
    const survivorRecord = await this.liveRecord(clientId, survivor);
    if (survivorRecord) throw new ConflictError(beingMerged(survivorRecord));
    const forbidden = [survivor, absorbed].flatMap((profile) =>
      storedScopeViolations(profile, scope, PROFILE_WIRE_FORMAT),
    );
    if (forbidden.length) throw new PermissionDeniedError(forbidden[0]);

    const at = new Date();
    const record = {
      clientId,
      absorbed: absorbedId,
      survivor: survivorId,
      state: 'accepted' as const,
    };
    const inserted = await this.merges.insert({
      ...record,
      at,
      reasonCode: body.ReasonCode,
      userId,
    });
    if (!inserted.inserted) {
      if (inserted.existing) return this.repeated(inserted.existing, survivor);
      throw new ConflictError(`Profile ${absorbedId} is being merged; retry`);
    }
    const mergedInto: MergedIntoWrite = { Survivor: survivorId, ReasonCode: body.ReasonCode };
    let write;
    try {
      write = await this.intake.accept({
        clientId,
        profileId: absorbedId,
        kind: 'merged-into',
        body: mergedInto,
        userId,
        known: absorbed,
        window,
      });
    } catch (error) {
      // Not accepted: the record goes with it (a record left by a death here is stale).
      await this.merges.remove(clientId, absorbedId, survivorId).catch(() => undefined);
      throw error;
    }
    return {
      repeated: false,
      result: {
        ProfileId: survivorId,
        AbsorbedProfileId: absorbedId,
        Sequence: write.seq,
        UpdateStatus: UPDATE_STATUS.pending,
        SubmittedUtcTime: write.acceptedAt.toISOString(),
      },
    };
  }

  /** The profile to absorb: by id, or the holder of the alternate id's claim. */
  private async absorbedIdOf(clientId: string, body: MergeProfileDto): Promise<number> {
    const byId = body.AbsorbedProfileId !== undefined;
    const byPair =
      body.AbsorbedAlternateId !== undefined || body.AbsorbedAlternateIdType !== undefined;
    if (byId === byPair) {
      throw new InvalidInputError(
        'Name the profile to absorb by exactly one of AbsorbedProfileId or AbsorbedAlternateId with AbsorbedAlternateIdType',
      );
    }
    if (byId) return body.AbsorbedProfileId!;
    if (!body.AbsorbedAlternateId || !body.AbsorbedAlternateIdType) {
      throw new InvalidInputError(
        `AbsorbedAlternateId (value ${JSON.stringify(body.AbsorbedAlternateId ?? null)}) and AbsorbedAlternateIdType (value ${JSON.stringify(body.AbsorbedAlternateIdType ?? null)}) go together`,
      );
    }
    const pair = {
      AlternateId: body.AbsorbedAlternateId,
      AlternateIdType: body.AbsorbedAlternateIdType,
    };
    const holder = await this.alternateIds.currentHolder(
      clientId,
      pair,
      this.settings.syncWriteTimeoutMs,
    );
    if (holder === null) {
      throw new NotFoundError(
        `No profile has AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}"`,
      );
    }
    return holder;
  }

  /**
   * The merge record absorbing the profile, unless it is stale: accepted long ago (past
   * STALE_WRITE_MS), the profile not merged, and no `merged-into` write pending on it (its
   * request died between the record and the write, or the worker's refusal could not delete
   * it). A stale record is deleted here, so the merge can be asked again.
   */
  private async liveRecord(
    clientId: string,
    profile: ProfileSnapshot,
  ): Promise<ProfileMergeRecord | null> {
    const record = await this.merges.find(clientId, profile.profileId);
    if (!record || record.state === 'done' || profile.state === 'merged') return record;
    if (Date.now() - new Date(record.at).getTime() < this.profileSettings.staleWriteMs)
      return record;
    const pending = await this.writes.pendingAfter(
      clientId,
      profile.profileId,
      profile.appliedSeq,
      PENDING_LOOKAHEAD,
    );
    if (pending.some((write) => write.kind === 'merged-into')) return record;
    await this.merges.remove(clientId, profile.profileId, record.survivor);
    return null;
  }

  /**
   * A merge of the same pair again: 200 with the earlier one; another survivor: 409. The
   * merge is complete once the survivor absorbed the profile (its record may not say so
   * yet: a death between the survivor's save and the record's close).
   */
  private repeated(record: ProfileMergeRecord, survivor: ProfileSnapshot): MergeAnswer {
    const survivorId = survivor.profileId;
    if (record.survivor !== survivorId) throw new ConflictError(beingMerged(record));
    const done = record.state === 'done' || (survivor.absorbed ?? []).includes(record.absorbed);
    return {
      repeated: true,
      result: {
        ProfileId: survivorId,
        AbsorbedProfileId: record.absorbed,
        Sequence: record.seq ?? 0,
        UpdateStatus: done ? 'Complete' : UPDATE_STATUS.pending,
        SubmittedUtcTime: new Date(record.at).toISOString(),
      },
    };
  }
}

function beingMerged(record: ProfileMergeRecord): string {
  return record.state === 'done'
    ? mergedMessage(record.absorbed, record.survivor)
    : `Profile ${record.absorbed} is being merged into profile ${record.survivor}`;
}
