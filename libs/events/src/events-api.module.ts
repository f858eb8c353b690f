import { Module } from '@nestjs/common';
import { ConfigurationReaderModule } from '@app/config';
import { CreateEventSubscriptionHandler } from './commands/create-event-subscription/create-event-subscription.handler';
import { DeleteEventSubscriptionHandler } from './commands/delete-event-subscription/delete-event-subscription.handler';
import { RotateEventSubscriptionSecretHandler } from './commands/rotate-event-subscription-secret/rotate-event-subscription-secret.handler';
import { UpdateEventSubscriptionHandler } from './commands/update-event-subscription/update-event-subscription.handler';
import { ValidateEventSubscriptionHandler } from './commands/validate-event-subscription/validate-event-subscription.handler';
import { EventsPersistenceModule } from './events-persistence.module';
import { EventSubscriptionsController } from './http/event-subscriptions.controller';
import { ProfileEventsApiModule } from './profile-events/profile-events-api.module';
import { GetEventSubscriptionHandler } from './queries/get-event-subscription/get-event-subscription.handler';
import { ListEventSubscriptionsHandler } from './queries/list-event-subscriptions/list-event-subscriptions.handler';
import { Handshakes } from './services/handshakes.service';
import { ListDeadLettersHandler } from './queries/list-dead-letters/list-dead-letters.handler';
import { RequestRedeliveryHandler } from './commands/request-redelivery/request-redelivery.handler';
import { SubscriptionBodyChecks } from './services/subscription-body-checks.service';
import { EventSubscriptionQuotaMeter } from './services/event-subscription-quota.meter';

/**
 * Events (docs/events.md): the subscriptions of a client and the retrieval of a profile's
 * events. The events themselves are recorded by Profiles with each applied write; this
 * module reads them through Profiles' ProfileEventFeed port. Subscription bodies are
 * checked against the configuration through ConfigurationReader. The worker side
 * (handshakes and deliveries) is EventsWorkerModule.
 */
@Module({
  imports: [ConfigurationReaderModule, EventsPersistenceModule, ProfileEventsApiModule],
  controllers: [EventSubscriptionsController],
  providers: [
    SubscriptionBodyChecks,
    Handshakes,
    CreateEventSubscriptionHandler,
    UpdateEventSubscriptionHandler,
    DeleteEventSubscriptionHandler,
    RotateEventSubscriptionSecretHandler,
    ValidateEventSubscriptionHandler,
    ListEventSubscriptionsHandler,
    GetEventSubscriptionHandler,
    ListDeadLettersHandler,
    RequestRedeliveryHandler,
    EventSubscriptionQuotaMeter,
  ],
})
export class EventsApiModule {}
