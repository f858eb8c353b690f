import { Injectable } from '@nestjs/common';
import {
  BatchedInserts,
  type InsertOutcome,
  acrossTenants,
  TenantScopedModel,
  InjectTenantScoped,
} from '@app/shared';
import type { Collection } from 'mongodb';
import { PendingProfile } from '../domain/pending-profile.schema';
import { profileKey } from '../keys';

/** The `pending_profiles` collection (see PendingProfile): the sweeper's work list. */
@Injectable()
export class PendingProfileRepository {
  /** Acceptances arriving together share one engine command (group commit). */
  private readonly inserts: BatchedInserts<PendingProfile>;

  constructor(
    @InjectTenantScoped(PendingProfile) private readonly markers: TenantScopedModel<PendingProfile>,
  ) {
    this.inserts = new BatchedInserts(
      () => this.markers.collection as unknown as Collection<PendingProfile>,
    );
  }

  /** Idempotent: an existing marker stays (with its older `since`): 'duplicate'. */
  mark(clientId: string, profileId: number, since = new Date()): Promise<InsertOutcome> {
    return this.inserts.insert({
      _id: profileKey(clientId, profileId),
      clientId,
      profileId,
      since,
    });
  }

  /**
   * Up to `limit` markers of every tenant (the sweeper's deliberate cross-tenant read). A
   * scan, but of the backlog only (markers leave when caught up).
   */
  listAcrossTenants(limit: number): Promise<PendingProfile[]> {
    return this.markers.find(acrossTenants()).limit(limit).lean<PendingProfile[]>().exec();
  }

  /**
   * Every marker of every tenant, read in batches of `batchSize` through one cursor (no
   * filter, no sort: a filter would decode the collection for each page). A scan of the
   * backlog only, once per loss of Redis (SweepPendingWrites, everyMarker).
   */
  scanAcrossTenants(batchSize: number): AsyncIterable<PendingProfile> {
    return this.markers.find(acrossTenants()).lean<PendingProfile>().batchSize(batchSize).cursor();
  }

  async clear(clientId: string, profileId: number): Promise<void> {
    await this.markers.deleteOne({ _id: profileKey(clientId, profileId) });
  }
}
