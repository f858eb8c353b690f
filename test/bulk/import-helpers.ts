import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { leaseKey, RedisService } from '@app/shared';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { type TenantApp, useTenantApp } from '../harness/session';
import { eventually } from '../harness/test-app';
import { runLeaseName } from '../../libs/bulk/src/keys';

export const HOUR = 60 * 60 * 1000;

/**
 * Registers the set-up of a suite of bulk import Execute (docs/bulk.md): an app with one
 * worker (a short run lease, for the tests that kill it; a daily limit no suite reaches)
 * and a configured tenant. The fields are set once the suite's beforeAll has run.
 */
export function useImportSuite(): ImportSuite {
  const suite = useTenantApp({
    workers: 1,
    env: { BULK_RUN_LEASE_MS: '2000', BULK_IMPORT_DAILY_LIMIT: '1000' },
  }) as ImportSuite;
  beforeAll(async () => {
    ({ programs: suite.programs } = await configureTestTenant(suite.app, suite.tenant));
  });
  return Object.assign(suite, importRequests(suite));
}

/** An Execute suite's app and tenant, and the import requests its tests make. */
export interface ImportSuite extends TenantApp, ImportRequests {
  programs: TestPrograms;
}

type ImportRequests = ReturnType<typeof importRequests>;

/** The requests of the suite's tests, as the tenant's administrator. */
function importRequests(suite: TenantApp) {
  let n = 0;
  const v4 = () => `/Profiles/v4/${suite.tenant.clientId}`;
  const base = () => `${v4()}/Bulk/Import`;
  const status = (token: number) =>
    request(suite.app.http).get(`${base()}/${token}`).set('Authorization', suite.auth);
  const byAlternateId = (value: string) =>
    request(suite.app.http)
      .get(`${v4()}/Profile/AlternateId?alternateIdType=CRM&alternateId=${value}`)
      .set('Authorization', suite.auth);
  return {
    v4,
    base,
    /** A CRM id no other record of the suite names. */
    fresh: () => `X-${Date.now().toString(36)}-${n++}`,
    record: (alternateId: string, extra: object = {}) => ({
      CustomerType: 'Customer',
      CustomerName: { FirstName: 'Ann' },
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: alternateId }],
      ...extra,
    }),
    async newImport(body: object = {}): Promise<number> {
      const res = await request(suite.app.http)
        .post(base())
        .set('Authorization', suite.auth)
        .send({ Name: 'Execute', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM', ...body });
      expect(res.status).toBe(201);
      return res.body.AccessToken as number;
    },
    stage: (token: number, records: unknown[]) =>
      request(suite.app.http)
        .post(`${base()}/${token}/Stage`)
        .set('Authorization', suite.auth)
        .send(records),
    execute: (token: number) =>
      request(suite.app.http).post(`${base()}/${token}/Execute`).set('Authorization', suite.auth),
    status,
    exceptions: (token: number) =>
      request(suite.app.http).get(`${base()}/${token}/Exceptions`).set('Authorization', suite.auth),
    byAlternateId,
    /** The import once it is Completed (or Failed). */
    ended: (token: number) =>
      eventually(async () => {
        const res = await status(token);
        return ['Completed', 'Failed'].includes(res.body.Status) ? res.body : undefined;
      }),
    /** The profile holding the CRM id, once every write of it is applied. */
    applied: (value: string) =>
      eventually(async () => {
        const res = await byAlternateId(value);
        return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
      }),
    /** Drops the import's run lease, as when it lapses after its worker was killed. */
    dropRunLease: (token: number) =>
      suite.app.api
        .get(RedisService)
        .client.del(
          leaseKey(suite.app.settings.queuePrefix, runLeaseName(suite.tenant.clientId, token)),
        ),
    stored: (profileId: number) =>
      suite.app.api
        .get<Connection>(getConnectionToken())
        .collection('profiles')
        .findOne({ _id: `${suite.tenant.clientId}|${profileId}` } as object),
  };
}
