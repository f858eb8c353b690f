import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, Metrics } from '@app/shared';
import { alternateIdKey } from '../../domain/element-rules';
import type { Profile } from '../../domain/profile.schema';
import { ExpiryIndex } from '../../intake/expiry/expiry-index.service';
import { ProfileReadModel } from '../../read/profile-read-model.service';
import { TagRepository } from '../../persistence/tag.repository';
import { ProfileKeyIndex } from '../../read/search/profile-key-index.service';
import { AlternateIdClaims } from '../../persistence/alternate-id-claims.service';
import type { AlternateIdPair } from '../../persistence/alternate-id-claims.service';
import { ProfileWriteIntake } from '../../intake/profile-write-intake.service';
import { RecentSaves } from '../../read/redis-loss/recent-saves';
import type { ImportedProfileOutcome } from './create-imported-profiles.command';

/**
 * Step 4 of the import's new profiles (CreateImportedProfilesHandler's class comment) for
 * the profiles step 2 saved, whether just now or by an attempt a crash cut short: their
 * search keys and due expiries, their other alternate id claims, read model and new tags.
 */
@Injectable()
export class ImportedProfileFinisher {
  private readonly logger = new Logger('CreateImportedProfiles');

  constructor(
    private readonly alternateIds: AlternateIdClaims,
    private readonly tags: TagRepository,
    private readonly readModel: ProfileReadModel,
    private readonly expiryIndex: ExpiryIndex,
    private readonly keyIndex: ProfileKeyIndex,
    private readonly intake: ProfileWriteIntake,
    private readonly metrics: Metrics,
    private readonly recentSaves: RecentSaves,
  ) {}

  /**
   * Step 4's search keys and due expiries of the saved profiles whose match pair is theirs,
   * for all of them at once (one pipeline each). A profile that `finishAll` then sends the
   * ordinary way leaves stale keys (its delete removes them; a search checks every
   * candidate anyway).
   */
  async indexAll(profiles: Profile[]): Promise<void> {
    for (const profile of profiles) this.recentSaves.note(profile.clientId, profile.profileId);
    await this.keyIndex.beforeCreateMany(profiles);
    await this.expiryIndex.add(profiles.filter((profile) => profile.state === 'active'));
  }

  /**
   * Step 4 for saved profiles, per profile 'created', or 'ordinary' when a pair turned out
   * to be someone else's. `claimedPair`: the match pair step 3 claimed for it (absent on a
   * resumed batch). The other claims per profile (concurrently), then the read model of
   * those that keep their pairs in one publication (a script call, not a command each),
   * then new tags.
   */
  async finishAll(
    items: { profile: Profile; claimedPair?: AlternateIdPair }[],
    tagsSeen: Set<string>,
  ): Promise<ImportedProfileOutcome[]> {
    const outcomes = await Promise.all(
      items.map(({ profile, claimedPair }) => this.claimOthers(profile, claimedPair)),
    );
    const created = items.filter((_, k) => outcomes[k] === 'created').map(({ profile }) => profile);
    try {
      await this.readModel.publishMany(created);
    } catch (error) {
      // Readers read the database meanwhile (nothing was published for a new profile).
      this.logger.warn(`read model of ${created.length} profiles not published: ${String(error)}`);
    }
    await Promise.all(
      created.map(async (profile) => {
        for (const tag of profile.data?.ProfileTags ?? []) {
          if (tag.IsActive === false || tagsSeen.has(tag.Key)) continue;
          tagsSeen.add(tag.Key);
          await this.tags.ensure(profile.clientId, tag.Name, tag.Key);
        }
        this.metrics.writeApplied('create');
      }),
    );
    return outcomes;
  }

  /**
   * Step 4's claims for one saved profile: its alternate ids other than the match pair step
   * 3 claimed (`claimedPair`); 'ordinary' when one is someone else's (the profile then goes
   * as a delete would take it).
   */
  private async claimOthers(
    profile: Profile,
    claimedPair?: AlternateIdPair,
  ): Promise<ImportedProfileOutcome> {
    const { clientId, profileId } = profile;
    // The match pair step 3 claimed is not claimed again (a second insert, then a read).
    const claimed =
      claimedPair && alternateIdKey(claimedPair.AlternateIdType, claimedPair.AlternateId);
    const others = (profile.data?.AlternateIds ?? []).filter(
      (pair) => alternateIdKey(pair.AlternateIdType, pair.AlternateId) !== claimed,
    );
    try {
      await this.alternateIds.claimAll(clientId, profileId, others);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // claimAll released the pairs it took, and the match pair goes too (the record is now
      // a write by that pair, which must not find this profile holding it); the profile
      // goes as a delete would take it.
      if (claimedPair) await this.alternateIds.releasePairs(clientId, profileId, [claimedPair]);
      await this.intake.accept({
        clientId,
        profileId,
        kind: 'delete',
        userId: 'system:bulk-import',
        known: { appliedSeq: profile.appliedSeq, acceptedSeq: profile.appliedSeq },
        background: true,
        // A bulk import's run, in the worker: no request, no commit window.
        window: null,
      });
      return 'ordinary';
    }
    return 'created';
  }
}
