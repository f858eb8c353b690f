import { Module } from '@nestjs/common';
import { EventsPersistenceModule } from './events-persistence.module';

/** The worker side of events (docs/events.md): handshakes and deliveries. */
@Module({
  imports: [EventsPersistenceModule],
})
export class EventsWorkerModule {}
