import { Module } from '@nestjs/common';
import { ConfigurationReaderModule } from '@app/config';
import { ProfilePortsModule } from '@app/profiles';
import { settingsProvider, mongooseFeatures } from '@app/shared';
import { ConsentSettings } from '../consent-settings';
import { ReceiptSigningKeyDoc, ReceiptSigningKeyDocSchema } from './domain/receipt-key.schema';
import { ConsentReceiptsController } from './http/consent-receipts.controller';
import { ReceiptKeysController } from './http/receipt-keys.controller';
import { GetConsentReceiptHandler } from './queries/get-consent-receipt/get-consent-receipt.handler';
import { GetReceiptKeysHandler } from './queries/get-receipt-keys/get-receipt-keys.handler';
import { GetStandardReceiptHandler } from './queries/get-standard-receipt/get-standard-receipt.handler';
import { ListConsentReceiptsHandler } from './queries/list-consent-receipts/list-consent-receipts.handler';
import { VerifyConsentChainHandler } from './queries/verify-consent-chain/verify-consent-chain.handler';
import { ReceiptKeyRepository } from './repositories/receipt-key.repository';
import { ReceiptEntries } from './services/receipt-entries.service';
import { ReceiptSigner } from './services/receipt-signer.service';

/**
 * Consent receipts (docs/receipts.md): the chain's entries, signed receipts (the service's
 * own, a Kantara Consent Receipt v1.1, an ISO/IEC TS 27560 record), the chain's verification
 * and the public keys. Reads history through Profiles' ProfileHistoryChain, the profile
 * through ProfileSnapshots and the consent types through ConfigurationReader.
 */
@Module({
  imports: [
    ConfigurationReaderModule,
    ProfilePortsModule,
    mongooseFeatures([ReceiptSigningKeyDoc, ReceiptSigningKeyDocSchema]),
  ],
  controllers: [ConsentReceiptsController, ReceiptKeysController],
  providers: [
    settingsProvider(ConsentSettings),
    ReceiptKeyRepository,
    ReceiptSigner,
    ReceiptEntries,
    GetConsentReceiptHandler,
    GetStandardReceiptHandler,
    ListConsentReceiptsHandler,
    VerifyConsentChainHandler,
    GetReceiptKeysHandler,
  ],
})
export class ConsentReceiptsModule {}
