import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { historyEntryId, ProfileSnapshots } from '@app/profiles';
import { NotFoundError } from '@app/shared';
import { consentFacts, isConsentEntry, presentedConsentType } from '../../domain/consent-facts';
import { iso27560Record } from '../../domain/iso27560-record';
import { kantaraReceipt } from '../../domain/kantara-receipt';
import { signStandardReceipt, type StandardReceipt } from '../../domain/standard-receipt';
import { ReceiptEntries } from '../../services/receipt-entries.service';
import { ReceiptSigner } from '../../services/receipt-signer.service';
import { GetStandardReceiptQuery } from './get-standard-receipt.query';

/**
 * The entry found and the chain checked up to it (as for the service's own receipt), then
 * its facts read from the configuration (cached) and the profile's DefaultLocale (the read
 * model), built into the asked format and signed as a compact JWS.
 */
@QueryHandler(GetStandardReceiptQuery)
export class GetStandardReceiptHandler implements IQueryHandler<GetStandardReceiptQuery> {
  constructor(
    private readonly entries: ReceiptEntries,
    private readonly reader: ConfigurationReader,
    private readonly profiles: ProfileSnapshots,
    private readonly signer: ReceiptSigner,
  ) {}

  async execute({
    caller,
    profileId,
    entry: wanted,
    format,
  }: GetStandardReceiptQuery): Promise<StandardReceipt> {
    const { clientId } = caller;
    const { entry, earlier } = await this.entries.verified(caller, profileId, wanted);
    if (!isConsentEntry(entry)) {
      const id = historyEntryId(entry);
      throw new NotFoundError(
        `History entry ${id} of profile ${profileId} is a ${entry.category} change: ${format} receipts describe consents only (its receipt: GET .../ConsentReceipts/${id})`,
      );
    }
    const [vocabulary, presentation, profile, key] = await Promise.all([
      this.reader.vocabulary(clientId),
      this.reader.presentation(clientId),
      this.profiles.byId(clientId, profileId),
      this.signer.key(),
    ]);
    const facts = consentFacts({
      clientId,
      profileId,
      entry,
      chainPosition: earlier.length + 1,
      consentType: vocabulary.consentType(String(entry.snapshot.ConsentType ?? '')),
      presentation: presentedConsentType(presentation, entry.snapshot.ConsentType),
      profileLocale: profile?.data?.DefaultLocale,
    });
    const issuedAt = new Date();
    const common = { entryId: facts.entryId, keyId: key.jwk.kid, issuedAt: issuedAt.toISOString() };
    if (format === 'Kantara') {
      const document = kantaraReceipt(facts, issuedAt);
      return { ...common, format, document, jws: await signStandardReceipt(format, document, key) };
    }
    const document = iso27560Record(facts);
    return { ...common, format, document, jws: await signStandardReceipt(format, document, key) };
  }
}
