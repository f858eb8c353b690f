import { Module } from '@nestjs/common';
import { EventsPersistenceModule } from './events-persistence.module';

/**
 * Events (docs/events.md): the subscriptions of a client and the retrieval of a profile's
 * events. The events themselves are recorded by Profiles with each applied write; this
 * module reads them through Profiles' ProfileEventFeed port. The worker side (handshakes
 * and deliveries) is EventsWorkerModule.
 */
@Module({
  imports: [EventsPersistenceModule],
})
export class EventsApiModule {}
