import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { CONSENT_EXPIRY } from '@app/profiles';
import { RedisService } from '@app/shared';
import { configureTestTenant } from '../harness/configuration';
import { recordEngineCommands } from '../harness/engine-commands';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';
import { createConsentType, DAY_MS, profileClient, runJob } from './job-helpers';

type Entry = Record<string, any>;

/**
 * The expiry job finds due profiles through the ExpiryIndex (a Redis sorted set kept by
 * the worker), never by reading every profile; when Redis has lost the index, the job
 * rebuilds it from the profiles before it runs.
 */
describe('Scheduled job: expiry through the due-time index', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let profiles: ReturnType<typeof profileClient>;
  /** Profiles holding an unexpired Promo consent, created by whichever tests ran. */
  const promoHolders: number[] = [];

  beforeAll(async () => {
    app = await startTestApp({ env: { MONITOR_ENGINE_COMMANDS: 'true' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    await createConsentType(app, tenant, 'Promo', [{ ConsentVersion: '1', ExpirationInDays: 10 }]);
    profiles = profileClient(app, tenant);
  });
  afterAll(() => app?.close());

  const promo = (profile: Entry) =>
    (profile.Consents as Entry[]).find((consent) => consent.ConsentType === 'Promo')!;

  it('reads no profile when nothing is due, once the index is built', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(() =>
        profiles.create({ Consents: [{ ConsentType: 'Promo', ConsentStatus: 1 }] }),
      ),
    );
    for (const id of ids) await profiles.complete(id);
    promoHolders.push(...ids);
    // The sweeper (every second in tests) reads each profile once more before it removes the
    // profile's pending marker: wait for that, so only the job's commands are recorded.
    const markers = app.api.get<Connection>(getConnectionToken()).collection('pending_profiles');
    await eventually(async () =>
      (await markers.countDocuments({
        _id: { $in: ids.map((id) => `${tenant.clientId}|${id}`) },
      } as object)) === 0
        ? true
        : undefined,
    );
    // The first run builds the index (there is none yet); the runs after it read the index.
    await runJob(app, CONSENT_EXPIRY);
    const commands = await recordEngineCommands([app.api, ...app.workers], async () => {
      const run = await runJob(app, CONSENT_EXPIRY);
      expect(run.counts).toMatchObject({ profiles: 0 });
    });
    expect(commands.filter((command) => command.collection === 'profiles')).toEqual([]);
  });

  it('rebuilds a lost index from the profiles and expires what is due', async () => {
    const id = await profiles.create({ Consents: [{ ConsentType: 'Promo', ConsentStatus: 1 }] });
    expect(promo(await profiles.complete(id)).Expired).not.toBe(true);
    promoHolders.push(id);
    const redis = app.api.get(RedisService);
    await redis.client.del(redis.key('expiry'), redis.key('expiry', 'built'));

    app.advance(11 * DAY_MS);
    const run = await runJob(app, CONSENT_EXPIRY);
    expect(run.outcome).toBe('ok');
    // Every holder is due, those of earlier tests too: the rebuilt index found them all.
    expect(run.counts).toMatchObject({ profiles: promoHolders.length });
    await eventually(async () => {
      const profile = await profiles.complete(id);
      return promo(profile).Expired === true ? profile : undefined;
    });
    expect(await redis.client.exists(redis.key('expiry', 'built'))).toBe(1);
  });
});
