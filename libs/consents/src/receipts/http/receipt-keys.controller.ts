import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReceiptKeySetDto } from '../dto/consent-receipt.dto';
import { GetReceiptKeysQuery } from '../queries/get-receipt-keys/get-receipt-keys.query';

/**
 * The public keys of the consent receipts, for anyone to verify a receipt with: outside any
 * client, without authentication (a public key is public).
 */
@ApiTags('Consent receipts')
@Controller('ReceiptKeys')
export class ReceiptKeysController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'The public keys consent receipts are signed with',
    description:
      "Unauthenticated. A JWK set (RFC 7517): Ed25519 keys (kty OKP, crv Ed25519, x the public key, base64url), each kid its RFC 7638 thumbprint, the one a receipt's Receipt.KeyId names. The active key first; a key that signed earlier receipts stays listed after a configured key (RECEIPT_SIGNING_KEY) replaces it. A verifier fetches this once over HTTPS and pins it: `npm run verify-receipt -- RECEIPT --key KEYS.json` (docs/receipts.md).",
  })
  @ApiOkResponse({ type: ReceiptKeySetDto })
  keys(): Promise<ReceiptKeySetDto> {
    return this.queries.execute(new GetReceiptKeysQuery());
  }
}
