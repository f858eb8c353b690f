import { Injectable } from '@nestjs/common';
import { insertEach, TenantScopedModel, InjectTenantScoped } from '@app/shared';
import type { Collection } from 'mongodb';
import type { ProfileEvent } from '../domain/profile-events';
import {
  decodeProfileEvents,
  encodeProfileEvents,
  ProfileEventsDoc,
} from '../domain/profile-events.schema';
import { profileEventsKey } from '../keys';

/**
 * The `profile_events` collection: one document per applied write with events (see
 * ProfileEventsDoc). Only the worker writes, under the profile's lease. Every command is
 * by `_id`.
 */
@Injectable()
export class ProfileEventRepository {
  constructor(
    @InjectTenantScoped(ProfileEventsDoc)
    private readonly docs: TenantScopedModel<ProfileEventsDoc>,
  ) {}

  /** Stores one write's events (again, identically, after a crash before its save). */
  async record(clientId: string, profileId: number, seq: number, events: ProfileEvent[]) {
    const _id = profileEventsKey(clientId, profileId, seq);
    await this.docs.collection.replaceOne(
      { _id } as object,
      { _id, events: encodeProfileEvents(events) },
      { upsert: true },
    );
  }

  /**
   * The first events of new profiles (CreateImportedProfilesHandler), in one unordered
   * command; a document an earlier attempt of the batch wrote is kept (the same events).
   */
  async insertMany(
    writes: { clientId: string; profileId: number; seq: number; events: ProfileEvent[] }[],
  ): Promise<void> {
    if (!writes.length) return;
    const outcomes = await insertEach(
      this.docs.collection as unknown as Collection<ProfileEventsDoc>,
      writes.map(({ clientId, profileId, seq, events }) => ({
        _id: profileEventsKey(clientId, profileId, seq),
        events: encodeProfileEvents(events),
      })),
    );
    const failed = outcomes.find((outcome) => outcome instanceof Error);
    if (failed) throw failed;
  }

  /**
   * The events of a pass of writes of one profile (again, identically, after a crash before
   * its save): one unordered insert (cheaper on the engine than an upsert, even for one
   * write); a document an earlier attempt left is replaced.
   */
  async recordMany(
    clientId: string,
    profileId: number,
    writes: { seq: number; events: ProfileEvent[] }[],
  ): Promise<void> {
    if (!writes.length) return;
    const docs = writes.map(({ seq, events }) => ({
      _id: profileEventsKey(clientId, profileId, seq),
      events: encodeProfileEvents(events),
    }));
    const outcomes = await insertEach(
      this.docs.collection as unknown as Collection<ProfileEventsDoc>,
      docs,
    );
    const failed = outcomes.find((outcome) => outcome instanceof Error);
    if (failed) throw failed;
    for (const [k, outcome] of outcomes.entries()) {
      if (outcome !== 'duplicate') continue;
      await this.docs.collection.replaceOne({ _id: docs[k]._id } as object, docs[k], {
        upsert: true,
      });
    }
  }

  /** The events of write `seq`; none when it had none or they are no longer kept. */
  async find(clientId: string, profileId: number, seq: number): Promise<ProfileEvent[]> {
    const doc = await this.docs
      .findById(profileEventsKey(clientId, profileId, seq))
      .lean<ProfileEventsDoc>()
      .exec();
    return decodeProfileEvents(doc);
  }

  /** Removes the events of the writes `seqs` (by `_id`; one already gone is no error). */
  async erase(clientId: string, profileId: number, seqs: readonly number[]): Promise<void> {
    for (const seq of seqs) {
      await this.docs.collection.deleteOne({
        _id: profileEventsKey(clientId, profileId, seq),
      } as object);
    }
  }
}
