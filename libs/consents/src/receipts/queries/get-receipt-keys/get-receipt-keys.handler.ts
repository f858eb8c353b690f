import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ReceiptKeySetDto } from '../../dto/consent-receipt.dto';
import { ReceiptSigner } from '../../services/receipt-signer.service';
import { GetReceiptKeysQuery } from './get-receipt-keys.query';

/** The active key first, then an earlier generated one a configured key replaced. */
@QueryHandler(GetReceiptKeysQuery)
export class GetReceiptKeysHandler implements IQueryHandler<GetReceiptKeysQuery> {
  constructor(private readonly signer: ReceiptSigner) {}

  async execute(): Promise<ReceiptKeySetDto> {
    return { keys: await this.signer.publicKeys() };
  }
}
