import { Injectable } from '@nestjs/common';
import { ProgramCatalog } from '@app/config';
import { DncRepository, type DncEntry } from '@app/consents';
import type { DncApplyWrite } from '../domain/do-not-contact';
import { normText, phoneDigits } from '../domain/element-rules';
import type { ProfileData } from '../domain/profile-data.schema';
import { ProfileWriteIntake } from './profile-write-intake.service';

/** Who system writes of do-not-contact changes name as their author (Edited.ModifiedBy). */
export const DNC_SYSTEM_USER = 'system:do-not-contact';

/**
 * Turns do-not-contact list entries into `dnc-apply` writes on profiles: for the
 * propagation job (a list changed) and after a profile write that adds an email or phone
 * already listed (so a contact element added later shows the listing too).
 */
@Injectable()
export class DoNotContactMarks {
  constructor(
    private readonly entries: DncRepository,
    private readonly programs: ProgramCatalog,
    private readonly intake: ProfileWriteIntake,
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
    await this.intake.accept({
      clientId: entry.clientId,
      profileId,
      kind: 'dnc-apply',
      body: write,
      userId: DNC_SYSTEM_USER,
    });
  }

  /**
   * After a write is applied: emails and phones that became active on the profile and are
   * on a list get that list's mark (queued behind the write). Returns the writes queued.
   */
  async markAddedContacts(
    clientId: string,
    profileId: number,
    before: ProfileData | undefined,
    after: ProfileData | undefined,
  ): Promise<number> {
    if (!after || after.IsActive === false) return 0;
    const added = (keysBefore: Set<string>, keysAfter: string[]) =>
      [...new Set(keysAfter)].filter((key) => key && !keysBefore.has(key));
    const emails = (data?: ProfileData) =>
      (data?.Emails ?? []).filter((e) => e.IsActive !== false).map((e) => normText(e.EmailAddress));
    const phones = (data?: ProfileData) =>
      (data?.PhoneNumbers ?? [])
        .filter((p) => p.IsActive !== false)
        .map((p) => phoneDigits(p.PhoneNumber));
    const listed = [
      ...(await this.entries.listedWithKeys(
        clientId,
        'Email',
        added(new Set(emails(before)), emails(after)),
      )),
      ...(await this.entries.listedWithKeys(
        clientId,
        'Phone',
        added(new Set(phones(before)), phones(after)),
      )),
    ];
    for (const entry of listed) await this.queue(entry, profileId, await this.writeFor(entry));
    return listed.length;
  }
}
