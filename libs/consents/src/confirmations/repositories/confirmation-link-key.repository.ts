import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { GeneratedKeyStore } from '@app/shared';
import type { Model } from 'mongoose';
import {
  ConfirmationLinkKeyDoc,
  GENERATED_CONFIRMATION_KEY_ID,
} from '../domain/confirmation-key.schema';

/** The `confirmation_link_keys` collection: the deployment's generated link key. */
@Injectable()
export class ConfirmationLinkKeyRepository extends GeneratedKeyStore<'key'> {
  constructor(@InjectModel(ConfirmationLinkKeyDoc.name) keys: Model<ConfirmationLinkKeyDoc>) {
    super(keys, GENERATED_CONFIRMATION_KEY_ID, 'key', 'the confirmation link key');
  }
}
