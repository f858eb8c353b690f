import { Module } from '@nestjs/common';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { ConfirmationSettingsPersistenceModule } from '../confirmation-settings/confirmation-settings.module';
import { ConsentTypesCoreModule } from '../consent-types/consent-types.module';
import { CustomFieldsCoreModule } from '../custom-fields/custom-fields.module';
import { ProgramsPersistenceModule } from '../programs/programs-persistence.module';
import { TypesPersistenceModule } from '../types/types-persistence.module';
import { ConfigurationReader } from './configuration-reader.service';

/**
 * The cached, stamp-checked view of a client's configuration (api, worker, the lifted
 * decisions app): it imports the areas' core modules only, so no configuration route comes
 * with it.
 */
@Module({
  imports: [
    ConfigurationCoreModule,
    TypesPersistenceModule,
    ConsentTypesCoreModule,
    CustomFieldsCoreModule,
    ProgramsPersistenceModule,
    ConfirmationSettingsPersistenceModule,
  ],
  providers: [ConfigurationReader],
  exports: [ConfigurationReader],
})
export class ConfigurationReaderModule {}
