import { Injectable } from '@nestjs/common';
import {
  acrossTenants,
  isDuplicateKeyError,
  type TenantKey,
  TenantScopedModel,
  InjectTenantScoped,
} from '@app/shared';
import { confirmationKey, confirmationListKey } from '../../keys';
import {
  ConfirmationOutboxDoc,
  CONFIRMATIONS_LISTED,
  StoredConfirmation,
  StoredConfirmationList,
} from '../domain/confirmation.schema';

/**
 * The confirmations, their per-profile lists and the outbox; every read and write by `_id`
 * but the outbox sweep's (a scheduled job over a collection that holds only what is owed)
 * and the expiry index's rebuild (once per loss of Redis).
 */
@Injectable()
export class ConfirmationRepository {
  constructor(
    @InjectTenantScoped(StoredConfirmation)
    private readonly confirmations: TenantScopedModel<StoredConfirmation>,
    @InjectTenantScoped(StoredConfirmationList)
    private readonly lists: TenantScopedModel<StoredConfirmationList>,
    @InjectTenantScoped(ConfirmationOutboxDoc)
    private readonly outbox: TenantScopedModel<ConfirmationOutboxDoc>,
  ) {}

  find(clientId: string, profileId: number, id: string): Promise<StoredConfirmation | null> {
    return this.findByKey(confirmationKey(clientId, profileId, id));
  }

  /**
   * The confirmation under `key`; one a merge's survivor took over is read where it moved
   * (one more read by `_id`), so its link, its message and the expiry index reach it there.
   */
  async findByKey(key: TenantKey): Promise<StoredConfirmation | null> {
    const found = await this.confirmations.findStoredById<StoredConfirmation>(key);
    if (found?.MovedTo === undefined || found.MovedTo === null) return found;
    return this.confirmations.findStoredById<StoredConfirmation>(
      confirmationKey(found.clientId, found.MovedTo, found.confirmationId),
    );
  }

  /** The record itself, not where a merge moved it (what the merge reads of the absorbed). */
  findOwn(clientId: string, profileId: number, id: string): Promise<StoredConfirmation | null> {
    return this.confirmations.findStoredById(confirmationKey(clientId, profileId, id));
  }

  /**
   * A merge's survivor takes a pending confirmation over (docs/double-opt-in.md, "Merges"):
   * its copy under the survivor, in the survivor's list, then the absorbed record pointing
   * at it. Each step idempotent, in that order: a death in between is repaired by the
   * absorb's retry, and the link reads the absorbed record until it points.
   */
  async moveToSurvivor(absorbed: StoredConfirmation, copy: StoredConfirmation): Promise<void> {
    await this.insertIgnoringDuplicate(() => this.confirmations.create(copy));
    await this.addToList(copy);
    await this.update(absorbed, { MovedTo: copy.profileId });
  }

  /**
   * Every pending confirmation's `_id` and expiry, in pages (the expiry index's rebuild
   * after Redis lost it: one pass with a cursor, no filter, once per loss).
   */
  async *pendingExpiries(
    pageSize: number,
  ): AsyncGenerator<Pick<StoredConfirmation, '_id' | 'ExpiresDate'>[]> {
    let page: Pick<StoredConfirmation, '_id' | 'ExpiresDate'>[] = [];
    const cursor = this.confirmations
      .find(acrossTenants(), { _id: 1, State: 1, ExpiresDate: 1 })
      .lean<StoredConfirmation>()
      .batchSize(pageSize)
      .cursor();
    for await (const confirmation of cursor) {
      if (confirmation.State === 'Pending') page.push(confirmation);
      if (page.length >= pageSize) {
        yield page;
        page = [];
      }
    }
    if (page.length) yield page;
  }

  /** The profile's confirmations, newest first (at most CONFIRMATIONS_LISTED). */
  list(clientId: string, profileId: number): Promise<StoredConfirmation[]> {
    return this.listed(clientId, profileId, (id) => this.find(clientId, profileId, id));
  }

  /** The profile's own records, moved ones included as they are (what a merge reads). */
  listOwn(clientId: string, profileId: number): Promise<StoredConfirmation[]> {
    return this.listed(clientId, profileId, (id) => this.findOwn(clientId, profileId, id));
  }

  private async listed(
    clientId: string,
    profileId: number,
    read: (id: string) => Promise<StoredConfirmation | null>,
  ): Promise<StoredConfirmation[]> {
    const list = await this.lists.findStoredById<StoredConfirmationList>(
      confirmationListKey(clientId, profileId),
    );
    const found = await Promise.all([...(list?.ids ?? [])].reverse().map(read));
    return found.filter((item): item is StoredConfirmation => item !== null);
  }

  /**
   * A new confirmation with its message owed: the confirmation, its place in the profile's
   * list and its outbox document. Each step is idempotent (the same `_id`s on a retry of
   * the write), so a death anywhere in between is repaired by the retry.
   */
  async insertRequested(confirmation: StoredConfirmation, dueAt: Date): Promise<void> {
    await this.insertIgnoringDuplicate(() => this.confirmations.create(confirmation));
    await this.addToList(confirmation);
    await this.queueMessage(confirmation, dueAt);
  }

