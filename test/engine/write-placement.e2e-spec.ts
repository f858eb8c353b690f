import request from 'supertest';
import { CRASH_POINTS, CrashPoints } from '@app/shared';
import { configureTestTenant } from '../harness/configuration';
import { historyLastNames } from '../harness/profile-fixtures';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * A write is never placed where the worker will not apply it. An acceptance that read the
 * profile's sequence numbers, then stalled while the worker applied more than
 * WRITE_RECORDS_KEPT writes (and deleted their records), finds the number after its stale
 * one free: it must notice, place the write after the applied ones, and the write applies.
 */
describe('A write accepted with a stale idea of its profile', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const merge = (id: number, lastName: string) =>
    request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerName: { LastName: lastName } });
  const lastNames = (id: number) => historyLastNames(app.http, `${base()}/${id}`, auth);

  const settled = (id: number, lastName: string) =>
    eventually(async () => {
      const res = await request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' && res.body.CustomerName?.LastName === lastName
        ? res.body
        : undefined;
    }, 60000);

  beforeAll(async () => {
    app = await startTestApp({ env: { WRITE_RECORDS_KEPT: '5' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app.close());

  it('is placed after the writes applied meanwhile, and applied', async () => {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', CustomerName: { LastName: 'v0' } })
      .expect(202);
    const id = created.body.ProfileId as number;
    await settled(id, 'v0');
    // The stale write reads the profile at seq 1, then stalls before its insert.
    const stall = app.api.get(CrashPoints).stall(CRASH_POINTS.acceptAfterMarker);
    const stale = merge(id, 'stale').then((res) => res);
    await stall.reached;
    // Meanwhile twelve writes are accepted and applied: the records of seq 2 onwards are
    // deleted as they fall out of the 5 kept.
    for (let n = 1; n <= 12; n++) await merge(id, `v${n}`).expect(202);
    await settled(id, 'v12');
    stall.resume();
    const res = await stale;
    expect(res.status).toBe(202);
    await settled(id, 'stale');
    expect((await lastNames(id)).slice(-2)).toEqual(['v12', 'stale']);
    const updates = await request(app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    const last = (updates.body.Updates as { Sequence: number; Status: string }[]).sort(
      (a, b) => b.Sequence - a.Sequence,
    )[0];
    expect(last).toMatchObject({ Sequence: 14, Status: 'Complete' });
  });
});
