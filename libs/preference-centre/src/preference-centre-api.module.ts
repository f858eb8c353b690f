import { Module } from '@nestjs/common';
import { ConfigurationReaderModule } from '@app/config';
import { ProfilePortsModule } from '@app/profiles';
import { settingsProvider, tenantScopedFeatures } from '@app/shared';
import { CreateCentreLinkHandler } from './commands/create-centre-link/create-centre-link.handler';
import { SaveCentreChoicesHandler } from './commands/save-centre-choices/save-centre-choices.handler';
import { PreferenceCentreKeyDoc, PreferenceCentreKeyDocSchema } from './domain/centre-key.schema';
import { CentreLinksController } from './http/centre-links.controller';
import { CentrePageController } from './http/centre-page.controller';
import { GpcWellKnownController } from './http/gpc-well-known.controller';
import { PreferenceCentreSettings } from './preference-centre-settings';
import { GetCentrePageHandler } from './queries/get-centre-page/get-centre-page.handler';
import { CentreKeyRepository } from './repositories/centre-key.repository';
import { CentreLinks } from './services/centre-links.service';

/**
 * The preference centre (docs/preference-centre.md): signed links an operator makes for a
 * profile, the person's HTML page behind them, and RFC 8058 one-click unsubscribe. Reads
 * profiles through ProfileSnapshots and the configuration through ConfigurationReader;
 * writes through ProfileWriteChecks and ProfileWriteQueue (an ordinary queued merge). Owns
 * one collection, the clients' link keys, by `_id`.
 */
@Module({
  imports: [
    ConfigurationReaderModule,
    ProfilePortsModule,
    tenantScopedFeatures([PreferenceCentreKeyDoc, PreferenceCentreKeyDocSchema]),
  ],
  controllers: [CentreLinksController, CentrePageController, GpcWellKnownController],
  providers: [
    settingsProvider(PreferenceCentreSettings),
    CentreKeyRepository,
    CentreLinks,
    CreateCentreLinkHandler,
    SaveCentreChoicesHandler,
    GetCentrePageHandler,
  ],
})
export class PreferenceCentreApiModule {}
