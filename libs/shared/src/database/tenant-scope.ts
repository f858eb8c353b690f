import type {
  Model,
  MongooseBaseQueryOptions,
  ProjectionType,
  QueryOptions,
  UpdateQuery,
  UpdateWithAggregationPipeline,
} from 'mongoose';

/*
 * Tenant scope as a type. A tenant's documents are reached through a TenantScopedModel,
 * whose every query takes a TenantFilter: one that names the client id, or addresses
 * documents by a TenantKey (a composite `_id` that starts with the client id, built by
 * `tenantKey` in each lib's keys.ts). A query without either does not compile; the few
 * deliberate reads across tenants (scheduled jobs' backlogs, an index rebuild) say so with
 * `acrossTenants(...)` at the call.
 */

declare const tenantKeyBrand: unique symbol;
/** A composite `_id` (or key) that starts with its tenant's client id. */
export type TenantKey = string & { readonly [tenantKeyBrand]: true };

/** `<clientId>|<part>|...`: the one way a tenant's document key is built (each lib's keys.ts). */
export function tenantKey(clientId: string, ...parts: (string | number)[]): TenantKey {
  if (!clientId) throw new Error('A tenant key needs its client id');
  // Concatenated, not an array joined: built on every GET (the read model's key).
  let key = clientId;
  for (const part of parts) key += `|${part}`;
  return key as TenantKey;
}

/** A tenant's root document (its client account, its id counters): keyed by the client id. */
export function tenantRootKey(clientId: string): TenantKey {
  return tenantKey(clientId);
}

type Conditions = { readonly [field: string]: unknown };

/** A filter of one tenant's documents: it names the client id, or addresses them by key. */
export type TenantFilter =
  | (Conditions & { readonly clientId: string })
  | (Conditions & { readonly _id: TenantKey | { readonly $in: readonly TenantKey[] } });

declare const crossTenantBrand: unique symbol;
/** A filter that deliberately reads every tenant's documents (see acrossTenants). */
export type CrossTenantFilter = Conditions & { readonly [crossTenantBrand]: true };

/**
 * A deliberate read across tenants: only scheduled jobs' backlogs and rebuilds of derived
 * indexes, never a request path. The call site names it, so a review sees every one.
 */
export function acrossTenants(filter: Conditions = {}): CrossTenantFilter {
  return filter as CrossTenantFilter;
}

/** A document of a tenant-scoped collection, as created: its key and its client id. */
type TenantDocument = { _id: TenantKey; clientId?: string };

/**
 * The model of a tenant-scoped collection as its repository uses it: the queries of
 * Mongoose, each taking a TenantFilter (or an explicit cross-tenant one), so nothing in
 * the types lets a repository send a query that could read another tenant's documents.
 */
export class TenantScopedModel<T> {
  constructor(private readonly model: Model<T>) {}

  find(filter: TenantFilter | CrossTenantFilter, projection?: ProjectionType<T>) {
    return this.model.find(filter as never, projection);
  }

  findOne(filter: TenantFilter, projection?: ProjectionType<T>) {
    return this.model.findOne(filter as never, projection);
  }

  findById(key: TenantKey, projection?: ProjectionType<T>) {
    return this.model.findById(key, projection);
  }

  /**
   * One document by its key, as stored (what `findById(key).lean()` answers), straight
   * through the driver: no mongoose Query is built, cast or run, which on the worker's
   * apply path (three lookups per write) cost more CPU than the driver's own command.
   */
  async findStoredById<R = T>(key: TenantKey): Promise<R | null> {
    return (await this.model.collection.findOne({ _id: key as never })) as R | null;
  }

  countDocuments(filter: TenantFilter | CrossTenantFilter) {
    return this.model.countDocuments(filter as never);
  }

  create(doc: TenantDocument & Partial<T>) {
    return this.model.create(doc as never);
  }

  insertMany(docs: (TenantDocument & Partial<T>)[]) {
    return this.model.insertMany(docs as never[]);
  }

  updateOne(
    filter: TenantFilter,
    update: UpdateQuery<T> | UpdateWithAggregationPipeline,
    options?: QueryOptions<T>,
  ) {
    return this.model.updateOne(filter as never, update, options as never);
  }

  updateMany(
    filter: TenantFilter | CrossTenantFilter,
    update: UpdateQuery<T> | UpdateWithAggregationPipeline,
  ) {
    return this.model.updateMany(filter as never, update);
  }

  replaceOne(filter: TenantFilter, doc: Partial<T>, options?: QueryOptions<T>) {
    return this.model.replaceOne(filter as never, doc as never, options as never);
  }

  findOneAndUpdate(
    filter: TenantFilter,
    update: UpdateQuery<T>,
    options?: QueryOptions<T> & { new?: boolean; upsert?: boolean },
  ) {
    return this.model.findOneAndUpdate(filter as never, update, options as never);
  }

  deleteOne(filter: TenantFilter, options?: MongooseBaseQueryOptions<T>) {
    return this.model.deleteOne(filter as never, options as never);
  }

  deleteMany(filter: TenantFilter | CrossTenantFilter) {
    return this.model.deleteMany(filter as never);
  }

  /** The driver's collection, for group-committed inserts (BatchedInserts). */
  get collection() {
    return this.model.collection;
  }
}
