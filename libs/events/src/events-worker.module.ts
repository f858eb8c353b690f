import { Module } from '@nestjs/common';
import { RunSubscriptionHandshakeHandler } from './commands/run-subscription-handshake/run-subscription-handshake.handler';
import { EventsPersistenceModule } from './events-persistence.module';
import { ValidateEventSubscriptionJob } from './worker/event-subscription.jobs';

/**
 * The worker side of events (docs/events.md): the validation handshakes of subscriptions
 * (event-subscription-validate); deliveries come with their slice.
 */
@Module({
  imports: [EventsPersistenceModule],
  providers: [RunSubscriptionHandshakeHandler, ValidateEventSubscriptionJob],
})
export class EventsWorkerModule {}
