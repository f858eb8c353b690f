import { startTestApp, type TestApp } from '../harness/test-app';
import { createTestTenant, tenantApi, type TenantApi, type TestTenant } from '../harness/session';

/** Shared by the programs suites (programs-*.e2e-spec.ts, program-groups.e2e-spec.ts). */

export type Op = { op: string; path: string; value?: unknown; from?: string };

/** A client of the API for one tenant, as its administrator. */
export interface Client extends TenantApi {
  clientId: string;
  tenant: TestTenant;
}

export const kv = (entries: Record<string, string | undefined>) =>
  Object.entries(entries).map(([Key, Value]) => (Value === undefined ? { Key } : { Key, Value }));

export const filter = (Name: string, extra: Record<string, unknown> = {}) => ({
  Name,
  ChannelID: 'Email',
  ...extra,
});

export const program = (Name: string, extra: Record<string, unknown> = {}) => ({
  Name,
  ProgramType: 'Marketing',
  ...extra,
});

export const names = (entries: { Name: string }[]) => entries.map((entry) => entry.Name);

/** A new tenant, and the API of it as its administrator. */
export async function newTenantClient(app: TestApp): Promise<Client> {
  const tenant = await createTestTenant(app);
  const api = tenantApi(app, tenant.clientId, await tenant.bearer());
  return { ...api, clientId: tenant.clientId, tenant };
}

export async function createPrograms(client: Client, programs: object[]): Promise<any[]> {
  const response = await client.post('/Programs', { Programs: programs });
  if (response.status !== 201) {
    throw new Error(`create programs: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.Programs;
}

export async function createGroups(client: Client, groups: object[]): Promise<any[]> {
  const response = await client.post('/ProgramGroups', { ProgramGroups: groups });
  if (response.status !== 201) {
    throw new Error(`create groups: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.ProgramGroups;
}

/** A programs suite's app (no worker): started before its tests, closed after them. */
export interface ProgramsApp {
  app: TestApp;
  /** A new tenant of the app, and the API of it as its administrator. */
  newClient(): Promise<Client>;
}

/** Registers the app of a programs suite (beforeAll starts it, afterAll closes it). */
export function useProgramsApp(): ProgramsApp {
  const suite = { newClient: () => newTenantClient(suite.app) } as ProgramsApp;
  beforeAll(async () => {
    suite.app = await startTestApp({ workers: 0 });
  });
  afterAll(async () => {
    await suite.app?.close();
  });
  return suite;
}
