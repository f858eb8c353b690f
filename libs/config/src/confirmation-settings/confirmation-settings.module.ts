import { Module } from '@nestjs/common';
import { tenantScopedFeatures } from '@app/shared';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { ReplaceConfirmationSettingsHandler } from './commands/replace-confirmation-settings/replace-confirmation-settings.handler';
import {
  ConfirmationSettingsSchema,
  StoredConfirmationSettings,
} from './domain/confirmation-settings.schema';
import { ConfirmationSettingsController } from './http/confirmation-settings.controller';
import { GetConfirmationSettingsHandler } from './queries/get-confirmation-settings/get-confirmation-settings.handler';
import { ConfirmationSettingsRepository } from './repositories/confirmation-settings.repository';

/** The double opt-in settings: persistence (reader, api and worker) and, in the api, routes. */
@Module({
  imports: [
    ConfigurationCoreModule,
    tenantScopedFeatures([StoredConfirmationSettings, ConfirmationSettingsSchema]),
  ],
  providers: [ConfirmationSettingsRepository],
  exports: [ConfirmationSettingsRepository],
})
export class ConfirmationSettingsPersistenceModule {}

@Module({
  imports: [ConfigurationCoreModule, ConfirmationSettingsPersistenceModule],
  controllers: [ConfirmationSettingsController],
  providers: [ReplaceConfirmationSettingsHandler, GetConfirmationSettingsHandler],
})
export class ConfirmationSettingsModule {}
