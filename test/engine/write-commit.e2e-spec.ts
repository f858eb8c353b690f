import request from 'supertest';
import { CRASH_POINTS, CrashPoints } from '@app/shared';
import { createConfiguredTenantWithin } from '../harness/configuration';
import { historyLastNames } from '../harness/profile-fixtures';
import { startFreezableProxy, type FreezableProxy } from '../harness/freezable-proxy';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/** The api's deadline here: short, so a stalled step passes it within a test. */
const DEADLINE_MS = 800;

/**
 * A write request decides once: it commits and is answered 202, or it is answered an error
 * and never applies, whatever stalls or dies on the way (docs/architecture.md, "Exactly
 * once"). With an Idempotency-Key it applies at most once, and a resend learns its outcome.
 * The engine sits behind a freezable proxy (a stalled engine: connections open, no byte
 * passes); crash points stop a request's flow as a process dying there would.
 */
describe('A write request commits once or never', () => {
  let proxy: FreezableProxy;
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const get = (id: number) => request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
  const merge = (id: number, lastName: string, key?: string) => {
    const req = request(app.http).post(`${base()}/${id}`).set('Authorization', auth);
    if (key) void req.set('Idempotency-Key', key);
    return req.send({ CustomerName: { LastName: lastName } });
  };
  const lastNames = (id: number) => historyLastNames(app.http, `${base()}/${id}`, auth);

  const settled = (id: number, lastName: string) =>
    eventually(async () => {
      const res = await get(id);
      return res.body.UpdateStatus === 'Complete' && res.body.CustomerName?.LastName === lastName
        ? res.body
        : undefined;
    });
  /** A request whose client goes away (or whose process died): its answer is not awaited. */
  const abandoned = (pending: request.Test) =>
    void pending.then(
      () => undefined,
      () => undefined,
    );
  let n = 0;
  const newKey = () => `commit-${Date.now()}-${++n}`;

  beforeAll(async () => {
    const engine = new URL(process.env.TEST_MONGODB_BASE!);
    proxy = await startFreezableProxy({ host: engine.hostname, port: Number(engine.port) });
    app = await startTestApp({
      env: {
        MONGODB_URI: `mongodb://127.0.0.1:${proxy.port}/commit_${Date.now().toString(36)}`,
        REQUEST_DEADLINE_MS: String(DEADLINE_MS),
        SYNC_WRITE_TIMEOUT_MS: '1000',
      },
    });
    tenant = await createConfiguredTenantWithin(app, createTestTenant);
    auth = await tenant.bearer();
  });
  afterEach(() => {
    proxy.thaw();
    app.api.get(CrashPoints).disarmAll();
  });
  afterAll(async () => {
    proxy.thaw();
    await app.close();
    await proxy.close();
  });

  async function createProfile(): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Commit', LastName: 'v0' } })
      .expect(202);
    await settled(res.body.ProfileId, 'v0');
    return res.body.ProfileId as number;
  }

  it('a write stalled past its deadline before its insert is answered 503 and never applies', async () => {
    const id = await createProfile();
    const stall = app.api.get(CrashPoints).stall(CRASH_POINTS.acceptAfterMarker);
    const first = merge(id, 'v1');
    const answered = first.then((res) => res);
    await stall.reached;
    const res = await answered;
    expect(res.status).toBe(503);
    expect(res.body.Message).toMatch(new RegExp(`within ${DEADLINE_MS} ms`));
    // The stalled flow goes on after the answer: it must not commit now.
    stall.resume();
    await merge(id, 'v2').expect(202);
    await settled(id, 'v2');
    // A third write: had v1 been inserted late, it would lie between v2 and v3.
    await merge(id, 'v3').expect(202);
    await settled(id, 'v3');
    expect(await lastNames(id)).toEqual(['v0', 'v2', 'v3']);
  });

  it('a write whose insert is in flight when the engine stalls waits for it and is answered 202', async () => {
    const id = await createProfile();
    proxy.freeze();
    const pending = merge(id, 'v1').then((res) => res);
    // Past the deadline with the insert still in the frozen engine: no 503 may be sent,
    // since the engine may store the write once it answers.
    await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS * 2));
    proxy.thaw();
    const res = await pending;
    if (res.status === 503) {
      // Refused before its insert reached the engine (authentication or configuration
      // needed the engine first): then it must never apply.
      await merge(id, 'v2').expect(202);
      await settled(id, 'v2');
      expect(await lastNames(id)).toEqual(['v0', 'v2']);
    } else {
      expect(res.status).toBe(202);
      await settled(id, 'v1');
      expect(await lastNames(id)).toEqual(['v0', 'v1']);
    }
  });

  it('a keyed write whose api stopped after its commit: a resend learns the 202, applied once', async () => {
    const id = await createProfile();
    const key = newKey();
    const reached = app.api.get(CrashPoints).arm(CRASH_POINTS.acceptAfterKeyCommit);
    abandoned(merge(id, 'v1', key));
    await reached;
    // Its attempt committed; the resends get 409 while its request could still answer, then
    // the committed write's 202 (never a second run), within about a deadline.
    const replay = await eventually(async () => {
      const res = await merge(id, 'v1', key);
      if (res.status === 409) return undefined;
      return res;
    }, 20000);
    expect(replay.status).toBe(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.ProfileId).toBe(id);
    await settled(id, 'v1');
    const updates = await request(app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    expect(updates.body.Updates).toHaveLength(2); // the create and v1, once
    expect(await lastNames(id)).toEqual(['v0', 'v1']);
  });

  it('a keyed write whose api stopped before its commit: a resend runs it once, the first never applies', async () => {
    const id = await createProfile();
    const key = newKey();
    const reached = app.api.get(CrashPoints).arm(CRASH_POINTS.acceptAfterWriteInsert);
    abandoned(merge(id, 'v1', key));
    await reached;
    // Its record is stored, its attempt not committed: a resend runs as the next attempt
    // once that attempt is known never to commit (answered, or its window passed).
    const resend = await eventually(async () => {
      const res = await merge(id, 'v1', key);
      return res.status === 409 ? undefined : res;
    }, 20000);
    expect(resend.status).toBe(202);
    await settled(id, 'v1');
    // Another resend replays the second attempt's answer.
    const again = await merge(id, 'v1', key).expect(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.SubmittedUtcTime).toBe(resend.body.SubmittedUtcTime);
    await merge(id, 'v2').expect(202);
    await settled(id, 'v2');
    // v1 once: the first attempt's record was voided, not applied.
    expect(await lastNames(id)).toEqual(['v0', 'v1', 'v2']);
    const updates = await request(app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    const statuses = (updates.body.Updates as { Sequence: number; Status: string }[])
      .sort((a, b) => a.Sequence - b.Sequence)
      .map((update) => update.Status);
    expect(statuses).toEqual(['Complete', 'Failed', 'Complete', 'Complete']);
  });

  it('a keyed write answered 503 before its insert: the resend runs at once and applies once', async () => {
    const id = await createProfile();
    const key = newKey();
    const stall = app.api.get(CrashPoints).stall(CRASH_POINTS.acceptAfterMarker);
    const first = merge(id, 'v1', key).then((res) => res);
    await stall.reached;
    expect((await first).status).toBe(503);
    stall.resume();
    const resend = await eventually(async () => {
      const res = await merge(id, 'v1', key);
      return res.status === 409 ? undefined : res;
    });
    expect(resend.status).toBe(202);
    expect(resend.headers['idempotent-replayed']).toBeUndefined();
    await settled(id, 'v1');
    await merge(id, 'v2').expect(202);
    await settled(id, 'v2');
    expect(await lastNames(id)).toEqual(['v0', 'v1', 'v2']);
  });
});
