import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, type JobCounts } from '@app/shared';
import { ProfileRules } from '../../../domain/profile-rules';
import type { ExpireWrite } from '../../../domain/profile-transition';
import type { Profile } from '../../../domain/profile.schema';
import { ExpiryCandidates } from '../expiry-candidates.repository';
import { ProfileWriteRepository } from '../../../persistence/profile-write.repository';
import { ProfileWriteIntake } from '../../profile-write-intake.service';
import { ExpireConsentsCommand } from './expire-consents.command';
import { ProfileSettings } from '../../../profile-settings';

/** The user id the expiry writes carry (Edited.ModifiedBy, history, Updates). */
export const EXPIRY_USER = 'system:consent-expiry';

/** Pending writes of a profile looked at for an `expire` already queued. */
const PENDING_LOOKAHEAD = 100;

/**
 * Finds active profiles (every client) holding a consent or preference past its
 * ExpirationDate as of the Clock's now, and queues one `expire` write per profile; the
 * worker applies it in the profile's write order like any write. Nothing is kept between
 * runs: a run that stops halfway leaves profiles that the next run finds again, and a
 * profile whose `expire` write is still pending is not queued twice.
 */
@CommandHandler(ExpireConsentsCommand)
export class ExpireConsentsHandler implements ICommandHandler<ExpireConsentsCommand> {
  private readonly logger = new Logger('ConsentExpiry');

  constructor(
    private readonly candidates: ExpiryCandidates,
    private readonly writes: ProfileWriteRepository,
    private readonly intake: ProfileWriteIntake,
    private readonly clock: Clock,
    private readonly settings: ProfileSettings,
    private readonly rules: ProfileRules,
  ) {}

  async execute({ maxPages }: ExpireConsentsCommand): Promise<JobCounts> {
    const asOf = this.clock.now();
    const body: ExpireWrite = { AsOf: asOf.toISOString() };
    const limit = this.settings.scheduledJobBatchSize;
    const counts = { candidates: 0, profiles: 0, consents: 0, preferences: 0, alreadyQueued: 0 };
    let offset = 0;
    for (let pages = 0; maxPages === undefined || pages < maxPages; pages++) {
      const { profiles: page, last } = await this.candidates.page(asOf, offset, limit);
      counts.candidates += page.length;
      for (const profile of page) {
        const due = this.rules.expire(profile.data!, body.AsOf, { at: body.AsOf, userId: '' });
        if (!Object.values(due.counts).some((count) => count > 0)) continue;
        if (await this.expiryPending(profile)) {
          counts.alreadyQueued++;
          continue;
        }
        await this.intake.accept({
          clientId: profile.clientId,
          profileId: profile.profileId,
          kind: 'expire',
          body,
          userId: EXPIRY_USER,
          // A scheduled job: no request, no commit window.
          window: null,
        });
        counts.profiles++;
        counts.consents += due.counts.consents ?? 0;
        counts.preferences += due.counts.preferences ?? 0;
      }
      if (last) break;
      offset += page.length;
    }
    this.logger.log(
      `as of ${body.AsOf}: ${counts.profiles} profiles queued (${counts.consents} consents, ` +
        `${counts.preferences} preferences) of ${counts.candidates} candidates`,
    );
    return counts;
  }

  private async expiryPending(profile: Profile): Promise<boolean> {
    const pending = await this.writes.pendingAfter(
      profile.clientId,
      profile.profileId,
      profile.appliedSeq,
      PENDING_LOOKAHEAD,
    );
    return pending.some((write) => write.kind === 'expire');
  }
}
