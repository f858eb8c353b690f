import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { Profile } from '../../../domain/profile.schema';
import { ExpiryIndex } from '../../../intake/expiry/expiry-index.service';
import { ProfileReadModel } from '../../profile-read-model.service';
import { ProfileRepository } from '../../../persistence/profile.repository';
import { ProfileKeyIndex } from '../../search/profile-key-index.service';
import { RecentSaves } from '../recent-saves';
import { RepairRecentSavesCommand } from './repair-recent-saves.command';

/** Profiles read from the engine at once (each by `_id`). */
const CHUNK = 50;

/**
 * A Redis node that failed over to its replica (or restarted from its own files) lacks what
 * it had not yet replicated (or written): the last milliseconds. What the worker derived in
 * them from the profiles it saved is repaired here from the engine, without a full pass:
 * every search key of each recently saved profile is added again (a key it no longer holds
 * stays a stale member, which every search's exact check discards), its due expiry too, and
 * its read model entry is dropped, so the next read rebuilds it from the engine (profile
 * and accepted writes by `_id`, the pending status included) instead of serving an entry
 * that fell back to an earlier version. All of it is idempotent: a repair racing a save of
 * the same profile leaves the index a superset and the read model rebuilt or newer.
 */
@CommandHandler(RepairRecentSavesCommand)
export class RepairRecentSavesHandler implements ICommandHandler<RepairRecentSavesCommand> {
  private readonly logger = new Logger('RepairRecentSaves');

  constructor(
    private readonly recent: RecentSaves,
    private readonly profiles: ProfileRepository,
    private readonly keyIndex: ProfileKeyIndex,
    private readonly expiryIndex: ExpiryIndex,
    private readonly readModel: ProfileReadModel,
  ) {}

  async execute(command: RepairRecentSavesCommand): Promise<number> {
    const saved = this.recent.within();
    for (let at = 0; at < saved.length; at += CHUNK) {
      const some = saved.slice(at, at + CHUNK);
      const found = await Promise.all(
        some.map(({ clientId, profileId }) => this.profiles.findOne(clientId, profileId)),
      );
      const profiles = found.filter((profile): profile is Profile => profile !== null);
      await Promise.all([
        this.keyIndex.addAll(profiles),
        this.expiryIndex.add(profiles.filter((profile) => profile.state === 'active')),
        ...some.map(({ clientId, profileId }) => this.readModel.forget(clientId, profileId)),
      ]);
    }
    if (saved.length) {
      this.logger.warn(
        `${command.why}: derived data of ${saved.length} profiles saved here repaired`,
      );
    }
    return saved.length;
  }
}
