import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { type TenantApi, type TenantApp, useTenantApp } from '../harness/session';
import { eventually, type startTestApp } from '../harness/test-app';

/** A suite's configured tenant and the requests the merge tests make (docs/profile-merge.md). */
export interface MergeSuite extends TenantApp {
  programs: TestPrograms;
  /** Creates a profile (CustomerType Customer unless the body says) and waits for it. */
  create(body: object, api?: TenantApi): Promise<number>;
  /** GET answers 200 Complete (and `check`): the profile. */
  complete(id: number, check?: (profile: any) => boolean, api?: TenantApi): Promise<any>;
  /** POST Profile/{survivor}/Merge. */
  merge(survivor: number, body: object, api?: TenantApi): ReturnType<TenantApi['post']>;
  /** The write records (GET .../Updates) of a profile: {Sequence, Operation, Status, FailureReason}. */
  updates(id: number): Promise<any[]>;
  /** Waits until the profile's write `seq` is no longer pending: its record. */
  outcome(id: number, seq: number): Promise<any>;
  /** Waits until the absorbed id answers 404 naming the survivor and the survivor is Complete. */
  merged(absorbed: number, survivor: number): Promise<any>;
}

export function useMergeSuite(options: Parameters<typeof startTestApp>[0] = {}): MergeSuite {
  const suite = useTenantApp(options) as MergeSuite;
  beforeAll(async () => {
    ({ programs: suite.programs } = await configureTestTenant(suite.app, suite.tenant));
  });
  suite.create = async (body, api = suite.api()) => {
    const res = await api.post('/Profile', { CustomerType: 'Customer', ...body });
    if (res.status !== 202) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    const id: number = res.body.ProfileId;
    await suite.complete(id, () => true, api);
    return id;
  };
  suite.complete = (id, check = () => true, api = suite.api()) =>
    eventually(async () => {
      const res = await api.get(`/Profile/${id}`);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' && check(res.body)
        ? res.body
        : undefined;
    });
  suite.merge = (survivor, body, api = suite.api()) =>
    api.post(`/Profile/${survivor}/Merge`, { ReasonCode: 'Duplicate', ...body });
  suite.updates = async (id) =>
    (await suite.api().get(`/Profile/${id}/Updates`).expect(200)).body.Updates;
  suite.outcome = (id, seq) =>
    eventually(async () => {
      const record = (await suite.updates(id)).find((update) => update.Sequence === seq);
      return record && record.Status !== 'Pending Update' ? record : undefined;
    });
  suite.merged = async (absorbed, survivor) => {
    await eventually(async () => {
      const res = await suite.api().get(`/Profile/${absorbed}`);
      return res.status === 404 && res.body.MergedInto === survivor ? true : undefined;
    });
    return eventually(async () => {
      const res = await suite.api().get(`/Profile/${survivor}`);
      const updates = await suite.updates(survivor);
      const absorb = updates.find((update) => update.Operation === 'absorb');
      return res.status === 200 &&
        res.body.UpdateStatus === 'Complete' &&
        absorb?.Status === 'Complete'
        ? res.body
        : undefined;
    });
  };
  return suite;
}
