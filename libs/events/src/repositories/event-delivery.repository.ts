import { Injectable } from '@nestjs/common';
import { TenantScopedModel, InjectTenantScoped } from '@app/shared';
import {
  type DeadLetter,
  DEAD_LETTERS_KEPT,
  DeadLetterList,
  DeliveryCursor,
} from '../domain/event-delivery.schema';
import { deadLettersKey, deliveryCursorKey } from '../keys';

/** The delivery cursors and dead letters, every command by `_id`. */
@Injectable()
export class EventDeliveryRepository {
  constructor(
    @InjectTenantScoped(DeliveryCursor) private readonly cursors: TenantScopedModel<DeliveryCursor>,
    @InjectTenantScoped(DeadLetterList)
    private readonly deadLetters: TenantScopedModel<DeadLetterList>,
  ) {}

  async cursor(
    clientId: string,
    subscriptionId: string,
    profileId: number,
  ): Promise<DeliveryCursor | null> {
    return this.cursors
      .findById(deliveryCursorKey(clientId, subscriptionId, profileId))
      .lean<DeliveryCursor>()
      .exec();
  }

  async saveCursor(
    clientId: string,
    subscriptionId: string,
    profileId: number,
    cursor: Omit<DeliveryCursor, '_id'>,
  ): Promise<void> {
    const _id = deliveryCursorKey(clientId, subscriptionId, profileId);
    await this.cursors.collection.replaceOne(
      { _id } as object,
      { _id, ...cursor },
      { upsert: true },
    );
  }

  /** Removes the pair's cursor (an erased profile's: docs/data-subject.md). */
  async deleteCursor(clientId: string, subscriptionId: string, profileId: number): Promise<void> {
    await this.cursors.deleteOne({ _id: deliveryCursorKey(clientId, subscriptionId, profileId) });
  }

  async listDeadLetters(clientId: string, subscriptionId: string): Promise<DeadLetter[]> {
    const doc = await this.deadLetters
      .findById(deadLettersKey(clientId, subscriptionId))
      .lean<DeadLetterList>()
      .exec();
    return (doc?.entries ?? []).map((entry) => JSON.parse(entry) as DeadLetter);
  }

  /** Replaces the list (the caller holds the subscription's dead-letter lease). */
  async saveDeadLetters(
    clientId: string,
    subscriptionId: string,
    letters: DeadLetter[],
  ): Promise<void> {
    const _id = deadLettersKey(clientId, subscriptionId);
    if (!letters.length) {
      await this.deadLetters.collection.deleteOne({ _id } as object);
      return;
    }
    await this.deadLetters.collection.replaceOne(
      { _id } as object,
      { _id, entries: letters.slice(-DEAD_LETTERS_KEPT).map((letter) => JSON.stringify(letter)) },
      { upsert: true },
    );
  }
}
