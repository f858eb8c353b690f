import { Injectable, Logger } from '@nestjs/common';
import { forgetIdempotentAnswers, RedisService } from '@app/shared';
import { identifiersOf } from '../domain/erased-identifiers';
import { writeBodyOf } from '../domain/profile-write-body';
import type { ProfileWrite } from '../domain/profile-write.schema';
import type { Profile } from '../domain/profile.schema';
import { RecentSaves } from '../read/redis-loss/recent-saves';
import { ProfileSettings } from '../profile-settings';
import { ProfileReadModel } from '../read/profile-read-model.service';
import { ProfileErasureRepository } from '../persistence/profile-erasure.repository';
import { ProfileEventRepository } from '../persistence/profile-event.repository';
import { ProfileHistoryRepository } from '../persistence/profile-history.repository';
import { ProfileWriteRepository } from '../persistence/profile-write.repository';
import { ProfileKeyIndex } from '../read/search/profile-key-index.service';
import { AlternateIdClaims } from '../persistence/alternate-id-claims.service';
import { WriteKeys } from '../intake/write-keys.service';
import { ErasedIdentifiers } from './erased-identifiers.service';
import { ProfileExtensions } from '../apply/profile-extensions.service';

/**
 * The worker's erasure of a profile (docs/data-subject.md), run while it applies the
 * `erase` write, under the profile's lease and **before** the profile's save: the save of
 * the erased tombstone is the commit point. Every step is idempotent and addressed by `_id`
 * (or by the profile's own Redis keys), so an attempt that dies anywhere before the save is
 * simply run again (the write is still pending: its job or the sweeper brings it back), and
 * the erasure is never given up (ApplyProfileWritesHandler). In order:
 *
 * 1. the audit tombstone and the salted hashes of the identifiers the data holds (first,
 *    while the data is still there to hash);
 * 2. the read model: the erased state published at the erasure's sequence number, so no
 *    reader rebuilding from the engine can put the older data back (the read model never
 *    takes an older version);
 * 3. the profile's members of the search key index (whose Redis key names hold the values);
 * 4. its history pages, event documents, the records of its earlier writes (bodies), its
 *    alternate-id claims;
 * 5. the answers kept for its requests' Idempotency-Keys;
 * 6. the extensions' `erased` (Events: dead letters, delivery cursors, paused marks;
 *    Consents: the profile's confirmations).
 */
@Injectable()
export class ProfileEraser {
  private readonly logger = new Logger('ProfileErasure');

  constructor(
    private readonly erasures: ProfileErasureRepository,
    private readonly erased: ErasedIdentifiers,
    private readonly readModel: ProfileReadModel,
    private readonly keyIndex: ProfileKeyIndex,
    private readonly history: ProfileHistoryRepository,
    private readonly events: ProfileEventRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly redis: RedisService,
    private readonly settings: ProfileSettings,
    private readonly writeKeys: WriteKeys,
    private readonly recentSaves: RecentSaves,
    private readonly extensions: ProfileExtensions,
  ) {}

  async beforeSave(profile: Profile, write: ProfileWrite): Promise<void> {
    const { clientId, profileId } = profile;
    const body = writeBodyOf(write, 'erase');
    const now = new Date();

    // 1. The tombstone, from the data still held (a retry finds the same data).
    const hashed = await this.erased.hash(clientId, identifiersOf(profile.data));
    for (const { kind, hash } of hashed)
      await this.erasures.noteIdentifier(clientId, profileId, kind, hash, now);
    await this.erasures.saveTombstone({
      clientId,
      profileId,
      seq: write.seq,
      requestedBy: write.userId,
      requestedAt: write.acceptedAt,
      erasedAt: now,
      reasonCode: body.ReasonCode ?? '',
      ...(body.Note ? { note: body.Note } : {}),
      identifiers: hashed,
    });

    // 2. The read model shows the profile erased from now on.
    const tombstone: Profile = {
      _id: profile._id,
      clientId,
      profileId,
      state: 'deleted',
      appliedSeq: write.seq,
      historyPages: 0,
      ...(profile.createdAt ? { createdAt: profile.createdAt } : {}),
    };
    await this.readModel.publish(tombstone);
    this.recentSaves.note(clientId, profileId);

    // 3. Search keys (removed now rather than after the save: nothing must stay behind).
    await this.keyIndex.afterSave(profile, tombstone);

    // 4. What the engine holds of the profile besides its document.
    await this.history.eraseProfile(clientId, profileId, profile.historyPages ?? 0);
    await this.events.erase(
      clientId,
      profileId,
      (profile.eventLog ?? []).map((entry) => entry.seq),
    );
    await this.forgetEarlierWrites(clientId, profileId, write.seq);
    if (profile.state !== 'deleted')
      await this.alternateIds.releaseDropped(clientId, profileId, profile.data?.AlternateIds, []);

    // 5. Answers kept for Idempotency-Keys that name the profile.
    const location = new RegExp(`(^|/)Profile/${profileId}$`);
    const forgotten = await forgetIdempotentAnswers(
      this.redis,
      clientId,
      ({ body, location: at }) =>
        Boolean(
          (body &&
            typeof body === 'object' &&
            (body as { ProfileId?: unknown }).ProfileId === profileId) ||
          (at && location.test(at)),
        ),
    );

    // And those kept in the engine for the keyed writes of the profile (WriteKeys).
    const forgottenKeys = await this.writeKeys.forgetProfile(clientId, profileId);

    // 6. Other modules (the extensions).
    await this.extensions.erased(clientId, profileId);
    this.logger.log(
      `profile ${profileId} of ${clientId} erased (write ${write.seq}; ${hashed.length} identifier hashes; ${forgotten + forgottenKeys} idempotent answers)`,
    );
  }

  /**
   * The records of the writes before the erasure (their bodies hold personal data): those
   * in the kept window, and below it as long as some are found (a window that was larger).
   */
  private async forgetEarlierWrites(
    clientId: string,
    profileId: number,
    seq: number,
  ): Promise<void> {
    const window = this.settings.writeRecordsKept;
    for (let earlier = seq - 1; earlier >= 1; earlier--) {
      const found = await this.writes.findSeq(clientId, profileId, earlier);
      if (found) await this.writes.forget(clientId, profileId, earlier);
      else if (earlier < seq - window) return;
    }
  }
}
