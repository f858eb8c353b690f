import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { type HeldValue, ProfileHolders } from '@app/profiles';
import { Clock } from '@app/shared';
import type { DncEntry } from '../../domain/dnc-list.schema';
import { holdsListedValue } from '../../domain/do-not-contact-marks';
import { DoNotContactLists } from '../../services/do-not-contact-lists.service';
import { DoNotContactMarks } from '../../services/do-not-contact-marks.service';
import {
  type DncPropagationCounts,
  PropagateDoNotContactCommand,
} from './propagate-do-not-contact.command';
import { ConsentSettings } from '../../../consent-settings';

/** List changes taken per run; the next run takes the rest. */
const ENTRIES_PER_RUN = 100;

/**
 * For each list change not yet propagated (oldest first), every active profile holding the
 * value on an active contact element gets a queued `dnc-apply` write (the worker applies it
 * in the profile's write order; the profile document is never written here). Profiles are
 * read in pages by id; the entry's cursor is saved after each page, so a run stopped halfway
 * resumes after the last page it finished. A page repeated after a crash queues the same
 * write twice, which changes nothing the second time. The change is marked propagated last,
 * and only if the entry did not change meanwhile (a new change starts over).
 */
@CommandHandler(PropagateDoNotContactCommand)
export class PropagateDoNotContactHandler implements ICommandHandler<PropagateDoNotContactCommand> {
  constructor(
    private readonly entries: DoNotContactLists,
    private readonly marks: DoNotContactMarks,
    private readonly holders: ProfileHolders,
    private readonly clock: Clock,
    private readonly settings: ConsentSettings,
  ) {}

  async execute(command: PropagateDoNotContactCommand): Promise<DncPropagationCounts> {
    const batchSize = this.settings.scheduledJobBatchSize;
    const counts: DncPropagationCounts = { entries: 0, profiles: 0 };
    let pages = 0;
    for (const entry of await this.entries.pendingPropagationAcrossTenants(ENTRIES_PER_RUN)) {
      const write = await this.marks.writeFor(entry);
      for (let after = entry.cursor; ;) {
        if (command.maxPages !== undefined && pages >= command.maxPages) return counts;
        const page = await this.holders.page(entry.clientId, heldValue(entry), after, batchSize);
        pages++;
        for (const profile of page) {
          if (!profile.data || !holdsListedValue(profile.data, write)) continue;
          await this.marks.queue(entry, profile.profileId, write);
          counts.profiles++;
        }
        if (page.length) {
          after = page[page.length - 1].profileId;
          await this.entries.saveCursor(entry, after);
        }
        if (page.length < batchSize) break;
      }
      await this.entries.markPropagated(entry, this.clock.now());
      counts.entries++;
    }
    return counts;
  }
}

/** The value the entry lists, as Profiles looks its holders up. */
function heldValue(entry: DncEntry): HeldValue {
  return entry.ListType === 'Email' ? { email: entry.key } : { phone: entry.key };
}
