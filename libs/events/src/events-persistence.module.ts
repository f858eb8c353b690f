import { Module } from '@nestjs/common';
import { settingsProvider } from '@app/shared';
import { EventsSettings } from './events-settings';

/** The events collections and settings, shared by the api and worker sides. Internal. */
@Module({
  providers: [settingsProvider(EventsSettings)],
  exports: [EventsSettings],
})
export class EventsPersistenceModule {}
