import { Module } from '@nestjs/common';
import { settingsProvider, tenantScopedFeatures } from '@app/shared';
import {
  ClientEventSubscriptions,
  ClientEventSubscriptionsSchema,
} from './domain/event-subscription.schema';
import {
  DeadLetterList,
  DeadLetterListSchema,
  DeliveryCursor,
  DeliveryCursorSchema,
} from './domain/event-delivery.schema';
import { EventsSettings } from './events-settings';
import { EventDeliveryRepository } from './repositories/event-delivery.repository';
import { DeadLetters } from './services/dead-letters.service';
import { EventSubscriptionRepository } from './repositories/event-subscription.repository';
import { SubscriptionStore } from './services/subscription-store.service';

/** The events collections and settings, shared by the api and worker sides. Internal. */
@Module({
  imports: [
    tenantScopedFeatures(
      [ClientEventSubscriptions, ClientEventSubscriptionsSchema],
      [DeliveryCursor, DeliveryCursorSchema],
      [DeadLetterList, DeadLetterListSchema],
    ),
  ],
  providers: [
    settingsProvider(EventsSettings),
    EventSubscriptionRepository,
    SubscriptionStore,
    EventDeliveryRepository,
    DeadLetters,
  ],
  exports: [EventsSettings, SubscriptionStore, EventDeliveryRepository, DeadLetters],
})
export class EventsPersistenceModule {}