  /** The confirmation's outbox document (its message owed), once: a retry finds it there. */
  private queueMessage(confirmation: StoredConfirmation, dueAt: Date): Promise<void> {
    return this.insertIgnoringDuplicate(() =>
      this.outbox.create({
        _id: confirmation._id,
        clientId: confirmation.clientId,
        profileId: confirmation.profileId,
        confirmationId: confirmation.confirmationId,
        createdAt: dueAt,
        attempts: 0,
        dueAt,
      }),
    );
  }

  /** Its place in the profile's list (the oldest dropped past CONFIRMATIONS_LISTED go). */
  private async addToList(confirmation: StoredConfirmation): Promise<void> {
    const listKey = confirmationListKey(confirmation.clientId, confirmation.profileId);
    const list = await this.lists.findStoredById<StoredConfirmationList>(listKey);
    if (!list?.ids.includes(confirmation.confirmationId)) {
      // Only the profile's apply step writes the list (one writer, under the profile lease).
      const all = [...(list?.ids ?? []), confirmation.confirmationId];
      const ids = all.slice(-CONFIRMATIONS_LISTED);
      await this.lists
        .replaceOne(
          { _id: listKey },
          { _id: listKey, clientId: confirmation.clientId, ids },
          { upsert: true },
        )
        .exec();
      // The collection holds what the lists name: a confirmation dropped from its list goes.
      for (const dropped of all.slice(0, all.length - ids.length)) {
        const key = confirmationKey(confirmation.clientId, confirmation.profileId, dropped);
        await this.confirmations.deleteOne({ _id: key }).exec();
        await this.outbox.deleteOne({ _id: key }).exec();
      }
    }
  }

  /**
   * A pending confirmation's message owed again (a resend): its Mail state Queued with one
   * more resend, and a new outbox document (the sender's lease and send marker as for the
   * first). `owed` when a message is still owed (nothing added); `gone` when the
   * confirmation went meanwhile (an erasure: the outbox document is taken back).
   */
  async requestResend(
    confirmation: StoredConfirmation,
    dueAt: Date,
  ): Promise<'queued' | 'owed' | 'gone'> {
    if (await this.findOutbox(confirmation)) return 'owed';
    await this.update(confirmation, {
      Mail: { State: 'Queued', Attempts: 0, Resends: (confirmation.Mail.Resends ?? 0) + 1 },
    });
    await this.queueMessage(confirmation, dueAt);
    if (await this.findByKey(confirmation._id)) return 'queued';
    await this.outbox.deleteOne({ _id: confirmation._id }).exec();
    return 'gone';
  }

  async update(
    confirmation: StoredConfirmation,
    changes: Partial<Omit<StoredConfirmation, '_id' | 'clientId'>>,
  ): Promise<void> {
    await this.confirmations.updateOne({ _id: confirmation._id }, { $set: changes }).exec();
  }

  findOutbox(confirmation: {
    _id: StoredConfirmation['_id'];
  }): Promise<ConfirmationOutboxDoc | null> {
    return this.outbox.findStoredById(confirmation._id);
  }

  async updateOutbox(
    doc: ConfirmationOutboxDoc,
    changes: Partial<Pick<ConfirmationOutboxDoc, 'attempts' | 'dueAt' | 'sentAt'>>,
  ): Promise<void> {
    await this.outbox.updateOne({ _id: doc._id }, { $set: changes }).exec();
  }

  async deleteOutbox(doc: ConfirmationOutboxDoc): Promise<void> {
    await this.outbox.deleteOne({ _id: doc._id }).exec();
  }

  /** Everything kept of a profile's confirmations (an erasure): its list, each one, its outbox. */
  async deleteProfile(clientId: string, profileId: number): Promise<void> {
    const listKey = confirmationListKey(clientId, profileId);
    const list = await this.lists.findStoredById<StoredConfirmationList>(listKey);
    for (const id of list?.ids ?? []) {
      const key = confirmationKey(clientId, profileId, id);
      await this.outbox.deleteOne({ _id: key }).exec();
      await this.confirmations.deleteOne({ _id: key }).exec();
    }
    await this.lists.deleteOne({ _id: listKey }).exec();
  }

  /** The outbox documents due at `now` (the sweep: messages whose job was lost). */
  async dueOutbox(now: Date, limit: number): Promise<ConfirmationOutboxDoc[]> {
    const docs = await this.outbox
      .find(acrossTenants({ dueAt: { $lte: now } }))
      .limit(limit)
      .lean<ConfirmationOutboxDoc[]>()
      .exec();
    return docs;
  }

  private async insertIgnoringDuplicate(insert: () => Promise<unknown>): Promise<void> {
    try {
      await insert();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}
