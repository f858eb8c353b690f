import { Injectable, Logger } from '@nestjs/common';
import {
  ConflictError,
  CRASH_POINTS,
  CrashPoints,
  insertEach,
  isDuplicateKeyError,
  RedisService,
  ReusedStamps,
  textKey,
  TenantScopedModel,
  InjectTenantScoped,
} from '@app/shared';
import { randomUUID } from 'node:crypto';
import { ConfigClaim, ConfigStamp } from './config-bookkeeping.schema';
import { INT32_MAX, repeatedNames } from './entry-request';
import type { NameClaims } from './save-with-retry';
import { configStampKey, entryIdClaimKey, entryKindKey, entryNameClaimKey } from '../keys';

/**
 * How long the Redis copy of a stamp lives: it bounds how long a change whose copy could
 * not be written (Redis unreachable from the writer only, or a failover that lost it) stays
 * unseen by processes that read the copy. An expired copy costs one `_id` read to restore.
 */
const STAMP_COPY_TTL_SECONDS = 60;

/**
 * How old a name claim must be before it may be taken over when its entry does not hold
 * the name: far longer than any create or rename takes between its claim and its save
 * (requests end within REQUEST_DEADLINE_MS), so only a claim whose writer died is taken.
 */
/** Client kinds whose highest claimed id a process remembers (nextIds); then it starts over. */
const MAX_REMEMBERED_KINDS = 10_000;

export const NAME_CLAIM_GRACE_MS = 2 * 60 * 1000;

/**
 * The name of the kind's entry `entryId` (or every name it keeps claimed: consent types keep
 * their former names), or null when no such entry is stored.
 */
export type NameHolder = (entryId: number) => Promise<string | string[] | null>;

/** What claimUniqueNames and renameClaims read of an area's entries. */
export interface NamedEntryStore {
  /** The entry kind of ids and name claims (`picklist`). */
  readonly kind: string;
  /** What messages call an entry (`Picklist`). */
  readonly label: string;
  /** The stored names among `nameKeys` (textKey of each). */
  existingNames(clientId: string, nameKeys: string[]): Promise<string[]>;
  /** What NameHolder answers for entry `entryId` of the client. */
  namesHeldBy(clientId: string, entryId: number): Promise<string | string[] | null>;
}

/**
 * Ids, unique names and the change stamp of a client's configuration entries. The stamp
 * lives in the engine (the record) and, as a copy, in Redis: every profile write checks
 * it (ConfigurationReader), so the copy spares the engine one command per acceptance and
 * per applied write.
 */
@Injectable()
export class ConfigBookkeeping {
  private readonly logger = new Logger('ConfigBookkeeping');

  /** The highest id this process claimed or saw claimed, by entryKindKey. */
  private readonly claimedIds = new Map<string, number>();

  constructor(
    @InjectTenantScoped(ConfigStamp) private readonly stamps: TenantScopedModel<ConfigStamp>,
    @InjectTenantScoped(ConfigClaim) private readonly claims: TenantScopedModel<ConfigClaim>,
    private readonly redis: RedisService,
    private readonly crashPoints: CrashPoints,
    private readonly reused: ReusedStamps,
  ) {}

  /** The next free int32 id of `kind` for the client (1, 2, ...). */
  async nextId(clientId: string, kind: string): Promise<number> {
    return (await this.nextIds(clientId, kind, 1))[0];
  }

