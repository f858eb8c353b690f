// The public surface of the custom-fields area (for libs/config/src/index.ts to re-export).
export { CustomFieldsCoreModule, CustomFieldsModule } from './custom-fields.module';
export { CustomFieldCatalog } from './services/custom-field-catalog.service';
export { checkCustomFieldValue } from './domain/custom-field-value';
