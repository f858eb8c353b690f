import { Module } from '@nestjs/common';
import { mongooseFeatures } from '@app/shared';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { CreatePicklistsHandler } from './commands/create-picklists/create-picklists.handler';
import { UpdatePicklistHandler } from './commands/update-picklist/update-picklist.handler';
import { PicklistsController } from './http/picklists.controller';
import { PicklistCatalog } from './services/picklist-catalog.service';
import { PicklistRepository } from './repositories/picklist.repository';
import { PicklistSchema, StoredPicklist } from './domain/picklist.schema';
import { GetPicklistsHandler } from './queries/get-picklists/get-picklists.handler';

/**
 * Picklists: use cases and repositories of this configuration area, without HTTP: what the
 * readers of the configuration import (ConfigurationReaderModule, the worker, a lifted app
 * that must serve no configuration route).
 */
@Module({
  imports: [ConfigurationCoreModule, mongooseFeatures([StoredPicklist, PicklistSchema])],
  providers: [
    PicklistRepository,
    PicklistCatalog,
    CreatePicklistsHandler,
    UpdatePicklistHandler,
    GetPicklistsHandler,
  ],
  exports: [PicklistCatalog],
})
export class PicklistsCoreModule {}

/** Picklists: its HTTP routes, for the api. */
@Module({
  imports: [PicklistsCoreModule],
  controllers: [PicklistsController],
  exports: [PicklistsCoreModule],
})
export class PicklistsModule {}
