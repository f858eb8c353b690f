import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { NamedRevisionStore } from '../../common/revision-store';
import { CUSTOM_FIELD_KIND, StoredCustomField } from '../domain/custom-field.schema';

/** The `config_custom_fields` revisions; every method is scoped by client id. */
@Injectable()
export class CustomFieldRepository extends NamedRevisionStore<StoredCustomField> {
  constructor(@InjectModel(StoredCustomField.name) fields: Model<StoredCustomField>) {
    super(fields, 'fieldId', CUSTOM_FIELD_KIND, 'Custom field', (field) => field.Name);
  }
}
