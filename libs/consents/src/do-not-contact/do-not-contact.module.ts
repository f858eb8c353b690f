import { Module } from '@nestjs/common';
import { tenantScopedFeatures } from '@app/shared';
import { AddDncEntriesHandler } from './commands/add-dnc-entries/add-dnc-entries.handler';
import { CreateDncListHandler } from './commands/create-dnc-list/create-dnc-list.handler';
import { RemoveDncEntryHandler } from './commands/remove-dnc-entry/remove-dnc-entry.handler';
import { DncRepository } from './dnc.repository';
import {
  DncEntry,
  DncEntrySchema,
  DncList,
  DncListSchema,
  DncPendingChange,
  DncPendingChangeSchema,
} from './domain/dnc-list.schema';
import { DoNotContactController } from './http/do-not-contact.controller';
import { DoNotContactLists } from './services/do-not-contact-lists.service';
import { DncStamps } from './services/dnc-stamps.service';
import { DoNotContactListings } from './services/do-not-contact-listings.service';
import { GetDncEntriesHandler } from './queries/get-dnc-entries/get-dnc-entries.handler';
import { GetDncListsHandler } from './queries/get-dnc-lists/get-dnc-lists.handler';

/**
 * The collections of the do-not-contact add-on, their repository (this module's own) and
 * the port other modules use (DoNotContactLists), for the api and the worker.
 */
@Module({
  imports: [
    tenantScopedFeatures(
      [DncList, DncListSchema],
      [DncEntry, DncEntrySchema],
      [DncPendingChange, DncPendingChangeSchema],
    ),
  ],
  providers: [DncRepository, DoNotContactLists, DncStamps, DoNotContactListings],
  exports: [DncRepository, DoNotContactLists, DoNotContactListings],
})
export class DoNotContactPersistenceModule {}

/** The do-not-contact lists API (the add-on of the spec): lists and their entries. */
@Module({
  imports: [DoNotContactPersistenceModule],
  controllers: [DoNotContactController],
  providers: [
    CreateDncListHandler,
    AddDncEntriesHandler,
    RemoveDncEntryHandler,
    GetDncListsHandler,
    GetDncEntriesHandler,
  ],
})
export class DoNotContactApiModule {}
