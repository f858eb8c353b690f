import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { settingsProvider } from '@app/shared';
import {
  ClientEventSubscriptions,
  ClientEventSubscriptionsSchema,
} from './domain/event-subscription.schema';
import { EventsSettings } from './events-settings';
import { EventSubscriptionRepository } from './repositories/event-subscription.repository';
import { SubscriptionStore } from './services/subscription-store.service';

/** The events collections and settings, shared by the api and worker sides. Internal. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: ClientEventSubscriptions.name, schema: ClientEventSubscriptionsSchema },
    ]),
  ],
  providers: [settingsProvider(EventsSettings), EventSubscriptionRepository, SubscriptionStore],
  exports: [EventsSettings, SubscriptionStore],
})
export class EventsPersistenceModule {}
