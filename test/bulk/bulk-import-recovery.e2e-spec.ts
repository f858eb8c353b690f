import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { CRASH_POINTS, CrashPoints } from '@app/shared';
import { useImportSuite } from './import-helpers';

/**
 * Bulk import, Execute (docs/bulk.md, crash safety): a worker killed at a crash point, or
 * stopped, mid-import; the next run goes on from the saved progress and applies each
 * record once. Real engine and Redis, one worker (a test starts another after killing it).
 */
describe('Bulk import: Execute, a worker that dies or stops', () => {
  const suite = useImportSuite();
  const {
    fresh,
    record,
    newImport,
    stage,
    execute,
    status,
    byAlternateId,
    ended,
    applied,
    stored,
    dropRunLease,
  } = suite;
  // A crash test that fails before restarting its worker must not fail the tests after it.
  afterEach(async () => {
    if (suite.app.workers.length === 0) await suite.app.startWorker();
  });

  it("a worker dying after a batch's new profiles are saved: the next run finishes them, and creates none twice", async () => {
    const ids = [fresh(), fresh(), fresh()];
    const token = await newImport();
    await stage(
      token,
      ids.map((id) => record(id, { ProfileTags: [{ Name: 'imported' }] })),
    ).expect(200);
    const [worker] = suite.app.workers;
    const reached = worker
      .get(CrashPoints, { strict: false })
      .arm(CRASH_POINTS.importCreateAfterSave, { everyFlow: true }); // both slices of the batch
    await execute(token).expect(202);
    await reached;
    await suite.app.killWorker(worker);
    expect((await status(token).expect(200)).body).toMatchObject({
      Status: 'Processing',
      Processed: 0,
    });
    // Saved, but not yet claimed: the alternate ids find nothing.
    await byAlternateId(ids[0]).expect(404);
    await dropRunLease(token);
    await suite.app.startWorker();
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 3, Pending: 0 });
    const profileIds = [];
    for (const id of ids) {
      const profile = await applied(id);
      profileIds.push(profile.ProfileId);
      const doc = (await stored(profile.ProfileId))!;
      expect(doc.appliedSeq).toBe(1);
      expect(doc.importMarks).toEqual([{ accessToken: token, n: ids.indexOf(id) + 1 }]);
    }
    // One profile per record: no other profile of the tenant holds these ids.
    const holders = await suite.app.api
      .get<Connection>(getConnectionToken())
      .collection('profiles')
      .find({ clientId: suite.tenant.clientId, 'data.AlternateIds.AlternateId': { $in: ids } })
      .toArray();
    expect(holders.map((doc) => doc.profileId).sort()).toEqual([...profileIds].sort());
  }, 60_000);

  it('a stopping worker ends its run after the chunk at hand (not its slice): the next worker applies the rest', async () => {
    const ids = [fresh(), fresh()];
    const token = await newImport();
    // Two stages: two chunks, one record each.
    await stage(token, [record(ids[0])]).expect(200);
    await stage(token, [record(ids[1])]).expect(200);
    const [worker] = suite.app.workers;
    const stall = worker
      .get(CrashPoints, { strict: false })
      .stall(CRASH_POINTS.importCreateAfterSave);
    await execute(token).expect(202);
    await stall.reached;
    // SIGTERM's path: the worker stops taking jobs and waits for the running one, which
    // then finishes chunk 1 and hands chunk 2 over instead of going on within its slice.
    const stopped = suite.app.stopWorker(worker);
    stall.resume();
    await stopped;
    expect((await status(token).expect(200)).body).toMatchObject({
      Status: 'Processing',
      Processed: 1,
    });
    await suite.app.startWorker();
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 2, Pending: 0 });
    for (const id of ids) expect((await applied(id)).AlternateIds[0].AlternateId).toBe(id);
  }, 60_000);

  it("a worker dying after a chunk saved the next chunk's ids: the next run creates that chunk's profiles under them, as they were built", async () => {
    const ids = [fresh(), fresh(), fresh(), fresh()];
    const token = await newImport();
    await stage(token, [record(ids[0]), record(ids[1])]).expect(200);
    await stage(token, [record(ids[2]), record(ids[3])]).expect(200);
    const [worker] = suite.app.workers;
    const reached = worker.get(CrashPoints, { strict: false }).arm(CRASH_POINTS.bulkRunAfterChunk);
    await execute(token).expect(202);
    await reached;
    await suite.app.killWorker(worker);
    const imports = suite.app.api.get<Connection>(getConnectionToken()).collection('bulk_imports');
    const job = (await imports.findOne({ _id: `${suite.tenant.clientId}|${token}` } as object))!;
    expect(job).toMatchObject({ appliedChunks: 1, processed: 2 });
    // The next chunk's ids, saved with the chunk done, and the instant they were built at.
    expect(job.newProfiles).toMatchObject({ chunk: 2, at: 0 });
    const saved = JSON.parse(job.newProfiles.ids) as { index: number; profileId: number }[];
    expect(saved.map(({ index }) => index)).toEqual([0, 1]);
    await dropRunLease(token);
    await suite.app.startWorker();
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 4, Pending: 0 });
    const writes = suite.app.api.get<Connection>(getConnectionToken()).collection('profile_writes');
    for (const [k, id] of ids.slice(2).entries()) {
      const profile = await applied(id);
      // Under the saved id, by the fast path (no write record), built at the saved instant.
      expect(profile.ProfileId).toBe(saved[k].profileId);
      const doc = (await stored(profile.ProfileId))!;
      expect(doc.appliedSeq).toBe(1);
      expect(doc.importMarks).toEqual([{ accessToken: token, n: k + 3 }]);
      expect(new Date(doc.createdAt).toISOString()).toBe(job.newProfiles.now);
      expect(await writes.findOne({ _id: `${doc._id}|1` } as object)).toBeNull();
    }
  }, 60_000);

  it('a worker dying mid-import on ordinary writes: the next run goes on from the saved progress and applies no record twice', async () => {
    const ids = [fresh(), fresh(), fresh()];
    // The profiles exist (a first import): the second import's records are merges.
    const first = await newImport();
    await stage(
      first,
      ids.map((id) => record(id)),
    ).expect(200);
    await execute(first).expect(202);
    await ended(first);
    const token = await newImport();
    await stage(
      token,
      ids.map((id) => record(id, { ProfileTags: [{ Name: 'second' }] })),
    ).expect(200);
    const [worker] = suite.app.workers;
    const reached = worker.get(CrashPoints, { strict: false }).arm(CRASH_POINTS.bulkRunAfterRecord);
    await execute(token).expect(202);
    // Record 1 is accepted; the worker dies before the import saved its progress.
    await reached;
    await suite.app.killWorker(worker);
    expect((await status(token).expect(200)).body).toMatchObject({
      Status: 'Processing',
      Processed: 0,
    });
    // Its run lease lapses (BULK_RUN_LEASE_MS); a new worker, and Execute queues the run again.
    await dropRunLease(token);
    await suite.app.startWorker();
    await execute(token).expect(202);
    expect(await ended(token)).toMatchObject({ Status: 'Completed', Processed: 3, Pending: 0 });
    for (const id of ids) await applied(id);
    // Record 1 was accepted twice (before and after the crash) and applied once: its
    // profile took the create and two merges, the second passed over (no change, no history).
    const profile = await applied(ids[0]);
    const doc = (await stored(profile.ProfileId))!;
    expect(doc.appliedSeq).toBe(3);
    expect(doc.importMarks).toEqual([
      { accessToken: first, n: 1 },
      { accessToken: token, n: 1 },
    ]);
    // Applied twice, the profile would carry seq 3's acceptance time as its ModifiedDate.
    const writes = suite.app.api.get<Connection>(getConnectionToken()).collection('profile_writes');
    const acceptedAt = async (seq: number) =>
      (
        (await writes.findOne({
          _id: `${suite.tenant.clientId}|${profile.ProfileId}|${seq}`,
        } as object))!.acceptedAt as Date
      ).toISOString();
    expect(doc.data.Edited.ModifiedDate).toBe(await acceptedAt(2));
    expect(await acceptedAt(3)).not.toBe(await acceptedAt(2));
    expect(profile.ProfileTags.map((tag: { Name: string }) => tag.Name)).toContain('second');
  }, 60_000);
});
