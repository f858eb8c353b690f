// Public surface of @app/config: other libs import nothing deeper.
export * from './configuration-api.module';
export * from './types';
export * from './programs';
export { ConfigurationReaderModule } from './reader/configuration-reader.module';
export { ConfigurationReader } from './reader/configuration-reader.service';
export type { ClientVocabulary } from './reader/client-vocabulary';
export { ConsentTypeCatalog } from './consent-types/consent-type-catalog.service';
export { ConfigEventOutbox } from './consent-types/config-event-outbox.repository';
export type { ConsentTypeDetails } from './consent-types/consent-type.mapper';
export {
  CONSENT_TYPE_RENAMED,
  CONSENT_VERSION_PUBLISHED,
  type ConfigEvent,
} from './consent-types/config-event.schema';
export { CustomFieldCatalog } from './custom-fields/custom-field-catalog.service';
export { PicklistCatalog } from './picklists/picklist-catalog.service';
export { checkCustomFieldValue } from './custom-fields/domain/custom-field-value';
export { ConsentTypesModule } from './consent-types/consent-types.module';
export { CustomFieldsModule } from './custom-fields/custom-fields.module';
