import { Query } from '@nestjs/cqrs';
import type { ReceiptKeySetDto } from '../../dto/consent-receipt.dto';

/** The public keys receipts are signed with (a JWK set). */
export class GetReceiptKeysQuery extends Query<ReceiptKeySetDto> {}
