import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigEventOutbox, ConsentTypeCatalog } from '@app/config';
import { Clock, type JobCounts, Settings } from '@app/shared';
import {
  CONSENT_KEY_PATHS,
  type ConsentVersionPendingWrite,
  markVersionPending,
  versionsOlderThan,
} from '../../domain/consent-version-pending';
import { normText } from '../../domain/element-rules';
import type { Profile } from '../../domain/profile.schema';
import { SearchCandidates } from '../../search-index/search-candidates.service';
import { ProfileWriteRepository } from '../../repositories/profile-write.repository';
import { ProfileWriteIntake } from '../../services/profile-write-intake.service';
import { NotifyConsentVersionsCommand } from './notify-consent-versions.command';

/** The user id the version writes carry (Edited.ModifiedBy, history, Updates). */
export const CONSENT_VERSION_USER = 'system:consent-version';

const EVENTS_PER_RUN = 100;
const PENDING_LOOKAHEAD = 100;
const CONSENT_VERSION_PUBLISHED = 'consent-version-published';

type Counts = { events: number; profiles: number; consents: number; alreadyQueued: number };

/**
 * Works through the `config_events` outbox: for each published consent version, pages
 * through the client's active profiles holding a consent of that type (consent-key
 * indexes, profile id order) and queues a `consent-version-pending` write on each whose
 * active consent is on an older version. After each page the event records the last
 * profile id (its cursor), so a run that stops resumes after it; the event is marked
 * processed at the end. A profile seen twice (a page redone after a crash) is not
 * queued again while its write is pending, and once applied it no longer qualifies.
 */
@CommandHandler(NotifyConsentVersionsCommand)
export class NotifyConsentVersionsHandler implements ICommandHandler<NotifyConsentVersionsCommand> {
  private readonly logger = new Logger('ConsentVersionNotification');

  constructor(
    private readonly outbox: ConfigEventOutbox,
    private readonly consentTypes: ConsentTypeCatalog,
    private readonly candidates: SearchCandidates,
    private readonly writes: ProfileWriteRepository,
    private readonly intake: ProfileWriteIntake,
    private readonly clock: Clock,
    private readonly settings: Settings,
  ) {}

  async execute({ maxPages }: NotifyConsentVersionsCommand): Promise<JobCounts> {
    const counts: Counts = { events: 0, profiles: 0, consents: 0, alreadyQueued: 0 };
    const budget = { pages: maxPages ?? Infinity };
    for (const event of await this.outbox.pending(EVENTS_PER_RUN)) {
      if (event.type !== CONSENT_VERSION_PUBLISHED) continue;
      const type = await this.consentTypes.findById(event.clientId, event.typeId);
      if (!holdsVersion(type, event.consentVersion)) {
        // Recorded before its change was saved: the save may still come (leave it), or it
        // never will (a crash in between): then the event goes, having changed nothing.
        if (this.clock.now().getTime() - new Date(event.at).getTime() < INTENT_GRACE_MS) continue;
        await this.outbox.markProcessed(event._id);
        continue;
      }
      const older = type ? versionsOlderThan(type.Versions, event.consentVersion) : [];
      if (type && older.length) {
        const write: ConsentVersionPendingWrite = {
          ConsentType: type.TypeName,
          LatestVersion: event.consentVersion,
          OlderVersions: older,
        };
        const finished = await this.notifyHolders(event, write, budget, counts);
        if (!finished) break;
      }
      await this.outbox.markProcessed(event._id);
      counts.events++;
    }
    this.logger.log(
      `as of ${this.clock.now().toISOString()}: ${counts.events} versions done, ` +
        `${counts.profiles} profiles queued (${counts.consents} consents)`,
    );
    return counts;
  }

  /** Pages through the holders from the event's cursor; false when the page budget ran out. */
  private async notifyHolders(
    event: { _id: string; clientId: string; cursor?: number | null },
    write: ConsentVersionPendingWrite,
    budget: { pages: number },
    counts: Counts,
  ): Promise<boolean> {
    const key = normText(write.ConsentType);
    const holders = [{ $or: CONSENT_KEY_PATHS.map((path) => ({ [path]: key })) }];
    const limit = this.settings.scheduledJobBatchSize;
    let after = event.cursor ?? 0;
    for (;;) {
      if (budget.pages <= 0) return false;
      budget.pages--;
      const page = await this.candidates.page(
        event.clientId,
        [[`consent:${key}`]],
        holders,
        after,
        limit,
        { capped: false },
      );
      for (const profile of page) await this.notifyOne(profile, write, counts);
      if (page.length) {
        after = page[page.length - 1].profileId;
        await this.outbox.saveCursor(event._id, after);
      }
      if (page.length < limit) return true;
    }
  }

  private async notifyOne(
    profile: Profile,
    write: ConsentVersionPendingWrite,
    counts: Counts,
  ): Promise<void> {
    const { consents } = markVersionPending(profile.data!, write, { at: '', userId: '' });
    if (!consents) return;
    const pending = await this.writes.pendingAfter(
      profile.clientId,
      profile.profileId,
      profile.appliedSeq,
      PENDING_LOOKAHEAD,
    );
    const queued = pending.some((queuedWrite) => {
      if (queuedWrite.kind !== 'consent-version-pending' || !queuedWrite.body) return false;
      const body = JSON.parse(queuedWrite.body) as ConsentVersionPendingWrite;
      return (
        normText(body.ConsentType) === normText(write.ConsentType) &&
        normText(body.LatestVersion) === normText(write.LatestVersion)
      );
    });
    if (queued) {
      counts.alreadyQueued++;
      return;
    }
    await this.intake.accept({
      clientId: profile.clientId,
      profileId: profile.profileId,
      kind: 'consent-version-pending',
      body: write,
      userId: CONSENT_VERSION_USER,
    });
    counts.profiles++;
    counts.consents += consents;
  }
}

/**
 * How long an event whose version its type does not hold (yet) is left for the change to be
 * saved; far longer than any save takes.
 */
const INTENT_GRACE_MS = 10 * 60 * 1000;

function holdsVersion(
  type: { Versions: { ConsentVersion: string }[] } | null | undefined,
  version: string,
): boolean {
  return !!type?.Versions.some((entry) => normText(entry.ConsentVersion) === normText(version));
}
