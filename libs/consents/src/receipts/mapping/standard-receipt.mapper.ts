import type { Iso27560Record } from '../domain/iso27560-record';
import type { KantaraReceipt } from '../domain/kantara-receipt';
import type { StandardReceipt } from '../domain/standard-receipt';
import type {
  Iso27560RecordAnswerDto,
  Iso27560RecordDto,
  KantaraReceiptAnswerDto,
  KantaraReceiptDto,
} from '../dto/standard-receipt.dto';

type Common = Pick<KantaraReceiptAnswerDto, 'EntryId' | 'KeyId' | 'IssuedAt' | 'Jws'>;

const common = (receipt: StandardReceipt): Common => ({
  EntryId: receipt.entryId,
  KeyId: receipt.keyId,
  IssuedAt: receipt.issuedAt,
  Jws: receipt.jws,
});

/**
 * A standard receipt as answered: the signed document unchanged (its fields are the
 * standard's and it is what the JWS payload holds), beside the JWS and its key.
 */
export function toKantaraReceiptDto(receipt: StandardReceipt): KantaraReceiptAnswerDto {
  if (receipt.format !== 'Kantara') throw new Error(`a ${receipt.format} receipt is not Kantara`);
  const document: KantaraReceipt = receipt.document;
  return { Format: 'Kantara', ...common(receipt), Receipt: document as KantaraReceiptDto };
}

export function toIso27560RecordDto(receipt: StandardReceipt): Iso27560RecordAnswerDto {
  if (receipt.format !== 'ISO27560') throw new Error(`a ${receipt.format} receipt is not ISO27560`);
  const document: Iso27560Record = receipt.document;
  return {
    Format: 'ISO27560',
    ...common(receipt),
    Record: document as unknown as Iso27560RecordDto,
  };
}
