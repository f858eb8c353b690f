import { Module } from '@nestjs/common';
import { ConfigurationCoreModule } from './configuration-core.module';
import { ConfirmationSettingsModule } from './confirmation-settings/confirmation-settings.module';
import { ConsentStatusController } from './consent-status/consent-status.controller';
import { ConsentTypesModule } from './consent-types/consent-types.module';
import { CustomFieldsModule } from './custom-fields/custom-fields.module';
import { PicklistsModule } from './picklists/picklists.module';
import { ProgramsModule } from './programs/programs.module';
import { TypesModule } from './types/types.module';

/** The Configuration (Experience) API of a client account, one module per area. */
@Module({
  imports: [
    ConfigurationCoreModule,
    TypesModule,
    ConsentTypesModule,
    CustomFieldsModule,
    PicklistsModule,
    ProgramsModule,
    ConfirmationSettingsModule,
  ],
  controllers: [ConsentStatusController],
})
export class ConfigurationApiModule {}
