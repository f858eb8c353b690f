import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConflictError, NotFoundError } from '@app/shared';
import { historyEntryId, ProfileHistoryChain, verifyHistoryChain } from '@app/profiles';
import { type ConsentReceipt, issueReceipt, proofEntry } from '../../domain/receipt';
import { ReceiptSigner } from '../../services/receipt-signer.service';
import { GetConsentReceiptQuery } from './get-consent-receipt.query';

/**
 * Reads the profile's chain (the profile and its history pages by `_id`), checks it from
 * its start to the entry (the service signs nothing it cannot recompute: a chain that
 * fails there is a 409 naming the entry), then signs the receipt. The earlier entries the
 * caller's user group may not see are in the proof by their links only.
 */
@QueryHandler(GetConsentReceiptQuery)
export class GetConsentReceiptHandler implements IQueryHandler<GetConsentReceiptQuery> {
  constructor(
    private readonly chain: ProfileHistoryChain,
    private readonly signer: ReceiptSigner,
  ) {}

  async execute({
    caller,
    profileId,
    entry: wanted,
  }: GetConsentReceiptQuery): Promise<ConsentReceipt> {
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
    return issueReceipt({
      clientId: caller.clientId,
      profileId,
      entry: found.entry,
      earlier,
      issuedAt: new Date(),
      key: await this.signer.key(),
    });
  }
}
