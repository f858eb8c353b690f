import {
  createTestTenant,
  tenantApi,
  type TenantApp,
  type TestTenant,
  useTenantApp,
} from '../harness/session';

/** Shared by the type-configuration suites (types-*.e2e-spec.ts). */

/** The six kinds with their older singular PATCH alias. */
export const KINDS = [
  ['AddressTypes', 'AddressType'],
  ['AlternateIdTypes', 'AlternateIdType'],
  ['CustomerTypes', 'CustomerType'],
  ['GroupTypes', 'GroupType'],
  ['EmailTypes', 'EmailType'],
  ['PhoneTypes', 'PhoneType'],
] as const;

export type Op = { op: string; path: string; value?: unknown; from?: string };

export const entry = (TypeName: string, extra: Record<string, unknown> = {}) => ({
  TypeName,
  LocalizedFields: [{ Locale: 'en-us', Name: TypeName, Description: `${TypeName} (en-us)` }],
  ...extra,
});

/**
 * Registers the set-up of a type-configuration suite (an app without workers and a tenant,
 * see useTenantApp) and answers it with the requests its tests make.
 */
export function useTypesSuite() {
  const suite: TenantApp = useTenantApp({ workers: 0 });

  /** A tenant of its own, for tests that need an empty configuration. */
  async function freshTenant(): Promise<{ clientId: string; auth: string; tenant: TestTenant }> {
    const other = await createTestTenant(suite.app);
    return { clientId: other.clientId, auth: await other.bearer(), tenant: other };
  }

  function post(clientId: string, authorization: string, kind: string, body: unknown) {
    return tenantApi(suite.app, clientId, authorization).post(`/${kind}`, body);
  }

  function get(clientId: string, authorization: string, kind: string, query = '') {
    return tenantApi(suite.app, clientId, authorization).get(`/${kind}${query}`);
  }

  function patch(
    clientId: string,
    authorization: string,
    kind: string,
    typeId: number | string,
    body: unknown,
  ) {
    return tenantApi(suite.app, clientId, authorization).patch(`/${kind}/${typeId}`, body);
  }

  async function create(
    clientId: string,
    authorization: string,
    kind: string,
    entries: object[],
  ): Promise<any[]> {
    const response = await post(clientId, authorization, kind, { [kind]: entries });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 201,
      body: expect.anything(),
    });
    return response.body[kind];
  }

  async function list(clientId: string, authorization: string, kind: string): Promise<any[]> {
    const response = await get(clientId, authorization, kind);
    expect(response.status).toBe(200);
    return response.body[kind];
  }

  return { suite, freshTenant, post, get, patch, create, list };
}
