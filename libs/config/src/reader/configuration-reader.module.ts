import { Module } from '@nestjs/common';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { ConfirmationSettingsPersistenceModule } from '../confirmation-settings/confirmation-settings.module';
import { ConsentTypesModule } from '../consent-types/consent-types.module';
import { CustomFieldsModule } from '../custom-fields/custom-fields.module';
import { ProgramsPersistenceModule } from '../programs/programs-persistence.module';
import { TypesPersistenceModule } from '../types/types-persistence.module';
import { ConfigurationReader } from './configuration-reader.service';

/** The cached, stamp-checked view of a client's configuration (api and worker). */
@Module({
  imports: [
    ConfigurationCoreModule,
    TypesPersistenceModule,
    ConsentTypesModule,
    CustomFieldsModule,
    ProgramsPersistenceModule,
    ConfirmationSettingsPersistenceModule,
  ],
  providers: [ConfigurationReader],
  exports: [ConfigurationReader],
})
export class ConfigurationReaderModule {}
