import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { IncomingMessage } from 'node:http';
import request from 'supertest';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import {
  createTestTenant,
  type TenantApp,
  type TestTenant,
  useTenantApp,
} from '../harness/session';
import { eventually } from '../harness/test-app';
import { exportPageKey } from '../../libs/bulk/src/keys';

export const HOUR = 60 * 60 * 1000;
/** Rows per stored page in these suites (BULK_EXPORT_PAGE_ROWS): small, so exports take several runs. */
export const PAGE_ROWS = 2;
export const LEASE_MS = 2000;

export type Row = Record<string, unknown> & { ProfileId: number };

/** Supertest keeps a body of an unknown media type as text with this parser (the response stream). */
const asText = ((res: IncomingMessage, done: (error: Error | null, body: string) => void) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => done(null, text));
}) as unknown as Parameters<request.Test['parse']>[0];

/**
 * Registers the set-up of a suite of bulk exports (docs/bulk-export.md): an app with one
 * worker (pages of PAGE_ROWS rows, a run lease of LEASE_MS), a configured tenant and another
 * tenant. The fields are set once the suite's beforeAll has run.
 */
export function useExportSuite(): ExportSuite {
  const suite = useTenantApp({
    workers: 1,
    env: { BULK_EXPORT_PAGE_ROWS: String(PAGE_ROWS), BULK_RUN_LEASE_MS: String(LEASE_MS) },
  }) as ExportSuite;
  beforeAll(async () => {
    ({ programs: suite.programs } = await configureTestTenant(suite.app, suite.tenant));
    suite.other = await createTestTenant(suite.app);
  });
  return Object.assign(suite, exportRequests(suite));
}

/** An export suite's app, its tenants, and the requests its tests make. */
export interface ExportSuite extends TenantApp, ExportRequests {
  /** A second tenant, for the tests of another client's tokens. */
  other: TestTenant;
  programs: TestPrograms;
}

type ExportRequests = ReturnType<typeof exportRequests>;

/** The requests of the suite's tests, as the tenant's administrator. */
function exportRequests(suite: TenantApp) {
  let n = 0;
  const v4 = (clientId = suite.tenant.clientId) => `/Profiles/v4/${clientId}`;
  const base = (clientId = suite.tenant.clientId) => `${v4(clientId)}/Bulk/Export`;
  const fresh = () => `E-${Date.now().toString(36)}-${n++}`;

  const initiate = (body: object = {}, authorization = suite.auth) =>
    request(suite.app.http).post(base()).set('Authorization', authorization).send(body);
  const status = (token: number) =>
    request(suite.app.http).get(`${base()}/${token}`).set('Authorization', suite.auth);
  const rows = (token: number, query = '') =>
    request(suite.app.http).get(`${base()}/${token}/Rows${query}`).set('Authorization', suite.auth);
  const stream = (token: number, query = '') =>
    request(suite.app.http)
      .get(`${base()}/${token}/Stream${query}`)
      .set('Authorization', suite.auth)
      .buffer(true)
      .parse(asText);
  const commit = (token: number, query = '') =>
    request(suite.app.http)
      .post(`${base()}/${token}/Commit${query}`)
      .set('Authorization', suite.auth);

  /** A new export of the profiles saved since `since`; its token. */
  async function exported(body: object): Promise<number> {
    const res = await initiate(body);
    expect(res.status).toBe(201);
    return res.body.AccessToken as number;
  }
  /** The export once it is Complete. */
  const complete = (token: number) =>
    eventually(async () => {
      const res = await status(token);
      if (['Failed', 'Error'].includes(res.body.Status)) {
        throw new Error(`export ${token}: ${JSON.stringify(res.body)}`);
      }
      return res.body.Status === 'Complete' ? res.body : undefined;
    });
  const getProfile = (profileId: number) =>
    request(suite.app.http).get(`${v4()}/Profile/${profileId}`).set('Authorization', suite.auth);
  /** The profile once every write of it is applied (GET's answer). */
  const applied = (profileId: number) =>
    eventually(async () => {
      const res = await getProfile(profileId);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
  async function created(body: object = {}): Promise<number> {
    const res = await request(suite.app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', suite.auth)
      .send({ CustomerType: 'Customer', CustomerName: { FirstName: 'Ann' }, ...body });
    expect(res.status).toBe(202);
    await applied(res.body.ProfileId);
    return res.body.ProfileId as number;
  }
  /** `count` new profiles, each applied, saved after the returned `since`. */
  async function newProfiles(count: number, body: (i: number) => object = () => ({})) {
    const since = new Date().toISOString();
    const ids: number[] = [];
    for (let i = 0; i < count; i++) ids.push(await created(body(i)));
    return { since, ids };
  }
  const db = () => suite.app.api.get<Connection>(getConnectionToken());
  /** Stored page `page` of an export, read in the engine (null once removed). */
  const storedPage = (token: number, page = 1) =>
    db()
      .collection('bulk_export_pages')
      .findOne({ _id: exportPageKey(suite.tenant.clientId, token, page) } as object);

  return {
    v4,
    base,
    fresh,
    initiate,
    status,
    rows,
    stream,
    commit,
    exported,
    complete,
    applied,
    created,
    newProfiles,
    db,
    storedPage,
  };
}
