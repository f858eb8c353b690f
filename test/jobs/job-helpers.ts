import request from 'supertest';
import {
  JobQueue,
  JobRunLog,
  type JobRun,
  type ScheduledJobDefinition,
  type ScheduledRunPayload,
} from '@app/shared';
import type { TestTenant } from '../harness/session';
import { eventually, type TestApp } from '../harness/test-app';

type Entry = Record<string, any>;

export const DAY_MS = 24 * 3600 * 1000;

/** The runs of a scheduled job recorded in job_runs, newest first. */
export function jobRuns(app: TestApp, job: ScheduledJobDefinition): Promise<JobRun[]> {
  return app.api.get(JobRunLog, { strict: false }).recent(job.name);
}

/**
 * Runs a scheduled job now, as its schedule would (one Bull job, taken by one worker),
 * and waits for its run record to finish: tests never wait for an interval.
 */
export async function runJob(
  app: TestApp,
  job: ScheduledJobDefinition,
  payload: ScheduledRunPayload = {},
): Promise<JobRun> {
  const before = new Set((await jobRuns(app, job)).map((run) => run._id));
  await app.api.get(JobQueue, { strict: false }).enqueue(job, payload);
  return eventually(async () => {
    const run = (await jobRuns(app, job)).find((candidate) => !before.has(candidate._id));
    return run && run.outcome !== 'running' ? run : undefined;
  });
}

/** Profile requests of one tenant, waiting for writes to complete. */
export function profileClient(app: TestApp, tenant: TestTenant) {
  const base = `/Profiles/v4/${tenant.clientId}/Profile`;
  const auth = () => tenant.bearer();
  const get = async (id: number): Promise<Entry> =>
    (
      await request(app.http)
        .get(`${base}/${id}`)
        .set('Authorization', await auth())
        .expect(200)
    ).body as Entry;
  return {
    get,
    /** The profile once every accepted write is applied. */
    complete: (id: number) =>
      eventually(async () => {
        const profile = await get(id);
        return profile.UpdateStatus === 'Complete' ? profile : undefined;
      }),
    async create(body: object): Promise<number> {
      const res = await request(app.http)
        .post(base)
        .set('Authorization', await auth())
        .send({ CustomerType: 'Customer', ...body });
      if (res.status !== 202) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.ProfileId as number;
    },
    async history(id: number, category: 'Consents' | 'Preferences'): Promise<Entry[]> {
      return (
        await request(app.http)
          .get(`${base}/${id}/History/${category}`)
          .set('Authorization', await auth())
          .expect(200)
      ).body as Entry[];
    },
    /** The operations of the profile's accepted writes (GET .../Updates), oldest first. */
    async operations(id: number): Promise<string[]> {
      const res = await request(app.http)
        .get(`${base}/${id}/Updates`)
        .set('Authorization', await auth())
        .expect(200);
      return (res.body.Updates as Entry[]).map((update) => update.Operation as string).reverse();
    },
  };
}

/** Every object under `value` that has the field `field` (consents, preferences...). */
export function itemsWith(value: unknown, field: string): Entry[] {
  if (Array.isArray(value)) return value.flatMap((item) => itemsWith(item, field));
  if (value === null || typeof value !== 'object') return [];
  const own = field in value ? [value as Entry] : [];
  return [...own, ...Object.values(value).flatMap((item) => itemsWith(item, field))];
}

/** Creates a consent type whose only version expires after `days` days; returns its TypeId. */
export async function createConsentType(
  app: TestApp,
  tenant: TestTenant,
  name: string,
  versions: { ConsentVersion: string; ExpirationInDays?: number }[],
): Promise<number> {
  const res = await request(app.http)
    .post(`/Profiles/v4/${tenant.clientId}/ConsentTypes`)
    .set('Authorization', await tenant.bearer())
    .send({
      ConsentTypes: [
        {
          TypeName: name,
          IsActive: true,
          LocalizedFields: [{ Locale: 'en-us', Name: name }],
          Versions: versions.map((version) => ({
            ...version,
            LocalizedFields: [{ ConsentLanguage: 'I agree', Locale: 'en-us', Name: name }],
          })),
        },
      ],
    });
  if (res.status !== 201)
    throw new Error(`ConsentTypes: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.ConsentTypes[0].TypeId as number;
}
