import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { Profile } from '@app/profiles';
import { RedisService } from '@app/shared';
import { reportSummary } from '../../libs/reports/src/domain/report-summary';
import { eventually, type TestApp } from '../harness/test-app';

/** The Redis keys of a client's counts (libs/reports/src/keys.ts). */
export function reportKey(app: TestApp, clientId: string, ...parts: string[]): string {
  return [app.api.get(RedisService).tagged('rp', clientId), ...parts].join(':');
}

/** The counts as Redis holds them, field by field (zeros left out). */
export async function liveCounts(app: TestApp, clientId: string): Promise<Record<string, number>> {
  const redis = app.api.get(RedisService).client;
  const hash = await redis.hgetall(reportKey(app, clientId, 'now'));
  return Object.fromEntries(
    Object.entries(hash)
      .map(([key, value]) => [key, Number(value)] as const)
      .filter(([, n]) => n !== 0)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

/**
 * The counts recomputed from every stored profile of the client (a scan of the profiles
 * collection: the test's own reading, never the service's).
 */
export async function recount(app: TestApp, clientId: string): Promise<Record<string, number>> {
  const db = app.api.get<Connection>(getConnectionToken());
  const profiles = (await db
    .collection('profiles')
    .find({ clientId } as object)
    .toArray()) as unknown as Profile[];
  const counts = new Map<string, number>();
  for (const profile of profiles)
    for (const [key, n] of reportSummary(profile)) counts.set(key, (counts.get(key) ?? 0) + n);
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Whether the client's counts are built, with no rebuild under way. */
export async function countsBuilt(app: TestApp, clientId: string): Promise<boolean> {
  const meta = await app.api.get(RedisService).client.hgetall(reportKey(app, clientId, 'meta'));
  return meta.built !== undefined && meta.rebuild === undefined;
}

/** Waits until the live counts are built and equal the recount; answers both. */
export async function countsSettle(app: TestApp, clientId: string, timeoutMs = 30000) {
  let last: { live: Record<string, number>; stored: Record<string, number> } | undefined;
  try {
    return await eventually(async () => {
      if (!(await countsBuilt(app, clientId))) return undefined;
      const [live, stored] = [await liveCounts(app, clientId), await recount(app, clientId)];
      last = { live, stored };
      return JSON.stringify(live) === JSON.stringify(stored) ? live : undefined;
    }, timeoutMs);
  } catch (error) {
    // The difference, for the failure message.
    expect(last?.live).toEqual(last?.stored);
    throw error;
  }
}
