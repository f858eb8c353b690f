import type { UpdateQuery } from 'mongoose';
import {
  acrossTenants,
  INT32_MAX,
  insertAtNextFreeNumber,
  type TenantKey,
  type TenantScopedModel,
} from '@app/shared';

/*
 * What exports and imports share in storage: a job is `<client>|<accessToken>` in its
 * collection, and a per-client hint says where the next token is probed from.
 */

/** A bulk job's record (an export, an import), by its client's access token. */
interface TokenJob {
  _id: TenantKey;
  clientId: string;
  accessToken: number;
}

/** Where a client's next access token of one kind of job is probed from. */
interface TokenHint {
  _id: TenantKey;
  clientId: string;
  last: number;
}

/** The collections of one kind of job: the jobs and their clients' token hints. */
export interface TokenCollections<Job extends TokenJob, Hint extends TokenHint> {
  jobs: TenantScopedModel<Job>;
  hints: TenantScopedModel<Hint>;
}

/**
 * Inserts the job `build` makes for the next free access token of its client, from the
 * hint's `last`: the insert of `<client>|<token>` (a unique `_id`) claims the token, as a
 * profile id is claimed; the hint only says where to start probing. Then raises the hint,
 * with `hintFields` (what else the hint keeps). A lost hint update only makes the next
 * claim probe further. `$max`: a concurrent claim's smaller token never lowers it (ended
 * jobs are removed, so a probe from below could hand out a token a client still holds).
 */
export async function claimNextToken<Job extends TokenJob, Hint extends TokenHint>(
  { jobs, hints }: TokenCollections<Job, Hint>,
  hint: { _id: TenantKey; last?: number },
  build: (token: number) => Job,
  hintFields: Omit<UpdateQuery<Hint>, '$max'>,
  exhausted: string,
): Promise<Job> {
  const doc = await insertAtNextFreeNumber(
    (hint.last ?? 0) + 1,
    build,
    (claim) => jobs.create(claim),
    INT32_MAX,
  );
  if (!doc) throw new Error(exhausted);
  await hints
    .updateOne(
      { _id: hint._id },
      { $max: { last: doc.accessToken }, ...hintFields },
      { upsert: true },
    )
    .exec();
  return doc;
}

/**
 * Every job of every tenant, by its key fields: a deliberate cross-tenant scan, only for
 * rebuilding a schedule after Redis lost it. Never on a request path.
 */
export async function* crossTenantJobKeys<Job extends TokenJob>(
  jobs: TenantScopedModel<Job>,
  batchSize: number,
): AsyncIterable<{ clientId: string; accessToken: number }> {
  const cursor = jobs
    .find(acrossTenants(), { clientId: 1, accessToken: 1 })
    .lean<Job>()
    .batchSize(batchSize)
    .cursor();
  for await (const { clientId, accessToken } of cursor) yield { clientId, accessToken };
}
