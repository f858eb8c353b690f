import { Injectable } from '@nestjs/common';
import type { Caller } from '@app/auth';
import { ConflictError, NotFoundError } from '@app/shared';
import {
  historyEntryId,
  type ProfileHistory,
  ProfileHistoryChain,
  verifyHistoryChain,
} from '@app/profiles';
import { type ProofEntry, proofEntry } from '../domain/receipt';

/** A chained entry a receipt may be issued for, with the chain before it in proof form. */
export interface VerifiedReceiptEntry {
  entry: ProfileHistory;
  /** The chained entries before it, oldest first (as stored, or by their links only). */
  earlier: ProofEntry[];
}

/**
 * Finds the entry a receipt is asked for in the profile's chain (the profile and its history
 * pages read by `_id`) and checks the chain from its start to it: the service signs nothing
 * it cannot recompute. 404: no such entry the caller's user group may see, or one recorded
 * before the chain began; 409: the stored chain fails at or before it.
 */
@Injectable()
export class ReceiptEntries {
  constructor(private readonly chain: ProfileHistoryChain) {}

  async verified(
    caller: Caller,
    profileId: number,
    wanted: { seq: number; n: number },
  ): Promise<VerifiedReceiptEntry> {
    const history = await this.chain.read(caller, profileId);
    if (!history) throw new NotFoundError(`Profile ${profileId} was not found`);
    const id = historyEntryId(wanted);
    const at = history.entries.findIndex(
      ({ entry }) => entry.seq === wanted.seq && entry.n === wanted.n,
    );
    const found = history.entries[at];
    if (!found || !found.visible) {
      throw new NotFoundError(
        `Profile ${profileId} has no consent or preference history entry ${id}`,
      );
    }
    if (typeof found.entry.hash !== 'string') {
      throw new NotFoundError(
        `History entry ${id} of profile ${profileId} was recorded before the hash chain began: it has no receipt`,
      );
    }
    const upTo = history.entries.slice(0, at + 1);
    const report = verifyHistoryChain(
      upTo.map(({ entry }) => entry),
      history.categories,
    );
    if (!report.ok) {
      const [first] = report.problems;
      throw new ConflictError(
        `The hash chain of profile ${profileId} fails at entry ${first.entryId} (${first.reason}): no receipt is issued`,
      );
    }
    const earlier = upTo
      .slice(0, -1)
      .filter(({ entry }) => typeof entry.hash === 'string')
      .map(({ entry, visible }) => proofEntry(entry, visible));
    return { entry: found.entry, earlier };
  }
}
