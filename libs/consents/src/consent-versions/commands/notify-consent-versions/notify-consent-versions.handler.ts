import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  CONSENT_TYPE_RENAMED,
  CONSENT_VERSION_PUBLISHED,
  type ConfigEvent,
  ConfigEventOutbox,
  ConsentTypeCatalog,
  type ConsentTypeDetails,
} from '@app/config';
import { Clock, type JobCounts, textKey, type TenantKey } from '@app/shared';
import {
  type CurrentNames,
  type HeldProfile,
  ProfileHolders,
  ProfileWriteQueue,
  withCurrentNames,
} from '@app/profiles';
import {
  type ConsentVersionPendingWrite,
  markVersionPending,
  versionsOlderThan,
} from '../../../domain/consent-version-pending';
import { NotifyConsentVersionsCommand } from './notify-consent-versions.command';
import { ConsentSettings } from '../../../consent-settings';

/** The user id the version writes carry (Edited.ModifiedBy, history, Updates). */
export const CONSENT_VERSION_USER = 'system:consent-version';
/** The user id of the writes that give a renamed consent type's holders its new name. */
export const CONSENT_RENAME_USER = 'system:consent-type-rename';

const EVENTS_PER_RUN = 100;

type Counts = {
  events: number;
  profiles: number;
  consents: number;
  alreadyQueued: number;
  renamed: number;
};
type ConsentTypeNames = { TypeName: string; FormerNames: string[] };

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
    private readonly holders: ProfileHolders,
    private readonly profiles: ProfileWriteQueue,
    private readonly clock: Clock,
    private readonly settings: ConsentSettings,
  ) {}

  async execute({ maxPages }: NotifyConsentVersionsCommand): Promise<JobCounts> {
    const counts: Counts = { events: 0, profiles: 0, consents: 0, alreadyQueued: 0, renamed: 0 };
    const budget = { pages: maxPages ?? Infinity };
    for (const event of await this.outbox.pendingAcrossTenants(EVENTS_PER_RUN)) {
      const type = await this.consentTypes.findById(event.clientId, event.typeId);
      if (!savedChange(type, event)) {
        // Recorded before its change was saved: the save may still come (leave it), or it
        // never will (a crash in between): then the event goes, having changed nothing.
        if (this.clock.now().getTime() - new Date(event.at).getTime() < INTENT_GRACE_MS) continue;
        await this.outbox.markProcessed(event._id);
        continue;
      }
      const finished =
        event.type === CONSENT_TYPE_RENAMED
          ? await this.renameHolders(event, type!, budget, counts)
          : await this.notifyVersion(event, type!, budget, counts);
      if (!finished) break;
      await this.outbox.markProcessed(event._id);
      counts.events++;
    }
    this.logger.log(
      `as of ${this.clock.now().toISOString()}: ${counts.events} events done, ` +
        `${counts.profiles} profiles queued (${counts.consents} consents), ` +
        `${counts.renamed} profiles queued to take a consent type's new name`,
    );
    return counts;
  }

  /** A published version: holders on an older version get a consent-version-pending write. */
  private async notifyVersion(
    event: ConfigEvent,
    type: ConsentTypeDetails,
    budget: { pages: number },
    counts: Counts,
  ): Promise<boolean> {
    const older = versionsOlderThan(type.Versions, event.consentVersion!);
    if (!older.length) return true;
    const write: ConsentVersionPendingWrite = {
      ConsentType: type.TypeName,
      LatestVersion: event.consentVersion!,
      OlderVersions: older,
    };
    // Holders under any name of the type: a consent keeps a former name until its
    // profile's next write.
    const names = currentNamesOf(type);
    return this.walkHolders(event, allNames(type), budget, (profile) =>
      this.notifyOne(profile, withCurrentNames(profile.data!, names), write, counts),
    );
  }

  /**
   * A renamed consent type: every profile holding a consent under the former name gets a
   * rename-consent-type write, which stores the current name in the profile's write order.
   */
  private async renameHolders(
    event: ConfigEvent,
    type: ConsentTypeDetails,
    budget: { pages: number },
    counts: Counts,
  ): Promise<boolean> {
    return this.walkHolders(event, [event.consentType], budget, async (profile) => {
      await this.profiles.queue({
        clientId: profile.clientId,
        profileId: profile.profileId,
        kind: 'rename-consent-type',
        body: { ConsentType: type.TypeName },
        userId: CONSENT_RENAME_USER,
        // The consent-versions job: no request, no commit window.
        window: null,
      });
      counts.renamed++;
    });
  }

  /**
   * Pages through the active profiles holding a consent under one of `names`, from the
   * event's cursor; false when the page budget ran out.
   */
  private async walkHolders(
    event: { _id: TenantKey; clientId: string; cursor?: number | null },
    names: string[],
    budget: { pages: number },
    visit: (profile: HeldProfile) => Promise<void>,
  ): Promise<boolean> {
    const keys = [...new Set(names.map(textKey))];
    const limit = this.settings.scheduledJobBatchSize;
    let after = event.cursor ?? 0;
    for (;;) {
      if (budget.pages <= 0) return false;
      budget.pages--;
      const page = await this.holders.page(event.clientId, { consentTypes: keys }, after, limit);
      for (const profile of page) await visit(profile);
      if (page.length) {
        after = page[page.length - 1].profileId;
        await this.outbox.saveCursor(event._id, after);
      }
      if (page.length < limit) return true;
    }
  }

  private async notifyOne(
    profile: HeldProfile,
    data: NonNullable<HeldProfile['data']>,
    write: ConsentVersionPendingWrite,
    counts: Counts,
  ): Promise<void> {
    const { consents } = markVersionPending(data, write, { at: '', userId: '' });
    if (!consents) return;
    const pending = await this.profiles.pendingBodies<ConsentVersionPendingWrite>(
      profile,
      profile.appliedSeq,
      'consent-version-pending',
    );
    const queued = pending.some((body) => {
      return (
        textKey(body.ConsentType) === textKey(write.ConsentType) &&
        textKey(body.LatestVersion) === textKey(write.LatestVersion)
      );
    });
    if (queued) {
      counts.alreadyQueued++;
      return;
    }
    await this.profiles.queue({
      clientId: profile.clientId,
      profileId: profile.profileId,
      kind: 'consent-version-pending',
      body: write,
      userId: CONSENT_VERSION_USER,
      // The consent-versions job: no request, no commit window.
      window: null,
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

/** Whether the change the event records is saved: the version published, the rename made. */
function savedChange(type: ConsentTypeDetails | null, event: ConfigEvent): boolean {
  if (!type) return false;
  if (event.type === CONSENT_TYPE_RENAMED) {
    return type.FormerNames.some((name) => textKey(name) === textKey(event.consentType));
  }
  return (
    event.type === CONSENT_VERSION_PUBLISHED &&
    type.Versions.some((entry) => textKey(entry.ConsentVersion) === textKey(event.consentVersion))
  );
}

function allNames(type: ConsentTypeNames): string[] {
  return [type.TypeName, ...type.FormerNames];
}

/** The type's names as withCurrentNames takes them: any of them is the current one. */
function currentNamesOf(type: ConsentTypeNames): CurrentNames {
  const keys = new Set(allNames(type).map(textKey));
  return {
    renamedConsentTypes: type.FormerNames.length > 0,
    consentTypeName: (name) => (keys.has(textKey(name)) ? type.TypeName : undefined),
  };
}
