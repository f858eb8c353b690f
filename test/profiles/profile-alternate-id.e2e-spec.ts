import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';

import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';
import { alternateIdClaimKey } from '../../libs/profiles/src/keys';

/**
 * GET, POST (upsert), PUT and PATCH of /{clientId}/Profile/AlternateId?alternateIdType=&alternateId=,
 * matching type and value case-insensitively.
 */
describe('Profile by alternate id', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let n = 0;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;
  const byAlt = (type: string, value: string, extra = '') =>
    `${base()}/AlternateId?alternateIdType=${encodeURIComponent(type)}&alternateId=${encodeURIComponent(value)}${extra}`;
  const fresh = () => `Alt-${Date.now().toString(36)}-${n++}`;

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
  });
  afterAll(() => app.close());

  const complete = (id: number) =>
    eventually(async () => {
      const res = await request(app.http).get(`${base()}/${id}`).set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? (res.body as Record<string, any>) : undefined;
    });

  async function create(alternateId: string, body: object = {}): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { FirstName: 'Ann' },
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: alternateId }],
        ...body,
      })
      .expect(202);
    await complete(res.body.ProfileId);
    return res.body.ProfileId as number;
  }

  describe('GET', () => {
    it('returns the profile holding the pair, matching type and value case-insensitively', async () => {
      const value = fresh();
      const id = await create(value);
      const byId = await complete(id);
      const res = await request(app.http)
        .get(byAlt('crm', value.toUpperCase()))
        .set('Authorization', auth)
        .expect(200);
      expect(res.body).toEqual(byId);
    });

    it('answers 404 when no profile holds the pair, and 400 naming a missing parameter', async () => {
      await request(app.http).get(byAlt('CRM', fresh())).set('Authorization', auth).expect(404);
      const res = await request(app.http)
        .get(`${base()}/AlternateId?alternateIdType=CRM`)
        .set('Authorization', auth)
        .expect(400);
      expect(res.body.Message).toMatch(/alternateId is required/);
      const both = await request(app.http)
        .get(`${base()}/AlternateId`)
        .set('Authorization', auth)
        .expect(400);
      expect(both.body.Message).toMatch(/alternateIdType/);
      await request(app.http)
        .get(byAlt('CRM', 'x', '&matchInactive=maybe'))
        .set('Authorization', auth)
        .expect(400);
    });

    it('finds a pair stored inactive only with matchInactive=true', async () => {
      const value = fresh();
      const id = await create(fresh(), {
        AlternateIds: [{ AlternateIdType: 'Loyalty', AlternateId: value, IsActive: false }],
      });
      await request(app.http).get(byAlt('Loyalty', value)).set('Authorization', auth).expect(404);
      const res = await request(app.http)
        .get(byAlt('LOYALTY', value.toLowerCase(), '&matchInactive=true'))
        .set('Authorization', auth)
        .expect(200);
      expect(res.body.ProfileId).toBe(id);
      await request(app.http)
        .get(byAlt('Loyalty', value, '&matchInactive=false'))
        .set('Authorization', auth)
        .expect(404);
    });

    it('does not find another tenant’s profile', async () => {
      const value = fresh();
      await create(value);
      const other = await createTestTenant(app);
      await configureTestTenant(app, other);
      await request(app.http)
        .get(
          `/Profiles/v4/${other.clientId}/Profile/AlternateId?alternateIdType=CRM&alternateId=${value}`,
        )
        .set('Authorization', await other.bearer())
        .expect(404);
      await request(app.http)
        .get(
          `/Profiles/v4/${other.clientId}/Profile/AlternateId?alternateIdType=CRM&alternateId=${value}`,
        )
        .set('Authorization', auth)
        .expect(404);
    });
  });

  describe('POST (upsert)', () => {
    it('merges into the profile holding the pair', async () => {
      const value = fresh();
      const id = await create(value, { CustomerName: { FirstName: 'Ann', LastName: 'Lee' } });
      const res = await request(app.http)
        .post(byAlt('Crm', value.toLowerCase()))
        .set('Authorization', auth)
        .send({ CustomerName: { FirstName: 'Anna' } })
        .expect(202);
      expect(res.body).toMatchObject({ ProfileId: id, UpdateStatus: 'Pending Update' });
      const profile = await complete(id);
      expect(profile.CustomerName).toEqual({ FirstName: 'Anna', LastName: 'Lee' });
    });

    it('creates a profile with the pair when nobody holds it; CustomerType is then required', async () => {
      const value = fresh();
      const missing = await request(app.http)
        .post(byAlt('CRM', value))
        .set('Authorization', auth)
        .send({ CustomerName: { FirstName: 'Bo' } })
        .expect(400);
      expect(missing.body.Message).toMatch(/CustomerType is required/);
      const res = await request(app.http)
        .post(byAlt('CRM', value))
        .set('Authorization', auth)
        .send({ CustomerType: 'Prospect', CustomerName: { FirstName: 'Bo' } })
        .expect(202);
      expect(res.body).toMatchObject({ AlternateId: value, AlternateIdType: 'CRM' });
      const profile = await complete(res.body.ProfileId);
      expect(profile.AlternateIds).toEqual([
        expect.objectContaining({ AlternateIdType: 'CRM', AlternateId: value }),
      ]);
      const found = await request(app.http)
        .get(byAlt('CRM', value))
        .set('Authorization', auth)
        .expect(200);
      expect(found.body.ProfileId).toBe(res.body.ProfileId);
    });

    it('creates exactly one profile for simultaneous upserts of a new pair, holding every change', async () => {
      const value = fresh();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          request(app.http)
            .post(byAlt('CRM', i % 2 ? value.toLowerCase() : value))
            .set('Authorization', auth)
            .send({ CustomerType: 'Customer', ProfileTags: [{ Name: `u${i}` }] }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(202));
      const ids = new Set(results.map((r) => r.body.ProfileId));
      expect(ids.size).toBe(1);
      const [id] = [...ids] as number[];
      const profile = await complete(id);
      expect(profile.ProfileTags.map((t: { Name: string }) => t.Name).sort()).toEqual(
        Array.from({ length: 8 }, (_, i) => `u${i}`),
      );
      expect(profile.AlternateIds).toHaveLength(1);
      const updates = await request(app.http)
        .get(`${base()}/${id}/Updates`)
        .set('Authorization', auth)
        .expect(200);
      expect(updates.body.Updates.map((u: { Operation: string }) => u.Operation).sort()).toEqual([
        'create',
        ...Array(7).fill('merge'),
      ]);
      expect(updates.body.Updates.every((u: { Status: string }) => u.Status === 'Complete')).toBe(
        true,
      );
    });

    it('answers all of 100 simultaneous upserts of a new pair, and applies every one to one profile', async () => {
      const value = fresh();
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          request(app.http)
            .post(byAlt('CRM', value))
            .set('Authorization', auth)
            .send({ CustomerType: 'Customer', ProfileTags: [{ Name: `p${i}` }] }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(100).fill(202));
      const ids = new Set(results.map((r) => r.body.ProfileId));
      expect(ids.size).toBe(1);
      const profile = await complete([...ids][0] as number);
      expect(profile.ProfileTags).toHaveLength(100);
      expect(profile.AlternateIds).toHaveLength(1);
    });

    it('answers 409 when the body adds a pair another profile holds', async () => {
      const taken = fresh();
      await create(taken);
      const value = fresh();
      await create(value);
      await request(app.http)
        .post(byAlt('CRM', value))
        .set('Authorization', auth)
        .send({ AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: taken }] })
        .expect(409);
    });
  });

  describe('PUT', () => {
    it('overwrites the profile holding the pair, and 404 when none does', async () => {
      const value = fresh();
      const id = await create(value, { DefaultLocale: 'en-us' });
      const res = await request(app.http)
        .put(byAlt('CRM', value.toUpperCase()))
        .set('Authorization', auth)
        .send({
          CustomerType: 'X',
          AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: value }],
        })
        .expect(202);
      expect(res.body).toMatchObject({ ProfileId: id, AlternateId: value.toUpperCase() });
      const profile = await complete(id);
      expect(profile.CustomerType).toBe('X');
      expect(profile.DefaultLocale).toBeUndefined();
      expect(profile.CustomerName).toBeUndefined();
      await request(app.http)
        .put(byAlt('CRM', fresh()))
        .set('Authorization', auth)
        .send({ CustomerType: 'X' })
        .expect(404);
    });
  });

  describe('PATCH', () => {
    it('patches the profile holding the pair (body {Operations}) and answers 200 with it', async () => {
      const value = fresh();
      const id = await create(value);
      const res = await request(app.http)
        .patch(byAlt('cRm', value.toLowerCase()))
        .set('Authorization', auth)
        .send({
          Operations: [
            { op: 'remove', path: '/CustomerName/FirstName' },
            { op: 'replace', path: '/CustomerType', value: 'C' },
          ],
        })
        .expect(200);
      expect(res.body).toMatchObject({ ProfileId: id, CustomerType: 'C' });
      expect(res.body.CustomerName?.FirstName).toBeUndefined();
    });

    it('answers 404 for an unknown pair and 400 for a malformed body, queueing nothing', async () => {
      await request(app.http)
        .patch(byAlt('CRM', fresh()))
        .set('Authorization', auth)
        .send({ Operations: [{ op: 'replace', path: '/CustomerType', value: 'C' }] })
        .expect(404);
      const value = fresh();
      const id = await create(value);
      for (const body of [
        [{ op: 'replace', path: '/CustomerType', value: 'C' }],
        { Operations: [{ op: 'copy', from: '/CustomerType', path: '/ReasonCode' }] },
        { Operations: [] },
        { Ops: [] },
      ]) {
        await request(app.http)
          .patch(byAlt('CRM', value))
          .set('Authorization', auth)
          .send(body)
          .expect(400);
      }
      const updates = await request(app.http)
        .get(`${base()}/${id}/Updates`)
        .set('Authorization', auth)
        .expect(200);
      expect(updates.body.Updates).toHaveLength(1);
    });

    it('answers 409 for a patch adding a pair another profile holds', async () => {
      const taken = fresh();
      await create(taken);
      const value = fresh();
      await create(value);
      const res = await request(app.http)
        .patch(byAlt('CRM', value))
        .set('Authorization', auth)
        .send({
          Operations: [
            {
              op: 'add',
              path: '/AlternateIds/-',
              value: { AlternateIdType: 'CRM', AlternateId: taken },
            },
          ],
        })
        .expect(409);
      expect(res.body.Message).toMatch(/belongs to another profile/);
    });
  });

  describe('a stale claim', () => {
    it('is taken over by exactly one of many concurrent creates; the others answer 409', async () => {
      // A profile without the pair holds its claim (a crash between a save and a release
      // leaves such a claim): it is stale, so the next writer of the pair may take it over.
      const former = await create(fresh());
      const value = fresh();
      const db = app.api.get<Connection>(getConnectionToken());
      await db.collection('alternate_id_claims').insertOne({
        _id: alternateIdClaimKey(tenant.clientId, 'CRM', value),
        clientId: tenant.clientId,
        profileId: former,
        token: 'left-behind',
      } as object);
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          request(app.http)
            .post(base())
            .set('Authorization', auth)
            .send({
              CustomerType: 'Customer',
              AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: value }],
            }),
        ),
      );
      const statuses = responses.map((res) => res.status).sort();
      expect(statuses).toEqual([202, 409, 409, 409, 409, 409, 409, 409]);
      const winner = responses.find((res) => res.status === 202)!.body.ProfileId as number;
      await complete(winner);
      const found = await request(app.http).get(byAlt('crm', value)).set('Authorization', auth);
      expect(found.status).toBe(200);
      expect(found.body.ProfileId).toBe(winner);
    });
  });
});
