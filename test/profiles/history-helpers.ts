import request from 'supertest';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { type TenantApp, type TestTenant, useTenantApp } from '../harness/session';
import { eventually } from '../harness/test-app';

export type Entry = Record<string, any>;

/** A history suite's app and configured tenant, and the requests its tests make. */
export interface HistorySuite extends TenantApp, HistoryRequests {
  programs: TestPrograms;
}

type HistoryRequests = ReturnType<typeof historyRequests>;

/**
 * Registers the set-up of a suite of historical retrieval (profile-history*.e2e-spec.ts): an
 * app (see startTestApp) and a configured tenant. The fields are set once the suite's
 * beforeAll has run.
 */
export function useHistorySuite(): HistorySuite {
  const suite = useTenantApp() as HistorySuite;
  beforeAll(async () => {
    ({ programs: suite.programs } = await configureTestTenant(suite.app, suite.tenant));
  });
  return Object.assign(suite, historyRequests(suite));
}

/** The requests of the suite's tests, as the tenant's administrator unless told. */
function historyRequests(suite: TenantApp) {
  const base = (t: TestTenant = suite.tenant) => `/Profiles/v4/${t.clientId}/Profile`;
  const get = (profileId: number, authorization = suite.auth) =>
    request(suite.app.http).get(`${base()}/${profileId}`).set('Authorization', authorization);
  /** The profile once every write of it is applied (GET's answer). */
  const complete = (profileId: number) =>
    eventually(async () => {
      const res = await get(profileId);
      return res.body.UpdateStatus === 'Complete' ? (res.body as Entry) : undefined;
    });
  /** GET `<base>/<path>` (a history route), of `t`'s path as `authorization`. */
  const history = (path: string, authorization = suite.auth, t: TestTenant = suite.tenant) =>
    request(suite.app.http)
      .get(`${base(t)}/${path}`)
      .set('Authorization', authorization);
  /** The entries a history route answers (200, an array). */
  const entries = async (path: string): Promise<Entry[]> => {
    const res = await history(path).expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    return res.body as Entry[];
  };
  /** Creates a profile (CustomerType Customer unless the body says) and waits for it. */
  async function create(body: object): Promise<number> {
    const res = await request(suite.app.http)
      .post(base())
      .set('Authorization', suite.auth)
      .send({ CustomerType: 'Customer', ...body })
      .expect(202);
    await complete(res.body.ProfileId);
    return res.body.ProfileId as number;
  }
  return { base, get, complete, history, entries, create };
}
