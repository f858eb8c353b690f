import type { INestApplicationContext } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import {
  CRASH_POINTS,
  type CrashPointName,
  CrashPoints,
  leaseKey,
  RedisService,
} from '@app/shared';
import { alternateIdClaimKey } from '../../libs/profiles/src/keys';
import { eventually } from '../harness/test-app';
import { useMergeSuite } from './merge-helpers';

/**
 * A merge is crash-safe (docs/profile-merge.md, "The crash-safe sequence"): a worker killed
 * at any crash point of a merge, or an api dying before the merge's write is stored, ends
 * in the merged state or the unmerged one, never half; no alternate id is ever held by
 * neither profile. Writes of the absorbed profile accepted before the merge are applied to
 * it (so absorbed), those accepted after it are refused naming the survivor.
 */
describe('Profile merge: crash points and pending writes', () => {
  const suite = useMergeSuite({
    workers: 0,
    env: {
      // A killed worker's running jobs count against TENANT_MAX_RUNNING until their marks
      // lapse (15 s, the fair queue's RUNNING_TTL_MS): with the default cap of 4, as many as
      // the one live worker runs, the tests after a kill waited for them. Not a cap to test
      // here.
      TENANT_MAX_RUNNING: '100',
    },
  });
  let db: Connection;
  let redis: RedisService;
  beforeAll(async () => {
    db = suite.app.api.get<Connection>(getConnectionToken());
    redis = suite.app.api.get(RedisService);
    await suite.app.startWorker();
  });
  afterEach(async () => {
    for (const process of [suite.app.api, ...suite.app.workers])
      process.get(CrashPoints).disarmAll();
    // Every test leaves one live worker for the next one's set-up.
    if (!suite.app.workers.length) await suite.app.startWorker();
  });

  const arm = (process: INestApplicationContext, point: CrashPointName) =>
    process.get(CrashPoints).arm(point);
  /** The dead worker's lease on a profile lapses (LEASE_TTL_MS): here, at once. */
  const leaseLapses = (id: number) =>
    redis.client.del(
      leaseKey(suite.app.settings.queuePrefix, `profile:${suite.tenant.clientId}|${id}`),
    );
  /**
   * The profile's pending marker ages past STALE_WRITE_MS: here, at once (the sweeper, on
   * its next round, treats it as any stale marker; a worker sweeps as it starts too).
   */
  const markerAges = (id: number) =>
    db
      .collection('pending_profiles')
      .updateOne({ _id: `${suite.tenant.clientId}|${id}` } as object, {
        $set: { since: new Date(0) },
      });
  /** Who holds each pair's claim (by `_id`). */
  const holders = async (pairs: [string, string][]) =>
    Promise.all(
      pairs.map(async ([type, value]) => {
        const claim = await db
          .collection('alternate_id_claims')
          .findOne({ _id: alternateIdClaimKey(suite.tenant.clientId, type, value) } as object);
        return claim ? (claim.profileId as number) : null;
      }),
    );

  let n = 0;
  /** A survivor and an absorbed profile with two alternate ids (unique per test). */
  async function pair() {
    n++;
    const pairs: [string, string][] = [
      ['CRM', `crash-crm-${n}`],
      ['Loyalty', `crash-loy-${n}`],
    ];
    const survivor = await suite.create({ CustomerName: { FirstName: `S${n}` } });
    const absorbed = await suite.create({
      CustomerName: { FirstName: `A${n}`, LastName: `Absorbed${n}` },
      Emails: [{ EmailAddress: `crash-${n}@example.com`, EmailAddressType: 'Personal' }],
      AlternateIds: pairs.map(([AlternateIdType, AlternateId]) => ({
        AlternateIdType,
        AlternateId,
      })),
    });
    return { survivor, absorbed, pairs };
  }

  /** The merged state, whole: the survivor holds the data and the claims, A answers 404. */
  async function expectMerged(survivor: number, absorbed: number, pairs: [string, string][]) {
    const profile = await suite.merged(absorbed, survivor);
    expect(profile.CustomerName.LastName).toBe(`Absorbed${n}`);
    expect(profile.AlternateIds.map((p: any) => p.AlternateId).sort()).toEqual(
      pairs.map(([, value]) => value).sort(),
    );
    expect(await holders(pairs)).toEqual([survivor, survivor]);
    const history = (
      await suite.api().get(`/Profile/${survivor}/History/StandardFields`).expect(200)
    ).body;
    expect(history.filter((entry: any) => entry.Merge)).toHaveLength(1);
    const events = (await suite.api().get(`/Profile/${survivor}/Events`).expect(200)).body.Events;
    expect(events.filter((e: any) => e.EventType === 'profile.merged')).toHaveLength(1);
    await suite.merge(survivor, { AbsorbedProfileId: absorbed }).expect(200);
  }

  /** Kills the worker at `point` of a merge, checks the claims there, then lets a new worker finish. */
  async function crashAt(point: CrashPointName, leaseOf: 'survivor' | 'absorbed') {
    const { survivor, absorbed, pairs } = await pair();
    const [worker] = suite.app.workers;
    const reached = arm(worker, point);
    await suite.merge(survivor, { AbsorbedProfileId: absorbed }).expect(202);
    await reached;
    await suite.app.killWorker(worker);
    // At the crash: every pair held by one of the two, never by neither.
    for (const holder of await holders(pairs)) expect([survivor, absorbed]).toContain(holder);
    await leaseLapses(leaseOf === 'survivor' ? survivor : absorbed);
    await markerAges(survivor);
    await markerAges(absorbed);
    await suite.app.startWorker();
    await expectMerged(survivor, absorbed, pairs);
  }

  // First: the request it freezes for good holds the api's close (its drain, then Fastify's
  // close) until the request deadline (REQUEST_DEADLINE_MS, 10 s) answers it, which the
  // tests after it outlast.
  it('an api dying before the merge write is stored: unmerged, and the merge can be asked again', async () => {
    const { survivor, absorbed, pairs } = await pair();
    const reached = arm(suite.app.api, CRASH_POINTS.acceptAfterMarker);
    void suite.merge(survivor, { AbsorbedProfileId: absorbed }).then(
      () => undefined,
      () => undefined,
    );
    await reached;
    // Unmerged: both answer, each with its own data and claims.
    expect((await suite.complete(absorbed)).CustomerName.FirstName).toBe(`A${n}`);
    expect((await suite.complete(survivor)).AlternateIds ?? []).toEqual([]);
    expect(await holders(pairs)).toEqual([absorbed, absorbed]);
    // The record without a write is stale after STALE_WRITE_MS (here it ages at once): the
    // merge is accepted again.
    await db
      .collection('profile_merges')
      .updateOne({ _id: `${suite.tenant.clientId}|${absorbed}` } as object, {
        $set: { at: new Date(0) },
      });
    await eventually(async () => {
      const res = await suite.merge(survivor, { AbsorbedProfileId: absorbed });
      if (res.status === 409) return undefined;
      expect(res.status).toBe(202);
      return true;
    });
    await expectMerged(survivor, absorbed, pairs);
  });

  it('a worker killed in step 1, after the absorb is queued and before the absorbed profile is saved', () =>
    crashAt(CRASH_POINTS.mergeAfterAbsorbQueued, 'absorbed'));

  it('a worker killed in step 2 after the first claim moved', () =>
    crashAt(CRASH_POINTS.mergeAfterClaim, 'survivor'));

  it("a worker killed in step 2 before the survivor's save", () =>
    crashAt(CRASH_POINTS.mergeBeforeAbsorbSave, 'survivor'));

  it("a worker killed in step 2 after the survivor's save, before the record is closed", () =>
    crashAt(CRASH_POINTS.mergeAfterAbsorbSave, 'survivor'));

  it("applies the absorbed profile's writes accepted before the merge, refuses those after it", async () => {
    const { survivor, absorbed } = await pair();
    await suite.app.stopWorker(suite.app.workers[0]);
    await suite.api().post(`/Profile/${absorbed}`, { DefaultLocale: 'fr-ca' }).expect(202);
    await suite.merge(survivor, { AbsorbedProfileId: absorbed }).expect(202);
    // Accepted (the merge is not applied yet), then refused when its turn comes.
    await suite.api().post(`/Profile/${absorbed}`, { DefaultLocale: 'de-de' }).expect(202);
    await suite.app.startWorker();
    const profile = await suite.merged(absorbed, survivor);
    expect(profile.DefaultLocale).toBe('fr-ca');
    const updates = await suite.updates(absorbed);
    expect(updates.slice(0, 3).map((u) => [u.Operation, u.Status])).toEqual([
      ['merge', 'Failed'],
      ['merged-into', 'Complete'],
      ['merge', 'Complete'],
    ]);
    expect(updates[0].FailureReason).toBe(
      `Profile ${absorbed} was merged into profile ${survivor}`,
    );
    // Once merged, a write naming the absorbed id is refused at once, naming the survivor.
    const refused = await suite
      .api()
      .post(`/Profile/${absorbed}`, { DefaultLocale: 'nl-nl' })
      .expect(404);
    expect(refused.body.MergedInto).toBe(survivor);
    await request(suite.app.http)
      .delete(`/Profiles/v4/${suite.tenant.clientId}/Profile/${absorbed}`)
      .set('Authorization', suite.auth)
      .expect(404);
  });
});
