import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type QuotaMeter, QuotaMeters } from '@app/shared';
import { EventsSettings } from '../events-settings';
import { SubscriptionStore } from './subscription-store.service';

/**
 * The event subscriptions quota for the operator's view: EVENTS_MAX_SUBSCRIPTIONS, and the
 * subscriptions the client holds (its one document, by `_id`).
 */
@Injectable()
export class EventSubscriptionQuotaMeter implements QuotaMeter, OnModuleInit {
  readonly name = 'maxEventSubscriptions';
  readonly defaultLimit: number;

  constructor(
    private readonly store: SubscriptionStore,
    private readonly meters: QuotaMeters,
    settings: EventsSettings,
  ) {
    this.defaultLimit = settings.maxSubscriptions;
  }

  onModuleInit(): void {
    this.meters.register(this);
  }

  async used(clientId: string): Promise<number> {
    return (await this.store.list(clientId)).length;
  }
}
