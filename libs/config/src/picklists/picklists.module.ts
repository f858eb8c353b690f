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

/** Picklists: controllers, use cases and repositories of this configuration area. */
@Module({
  imports: [ConfigurationCoreModule, mongooseFeatures([StoredPicklist, PicklistSchema])],
  controllers: [PicklistsController],
  providers: [
    PicklistRepository,
    PicklistCatalog,
    CreatePicklistsHandler,
    UpdatePicklistHandler,
    GetPicklistsHandler,
  ],
  exports: [PicklistCatalog],
})
export class PicklistsModule {}
