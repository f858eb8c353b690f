import { Injectable, Logger } from '@nestjs/common';
import { acrossTenants, TenantScopedModel, InjectTenantScoped } from '@app/shared';
import { Profile } from '../../domain/profile.schema';
import { ExpiryIndex } from './expiry-index.service';

const REBUILD_PAGE = 500;

/**
 * The consent-expiry job's candidates, across clients (the job serves every tenant; each
 * profile carries its clientId): the members of the ExpiryIndex due by `asOf`, each read by
 * `_id`. A member whose stored profile has nothing due any more (changed since) is
 * re-scored from the stored profile.
 */
@Injectable()
export class ExpiryCandidates {
  private readonly logger = new Logger('ExpiryCandidates');

  constructor(
    @InjectTenantScoped(Profile) private readonly profiles: TenantScopedModel<Profile>,
    private readonly index: ExpiryIndex,
  ) {}

  /**
   * One page of due profiles, `offset` into the due order. Members found not due are moved
   * out of the range, so the next page starts at `offset + profiles.length`.
   */
  async page(
    asOf: Date,
    offset: number,
    limit: number,
  ): Promise<{ profiles: Profile[]; last: boolean }> {
    if (!(await this.index.isBuilt())) await this.rebuild();
    const ids = await this.index.due(asOf, offset, limit);
    const found = await Promise.all(
      ids.map((id) => this.profiles.findById(id).lean<Profile>().exec()),
    );
    const due: Profile[] = [];
    for (const [i, profile] of found.entries()) {
      if (profile?.state === 'active' && profile.nextExpiryAt && profile.nextExpiryAt <= asOf) {
        due.push(profile);
      } else if (profile?.state === 'active' && profile.nextExpiryAt) {
        await this.index.add([profile]);
      } else {
        await this.index.remove(ids[i]);
      }
    }
    return { profiles: due, last: ids.length < limit };
  }

  /**
   * The index from the profiles, after Redis lost it: one pass (a scan on the embedded
   * engine, once per loss, off every request's path).
   */
  private async rebuild(): Promise<void> {
    // One pass with a cursor, no filter and no sort (a filter or sort per page would decode
    // the whole collection for every page on the embedded engine).
    let count = 0;
    let batch: Profile[] = [];
    const cursor = this.profiles
      .find(acrossTenants(), { _id: 1, state: 1, nextExpiryAt: 1 })
      .lean<Profile>()
      .batchSize(REBUILD_PAGE)
      .cursor();
    for await (const profile of cursor) {
      count++;
      if (profile.state === 'active') batch.push(profile);
      if (batch.length >= REBUILD_PAGE) {
        await this.index.add(batch);
        batch = [];
      }
    }
    await this.index.add(batch);
    await this.index.markBuilt();
    this.logger.log(`expiry index rebuilt from ${count} profiles`);
  }
}
