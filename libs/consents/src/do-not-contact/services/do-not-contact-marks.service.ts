import { Injectable } from '@nestjs/common';
import { ProgramCatalog } from '@app/config';
import {
  type AppliedWrite,
  phoneDigits,
  type ProfileData,
  type ProfileExtension,
  ProfileWriteQueue,
  type WriteTransition,
} from '@app/profiles';
import { textKey } from '@app/shared';
import type { DncEntry } from '../domain/dnc-list.schema';
import type { DncApplyWrite } from '../domain/do-not-contact-marks';
import { DoNotContactLists } from './do-not-contact-lists.service';

/** Who system writes of do-not-contact changes name as their author (Edited.ModifiedBy). */
export const DNC_SYSTEM_USER = 'system:do-not-contact';

/**
 * Turns do-not-contact list entries into `dnc-apply` writes on profiles: for the
 * propagation job (a list changed) and after a profile write that adds an email or phone
 * already listed (so a contact element added later shows the listing too: an extension of
 * Profiles' apply, its `beforeSave`).
 */
@Injectable()
export class DoNotContactMarks implements ProfileExtension {
  constructor(
    private readonly entries: DoNotContactLists,
    private readonly programs: ProgramCatalog,
    private readonly profiles: ProfileWriteQueue,
  ) {}

  /** The write that applies the entry's current state to a profile. */
  async writeFor(entry: DncEntry): Promise<DncApplyWrite> {
    const write: DncApplyWrite = {
      Channel: entry.ListType,
      Key: entry.key,
      ListId: entry.listId,
      Listed: entry.state === 'listed',
      ...(entry.ReasonCode ? { ReasonCode: entry.ReasonCode } : {}),
    };
    if (!write.Listed) return write;
    const filter = await this.programs.doNotContactFilter(entry.clientId, entry.ListType);
    if (filter) {
      write.Filter = {
        ProgramId: String(filter.ProgramId),
        ChannelId: filter.ChannelId,
        FilterId: String(filter.FilterId),
      };
    }
    return write;
  }

  /** Queues the entry's write on one profile. */
  async queue(entry: DncEntry, profileId: number, write: DncApplyWrite): Promise<void> {
    await this.profiles.queue({
      clientId: entry.clientId,
      profileId,
      kind: 'dnc-apply',
      body: write,
      userId: DNC_SYSTEM_USER,
      // Only in the worker (the propagation job, the apply extension): no request, no commit window.
      window: null,
    });
  }

  /**
   * When writes are applied, before their save: emails and phones that become active on a
   * profile and are on a list get that list's mark, queued behind the write's `seq` (so a
   * worker that dies after the save loses no mark). A mark an earlier attempt of the same
   * write queued (it died before its save) is not queued again. The account's lists and
   * their entries are read once for all the writes (one in the worker's pass, a batch's
   * new profiles in a bulk import), as of this instant. Returns the writes queued.
   */
  async beforeSave(clientId: string, items: WriteTransition[]): Promise<number> {
    const added = items.map((item) => addedContacts(item.before, item.after));
    const unique = (keys: string[][]) => [...new Set(keys.flat())];
    const listed = [
      ...(await this.entries.listedWithKeys(clientId, 'Email', unique(added.map((a) => a.emails)))),
      ...(await this.entries.listedWithKeys(clientId, 'Phone', unique(added.map((a) => a.phones)))),
    ];
    if (!listed.length) return 0;
    let count = 0;
    for (const [i, item] of items.entries()) {
      const mine = new Set([...added[i].emails, ...added[i].phones]);
      count += await this.queueListed(
        item.write,
        listed.filter((entry) => mine.has(entry.key)),
      );
    }
    return count;
  }

  /** Queues the marks of `listed` behind the write, those an earlier attempt queued excepted. */
  private async queueListed(
    { clientId, profileId, seq }: AppliedWrite,
    listed: DncEntry[],
  ): Promise<number> {
    if (!listed.length) return 0;
    const queued = await this.profiles.pendingBodies<DncApplyWrite>(
      { clientId, profileId },
      seq,
      'dnc-apply',
    );
    let count = 0;
    for (const entry of listed) {
      const write = await this.writeFor(entry);
      if (queued.some((other) => other.ListId === write.ListId && other.Key === write.Key)) {
        continue;
      }
      await this.queue(entry, profileId, write);
      count++;
    }
    return count;
  }
}

/** The emails and phones (as keys) active in `after` and not in `before`; none for an inactive profile. */
function addedContacts(
  before: ProfileData | undefined,
  after: ProfileData | undefined,
): { emails: string[]; phones: string[] } {
  if (!after || after.IsActive === false) return { emails: [], phones: [] };
  const added = (keysBefore: string[], keysAfter: string[]) => {
    const had = new Set(keysBefore);
    return [...new Set(keysAfter)].filter((key) => key && !had.has(key));
  };
  const emails = (data?: ProfileData) =>
    (data?.Emails ?? []).filter((e) => e.IsActive !== false).map((e) => textKey(e.EmailAddress));
  const phones = (data?: ProfileData) =>
    (data?.PhoneNumbers ?? [])
      .filter((p) => p.IsActive !== false)
      .map((p) => phoneDigits(p.PhoneNumber));
  return {
    emails: added(emails(before), emails(after)),
    phones: added(phones(before), phones(after)),
  };
}
