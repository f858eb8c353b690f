import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type ConsentReceipt, issueReceipt } from '../../domain/receipt';
import { ReceiptEntries } from '../../services/receipt-entries.service';
import { ReceiptSigner } from '../../services/receipt-signer.service';
import { GetConsentReceiptQuery } from './get-consent-receipt.query';

/**
 * Finds the entry and checks the chain up to it (ReceiptEntries: 404, or 409 when the chain
 * fails there), then signs the receipt. The earlier entries the caller's user group may not
 * see are in the proof by their links only.
 */
@QueryHandler(GetConsentReceiptQuery)
export class GetConsentReceiptHandler implements IQueryHandler<GetConsentReceiptQuery> {
  constructor(
    private readonly entries: ReceiptEntries,
    private readonly signer: ReceiptSigner,
  ) {}

  async execute({ caller, profileId, entry }: GetConsentReceiptQuery): Promise<ConsentReceipt> {
    const found = await this.entries.verified(caller, profileId, entry);
    return issueReceipt({
      clientId: caller.clientId,
      profileId,
      entry: found.entry,
      earlier: found.earlier,
      issuedAt: new Date(),
      key: await this.signer.key(),
    });
  }
}
