import { Module } from '@nestjs/common';
import { mongooseFeatures } from '@app/shared';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { PicklistsCoreModule } from '../picklists/picklists.module';
import { CreateCustomFieldsHandler } from './commands/create-custom-fields/create-custom-fields.handler';
import { UpdateCustomFieldHandler } from './commands/update-custom-field/update-custom-field.handler';
import { CustomFieldCatalog } from './services/custom-field-catalog.service';
import { CustomFieldChecks } from './services/custom-field-checks.service';
import { CustomFieldRepository } from './repositories/custom-field.repository';
import { CustomFieldSchema, StoredCustomField } from './domain/custom-field.schema';
import { CustomFieldsController } from './http/custom-fields.controller';
import { GetCustomFieldsHandler } from './queries/get-custom-fields/get-custom-fields.handler';
import { GetUpdateRulesHandler } from './queries/get-update-rules/get-update-rules.handler';

/**
 * CustomFields: use cases and repositories of this configuration area, without HTTP: what the
 * readers of the configuration import (ConfigurationReaderModule, the worker, a lifted app
 * that must serve no configuration route).
 */
@Module({
  imports: [
    ConfigurationCoreModule,
    PicklistsCoreModule,
    mongooseFeatures([StoredCustomField, CustomFieldSchema]),
  ],
  providers: [
    CustomFieldRepository,
    CustomFieldChecks,
    CustomFieldCatalog,
    CreateCustomFieldsHandler,
    UpdateCustomFieldHandler,
    GetCustomFieldsHandler,
    GetUpdateRulesHandler,
  ],
  exports: [CustomFieldCatalog],
})
export class CustomFieldsCoreModule {}

/** CustomFields: its HTTP routes, for the api. */
@Module({
  imports: [CustomFieldsCoreModule],
  controllers: [CustomFieldsController],
  exports: [CustomFieldsCoreModule],
})
export class CustomFieldsModule {}
