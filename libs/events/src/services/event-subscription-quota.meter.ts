import { Injectable } from '@nestjs/common';
import { QuotaMeters } from '@app/shared';
import { RegisteredQuotaMeter } from '@app/shared/quotas/registered-quota-meter';
import { EventsSettings } from '../events-settings';
import { SubscriptionStore } from './subscription-store.service';

/**
 * The event subscriptions quota for the operator's view: EVENTS_MAX_SUBSCRIPTIONS, and the
 * subscriptions the client holds (its one document, by `_id`).
 */
@Injectable()
export class EventSubscriptionQuotaMeter extends RegisteredQuotaMeter {
  readonly name = 'maxEventSubscriptions';

  constructor(
    private readonly store: SubscriptionStore,
    meters: QuotaMeters,
    settings: EventsSettings,
  ) {
    super(meters, settings.maxSubscriptions);
  }

  async used(clientId: string): Promise<number> {
    return (await this.store.list(clientId)).length;
  }
}
