import { Module } from '@nestjs/common';
import { tenantScopedFeatures } from '@app/shared';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { CreateConsentTypesHandler } from './commands/create-consent-types/create-consent-types.handler';
import { PublishConsentVersionHandler } from './commands/publish-consent-version/publish-consent-version.handler';
import { UpdateConsentTypeHandler } from './commands/update-consent-type/update-consent-type.handler';
import { ConfigEventOutbox } from './repositories/config-event-outbox.repository';
import { ConfigEvent, ConfigEventSchema } from './domain/config-event.schema';
import { ConsentTypeCatalog } from './services/consent-type-catalog.service';
import { ConsentTypeWriter } from './services/consent-type-writer.service';
import { ConsentTypeRepository } from './repositories/consent-type.repository';
import { ConsentTypeSchema, StoredConsentType } from './domain/consent-type.schema';
import { ConsentTypesController } from './http/consent-types.controller';
import { FindConsentTypeHandler } from './queries/find-consent-type/find-consent-type.handler';
import { GetConsentTypesHandler } from './queries/get-consent-types/get-consent-types.handler';
import { GetConsentTypeHistoryHandler } from './queries/get-consent-type-history/get-consent-type-history.handler';

/**
 * ConsentTypes: use cases and repositories of this configuration area, without HTTP: what the
 * readers of the configuration import (ConfigurationReaderModule, the worker, a lifted app
 * that must serve no configuration route).
 */
@Module({
  imports: [
    ConfigurationCoreModule,
    tenantScopedFeatures([StoredConsentType, ConsentTypeSchema], [ConfigEvent, ConfigEventSchema]),
  ],
  providers: [
    ConsentTypeRepository,
    ConsentTypeCatalog,
    ConfigEventOutbox,
    ConsentTypeWriter,
    CreateConsentTypesHandler,
    UpdateConsentTypeHandler,
    PublishConsentVersionHandler,
    GetConsentTypesHandler,
    GetConsentTypeHistoryHandler,
    FindConsentTypeHandler,
  ],
  exports: [ConsentTypeCatalog, ConfigEventOutbox],
})
export class ConsentTypesCoreModule {}

/** ConsentTypes: its HTTP routes, for the api. */
@Module({
  imports: [ConsentTypesCoreModule],
  controllers: [ConsentTypesController],
  exports: [ConsentTypesCoreModule],
})
export class ConsentTypesModule {}
