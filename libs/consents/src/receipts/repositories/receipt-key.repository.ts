import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { GeneratedKeyStore } from '@app/shared';
import type { Model } from 'mongoose';
import { GENERATED_RECEIPT_KEY_ID, ReceiptSigningKeyDoc } from '../domain/receipt-key.schema';

/** The `receipt_signing_keys` collection: the service's generated key (PKCS#8 PEM). */
@Injectable()
export class ReceiptKeyRepository extends GeneratedKeyStore<'privateKey'> {
  constructor(@InjectModel(ReceiptSigningKeyDoc.name) keys: Model<ReceiptSigningKeyDoc>) {
    super(keys, GENERATED_RECEIPT_KEY_ID, 'privateKey', 'the generated receipt key');
  }
}
