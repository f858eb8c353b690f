import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { RunSubscriptionHandshakeHandler } from './commands/run-subscription-handshake/run-subscription-handshake.handler';
import { EventsPersistenceModule } from './events-persistence.module';
import { ValidateEventSubscriptionJob } from './worker/event-subscription.jobs';
import { DeliverProfileEventsHandler } from './commands/deliver-profile-events/deliver-profile-events.handler';
import { RedeliverEventHandler } from './commands/redeliver-event/redeliver-event.handler';
import { EventDeliveryTrigger } from './services/event-delivery-trigger.service';
import { EventErasureCleanup } from './services/event-erasure-cleanup.service';
import { WebhookSender } from './services/webhook-sender.service';
import {
  DeliverProfileEventsJob,
  RedeliverEventJob,
  ReplayPausedEventsJob,
} from './worker/event-delivery.jobs';
import { ReplayPausedEventsHandler } from './commands/replay-paused-events/replay-paused-events.handler';

/**
 * The worker side of events (docs/events.md): the validation handshakes of subscriptions
 * (event-subscription-validate), the deliveries (event-delivery) and redeliveries of dead
 * letters (event-redelivery). The trigger of deliveries, an extension of Profiles' apply,
 * is EventDeliveryTriggerModule's (composed into ProfilesWorkerModule by the worker app).
 */
@Module({
  imports: [EventsPersistenceModule, ProfilePortsModule],
  providers: [
    RunSubscriptionHandshakeHandler,
    ValidateEventSubscriptionJob,
    WebhookSender,
    DeliverProfileEventsHandler,
    DeliverProfileEventsJob,
    RedeliverEventHandler,
    RedeliverEventJob,
    ReplayPausedEventsHandler,
    ReplayPausedEventsJob,
  ],
})
export class EventsWorkerModule {}

/**
 * What the worker app hands ProfilesWorkerModule among its extension modules: the trigger
 * that queues deliveries after each saved write (EventDeliveryTrigger, `afterSave`), and
 * what forgets an erased profile's deliveries (EventErasureCleanup, `erased`).
 */
@Module({
  imports: [EventsPersistenceModule],
  providers: [EventDeliveryTrigger, EventErasureCleanup],
  exports: [EventDeliveryTrigger, EventErasureCleanup],
})
export class EventDeliveryTriggerModule {}