  /**
   * `count` free int32 ids of `kind` for the client, ascending. `_id` reads find the highest
   * id claimed so far (highestClaimedId), then one insert command per round: ids a
   * concurrent create took in between come back as duplicates and are replaced by the next
   * ones.
   */
  async nextIds(clientId: string, kind: string, count: number): Promise<number[]> {
    if (count === 0) return [];
    const taken: number[] = [];
    let next = (await this.highestClaimedId(clientId, kind)) + 1;
    while (taken.length < count) {
      const wanted = count - taken.length;
      if (next + wanted - 1 > INT32_MAX) {
        throw new Error(`No free ${kind} id left for client ${clientId}`);
      }
      const candidates = Array.from({ length: wanted }, (_, n) => next + n);
      next += wanted;
      const outcomes = await insertEach(
        this.claims.collection,
        candidates.map((id) => ({
          _id: entryIdClaimKey(clientId, kind, id),
          clientId,
          kind,
          entryId: id,
        })),
      );
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome instanceof Error) throw outcome;
        if (outcome === 'inserted') taken.push(candidates[index]);
      }
    }
    this.rememberClaimedId(clientId, kind, taken[taken.length - 1]);
    return taken;
  }

  /**
   * The highest id of `kind` claimed for the client, found by `_id` reads of the claims
   * (`entryIdClaimKey`): up from the highest this process knows, doubling the step until
   * an id is free, then halving back. Ids are claimed in order, so the claimed ones are
   * 1..n (but for ids a create that died left unclaimed, which the next create takes). No
   * other filter: on the embedded engine one decodes every claim of every client.
   */
  private async highestClaimedId(clientId: string, kind: string): Promise<number> {
    const claimed = async (id: number) =>
      (await this.claims.findStoredById(entryIdClaimKey(clientId, kind, id))) !== null;
    let low = this.claimedIds.get(entryKindKey(clientId, kind)) ?? 0;
    let step = 1;
    while (await claimed(low + step)) {
      low += step;
      step *= 2;
    }
    let high = low + step; // free
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await claimed(middle)) low = middle;
      else high = middle;
    }
    return low;
  }

  /** Where this process's next search of the client's kind starts (bounded, then forgotten). */
  private rememberClaimedId(clientId: string, kind: string, id: number | undefined): void {
    if (id === undefined) return;
    if (this.claimedIds.size >= MAX_REMEMBERED_KINDS) this.claimedIds.clear();
    this.claimedIds.set(entryKindKey(clientId, kind), id);
  }

  /**
   * Claims `name` (case-insensitive) for entry `entryId`; false when another entry has it.
   * A claim that a create or rename left when it died between its claim and its save (its
   * entry missing, or not holding the name) blocks the name only for NAME_CLAIM_GRACE_MS:
   * after that, `holder` (the kind's entry lookup) shows it stale and the claim is taken over.
   */
  async claimName(
    clientId: string,
    kind: string,
    name: string,
    entryId: number,
    holder: NameHolder,
  ): Promise<boolean> {
    const _id = entryNameClaimKey(clientId, kind, name);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.claims.create({ _id, clientId, kind, entryId, claimedAt: new Date() });
        return true;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      const held = await this.claims.findOne({ _id, clientId }).lean<ConfigClaim>().exec();
      if (held?.entryId === entryId) return true;
      if (held && (attempt > 0 || !(await this.isStale(held, textKey(name), holder)))) {
        return false;
      }
      // Stale (or released meanwhile): drop it, naming its holder so that a claim another
      // writer just took over stays, and try once more.
      if (held) await this.claims.deleteOne({ _id, clientId, entryId: held.entryId });
    }
    return false;
  }

  private async isStale(claim: ConfigClaim, key: string, holder: NameHolder): Promise<boolean> {
    // Claims stored before claimedAt was kept count as old.
    const age = Date.now() - (claim.claimedAt ? new Date(claim.claimedAt).getTime() : 0);
    if (age < NAME_CLAIM_GRACE_MS) return false;
    const held = await holder(claim.entryId);
    const names = held === null ? [] : [held].flat();
    if (names.some((name) => textKey(name) === key)) return false;
    this.logger.warn(
      `name claim ${claim._id} of entry ${claim.entryId} is stale (the entry ${held === null ? 'does not exist' : `is named "${names[0]}"`}): taken over`,
    );
    return true;
  }

  async releaseName(clientId: string, kind: string, name: string, entryId: number): Promise<void> {
    await this.claims.deleteOne({
      _id: entryNameClaimKey(clientId, kind, name),
      clientId,
      entryId,
    });
  }

  /**
   * The ids of a create whose entries need new and distinct names (picklists, custom fields,
   * consent types): 409 when a name repeats in the body or an entry of `store` holds it,
   * then claimNewEntries.
   */
  async claimUniqueNames(
    clientId: string,
    names: string[],
    store: NamedEntryStore,
  ): Promise<number[]> {
    const { kind, label } = store;
    const repeated = repeatedNames(names);
    if (repeated.length) {
      throw new ConflictError(`${label} name "${repeated[0]}" is given more than once in the body`);
    }
    const existing = await store.existingNames(clientId, names.map(textKey));
    if (existing.length) throw new ConflictError(`${label} "${existing[0]}" already exists`);
    return this.claimNewEntries(
      clientId,
      kind,
      names,
      (index) => `${label} "${names[index]}" already exists`,
      (entryId) => store.namesHeldBy(clientId, entryId),
    );
  }

  /**
   * Takes an id and claims the name of each new entry of a create, in order. When a name is
   * taken (by a concurrent create), the names claimed so far are released and the 409 that
   * `conflict(index)` words is thrown; ids stay taken, as ids are never reused. The common
   * case costs three engine commands whatever the number of entries: the highest id (one
   * `_id` read where this process made the last create of the kind, a few more elsewhere),
   * the id claims, the name claims; only a name found taken goes the way of claimName.
   */
  async claimNewEntries(
    clientId: string,
    kind: string,
    names: string[],
    conflict: (index: number) => string,
    holder: NameHolder,
  ): Promise<number[]> {
    const ids = await this.nextIds(clientId, kind, names.length);
    const claimedAt = new Date();
    const outcomes = await insertEach(
      this.claims.collection,
      names.map((name, index) => ({
        _id: entryNameClaimKey(clientId, kind, name),
        clientId,
        kind,
        entryId: ids[index],
        claimedAt,
      })),
    );
    for (const [index, outcome] of outcomes.entries()) {
      const claimed =
        outcome === 'inserted' ||
        (outcome === 'duplicate' &&
          (await this.claimName(clientId, kind, names[index], ids[index], holder)));
      if (!claimed) {
        // releaseName deletes only a claim held by the given id: names this create did not
        // get stay with their holders.
        await this.releaseNames(clientId, kind, names, ids);
        if (outcome instanceof Error) throw outcome;
        throw new ConflictError(conflict(index));
      }
    }
    await this.crashPoints.at(CRASH_POINTS.configAfterNameClaims);
    return ids;
  }

  /** Releases the names of a create that failed (`names[i]` held by `ids[i]`). */
  async releaseNames(
    clientId: string,
    kind: string,
    names: string[],
    ids: number[],
  ): Promise<void> {
    for (const [index, id] of ids.entries()) {
      await this.releaseName(clientId, kind, names[index], id);
    }
  }

  /** The name claims of one entry, as saveWithRetry takes them; `conflict` words the 409. */
  nameClaims(
    clientId: string,
    kind: string,
    entryId: number,
    conflict: (name: string) => string,
    holder: NameHolder,
  ): NameClaims {
    return {
      claim: (name) => this.claimName(clientId, kind, name, entryId, holder),
      release: (name) => this.releaseName(clientId, kind, name, entryId),
      conflict,
    };
  }

  /** The name claims of a rename of entry `entryId` of `store`: 409 when the name exists. */
  renameClaims(clientId: string, store: NamedEntryStore, entryId: number): NameClaims {
    return this.nameClaims(
      clientId,
      store.kind,
      entryId,
      (name) => `${store.label} "${name}" already exists`,
      (id) => store.namesHeldBy(clientId, id),
    );
  }

  /**
   * Marks the client's configuration as changed (after the change is stored): a new stamp
   * in the engine, then the same value as the Redis copy, announced in the same MULTI to the
   * read paths that reuse stamps (ReusedStamps).
   */
  async touch(clientId: string): Promise<void> {
    const stamp = randomUUID();
    await this.stamps.updateOne(
      { _id: configStampKey(clientId) },
      { $set: { stamp } },
      { upsert: true },
    );
    this.reused.changedHere(this.reusedName(clientId));
    try {
      const multi = this.redis.client
        .multi()
        .set(this.copyKey(clientId), stamp, 'EX', STAMP_COPY_TTL_SECONDS);
      const results = await this.reused.announce(multi, this.reusedName(clientId)).exec();
      const failed = results?.find(([error]) => error)?.[0];
      if (!results || failed) throw failed ?? new Error('the stamp transaction was discarded');
    } catch (error) {
      // Readers of the copy see the change when it expires (STAMP_COPY_TTL_SECONDS).
      this.logger.warn(`configuration stamp copy of ${clientId} not written: ${String(error)}`);
    }
  }

  /**
   * The stamp as every profile write checks it: the Redis copy, else the engine's (then
   * copied with NX, so a copy written by a concurrent change is never replaced by the value
   * read before it). `reuse`: a read path's, which may answer the stamp this process read
   * within READ_STAMP_REUSE_MS while no change was announced (ReusedStamps).
   */
  async currentStamp(clientId: string, reuse = false): Promise<string> {
    if (!reuse) return this.readStamp(clientId);
    return (await this.reused.read(this.reusedName(clientId), () => this.readStamp(clientId)))!;
  }

  private async readStamp(clientId: string): Promise<string> {
    if (!this.redis.available) return this.stampOf(clientId);
    try {
      const copy = await this.redis.client.get(this.copyKey(clientId));
      if (copy !== null) return copy;
    } catch {
      return this.stampOf(clientId);
    }
    const stamp = await this.stampOf(clientId);
    await this.redis.client
      .set(this.copyKey(clientId), stamp, 'EX', STAMP_COPY_TTL_SECONDS, 'NX')
      .catch(() => undefined);
    return stamp;
  }

  /** The configuration stamp's name among the stamps read paths reuse. */
  private reusedName(clientId: string): string {
    return `cfg:${clientId}`;
  }

  private copyKey(clientId: string): string {
    return this.redis.key('cfg', 'stamp', clientId);
  }

  async stampOf(clientId: string): Promise<string> {
    const doc = await this.stamps.findById(configStampKey(clientId)).lean<ConfigStamp>().exec();
    return doc?.stamp ?? 'initial';
  }
}
