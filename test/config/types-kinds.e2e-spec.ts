import request from 'supertest';
import { TypeCatalog } from '@app/config/types';
import { configReaderBearer } from '../harness/session';
import { entry, KINDS, useTypesSuite } from './type-helpers';

/**
 * Type-configuration entries (docs/api.md) of every kind (AddressTypes, AlternateIdTypes,
 * CustomerTypes, GroupTypes, EmailTypes, PhoneTypes): each kind's routes, tenant isolation,
 * authorization, TypeCatalog and the API documentation. Real engine and Redis, no worker.
 */
describe('Type-configuration entries: every kind, isolation, authorization, TypeCatalog', () => {
  const { suite, freshTenant, post, get, patch, create, list } = useTypesSuite();

  describe.each(KINDS)('%s (and the alias %s)', (kind, singular) => {
    let clientId: string;
    let a: string;

    beforeAll(async () => {
      ({ clientId, auth: a } = await freshTenant());
    });

    it('creates, retrieves, patches (both routes) and refuses duplicates', async () => {
      const created = await post(clientId, a, kind, {
        [kind]: [
          entry('Primary', { IsDefault: true }),
          {
            TypeName: 'Secondary',
            LocalizedFields: [
              { Locale: 'en', Name: 'Secondary' },
              { Locale: 'fr-ca', Name: 'Secondaire' },
            ],
          },
        ],
      });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body)).toEqual([kind]);
      const [primary, secondary] = created.body[kind];
      expect(primary).toMatchObject({
        TypeId: 1,
        TypeName: 'Primary',
        IsDefault: true,
        IsActive: true,
      });
      expect(secondary).toMatchObject({ TypeId: 2, IsDefault: false });

      expect((await get(clientId, a, kind)).body).toEqual({ [kind]: [primary, secondary] });
      expect((await get(clientId, a, kind, '?Id=2')).body).toEqual({ [kind]: [secondary] });
      expect((await get(clientId, a, kind, '?Id=3')).status).toBe(404);
      const french = await get(clientId, a, kind, '?locale=fr');
      expect(french.status).toBe(200);
      expect(french.body[kind].map((one: any) => one.LocalizedFields)).toEqual([
        [],
        [{ Locale: 'fr-ca', Name: 'Secondaire' }],
      ]);
      expect((await get(clientId, a, kind, '?locale=ja')).status).toBe(404);

      const duplicate = await post(clientId, a, kind, { [kind]: [entry('PRIMARY')] });
      expect(duplicate.status).toBe(409);

      const patched = await patch(clientId, a, kind, 2, [
        { op: 'replace', path: '/IsDefault', value: true },
        { op: 'replace', path: '/LocalizedFields/1/Name', value: 'Deuxième' },
      ]);
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual({
        [kind]: [
          {
            ...secondary,
            IsDefault: true,
            LocalizedFields: [
              { Locale: 'en', Name: 'Secondary' },
              { Locale: 'fr-ca', Name: 'Deuxième' },
            ],
            Edited: { ...secondary.Edited, ModifiedDate: expect.any(String) },
          },
        ],
      });
      expect((await get(clientId, a, kind, '?Id=1')).body[kind][0].IsDefault).toBe(false);

      const aliased = await patch(clientId, a, singular, 1, [
        { op: 'replace', path: '/IsActive', value: false },
      ]);
      expect(aliased.status).toBe(200);
      expect(aliased.body).toEqual({
        [kind]: [expect.objectContaining({ TypeId: 1, IsActive: false })],
      });

      const renamed = await patch(clientId, a, kind, 1, [
        { op: 'replace', path: '/TypeName', value: 'secondary' },
      ]);
      expect(renamed.status).toBe(400);
      expect(renamed.body.Message).toContain('cannot be changed');
      expect(
        (await patch(clientId, a, kind, 9, [{ op: 'remove', path: '/IsActive' }])).status,
      ).toBe(404);
    });
  });

  describe('tenant isolation', () => {
    it('another client sees none of the entries, cannot patch them, and may use the same names', async () => {
      const owner = await freshTenant();
      const other = await freshTenant();
      for (const [kind] of KINDS) {
        await create(owner.clientId, owner.auth, kind, [entry('Shared', { IsDefault: true })]);
        expect(await list(other.clientId, other.auth, kind)).toEqual([]);
        expect((await get(other.clientId, other.auth, kind, '?Id=1')).status).toBe(404);
        const foreign = await patch(other.clientId, other.auth, kind, 1, [
          { op: 'replace', path: '/TypeName', value: 'Stolen' },
        ]);
        expect({ kind, status: foreign.status }).toEqual({ kind, status: 404 });
        // Names are per client: the other client may create the same one (its own id 1).
        const [own] = await create(other.clientId, other.auth, kind, [entry('shared')]);
        expect(own).toMatchObject({ TypeId: 1, TypeName: 'shared', IsDefault: false });
        expect((await list(owner.clientId, owner.auth, kind))[0]).toMatchObject({
          TypeName: 'Shared',
          IsDefault: true,
        });
      }
    });

    it('a token of one client used on another client’s path answers 404', async () => {
      const owner = await freshTenant();
      const response = await get(owner.clientId, suite.auth, 'AddressTypes');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ Message: `Client ${owner.clientId} was not found` });
    });
  });

  describe('authorization', () => {
    it('needs configuration read to GET and configuration write to POST and PATCH', async () => {
      const reader = await configReaderBearer(suite.app, suite.tenant);
      await create(suite.tenant.clientId, suite.auth, 'GroupTypes', [entry('Household')]);

      expect((await get(suite.tenant.clientId, reader, 'GroupTypes')).status).toBe(200);
      const created = await post(suite.tenant.clientId, reader, 'GroupTypes', {
        GroupTypes: [entry('Team')],
      });
      expect(created.status).toBe(403);
      expect(created.body.Message).toEqual(expect.any(String));
      const patched = await patch(suite.tenant.clientId, reader, 'GroupTypes', 1, [
        { op: 'replace', path: '/IsActive', value: false },
      ]);
      expect(patched.status).toBe(403);
      expect(
        (await request(suite.app.http).get(`/Profiles/v4/${suite.tenant.clientId}/GroupTypes`))
          .status,
      ).toBe(401);
    });

    it('answers the same under the legacy /Profiles/v2 prefix', async () => {
      const response = await request(suite.app.http)
        .get(`/Profiles/v2/${suite.tenant.clientId}/GroupTypes`)
        .set('Authorization', suite.auth);
      expect(response.status).toBe(200);
      expect(response.body.GroupTypes).toEqual(expect.any(Array));
    });
  });

  describe('TypeCatalog (read service for other modules)', () => {
    it('finds entries by name case-insensitively, lists them, and stays within the client', async () => {
      const { clientId, auth: a } = await freshTenant();
      const other = await freshTenant();
      await create(clientId, a, 'CustomerTypes', [
        entry('Customer', { IsDefault: true }),
        entry('Prospect', { IsActive: false }),
      ]);
      const catalog = suite.app.api.get(TypeCatalog);
      expect(await catalog.findByName(clientId, 'CustomerTypes', '  customer ')).toEqual({
        TypeId: 1,
        TypeName: 'Customer',
        LocalizedFields: [{ Locale: 'en-us', Name: 'Customer', Description: 'Customer (en-us)' }],
        IsDefault: true,
        IsActive: true,
      });
      expect(await catalog.findByName(clientId, 'CustomerTypes', 'PROSPECT')).toMatchObject({
        TypeId: 2,
        IsActive: false,
        IsDefault: false,
      });
      expect(await catalog.findByName(clientId, 'CustomerTypes', 'Lead')).toBeNull();
      expect(await catalog.findByName(clientId, 'GroupTypes', 'Customer')).toBeNull();
      expect(await catalog.findByName(other.clientId, 'CustomerTypes', 'Customer')).toBeNull();
      expect((await catalog.list(clientId, 'CustomerTypes')).map((one) => one.TypeName)).toEqual([
        'Customer',
        'Prospect',
      ]);
      expect(await catalog.list(other.clientId, 'CustomerTypes')).toEqual([]);
      expect((await catalog.findDefault(clientId, 'CustomerTypes'))?.TypeName).toBe('Customer');
      expect(await catalog.findDefault(other.clientId, 'CustomerTypes')).toBeNull();

      // A change of case is seen at once.
      await patch(clientId, a, 'CustomerTypes', 1, [
        { op: 'replace', path: '/TypeName', value: 'CUSTOMER' },
      ]);
      expect((await catalog.findByName(clientId, 'CustomerTypes', 'customer'))?.TypeName).toBe(
        'CUSTOMER',
      );
    });
  });

  describe('API documentation', () => {
    it('documents every route of every kind, the singular PATCH aliases and the wrapper schemas', async () => {
      const response = await request(suite.app.http).get('/Profiles/v4/docs-json');
      expect(response.status).toBe(200);
      const { paths, components } = response.body;
      for (const [kind, singular] of KINDS) {
        expect(Object.keys(paths[`/Profiles/v4/{clientId}/${kind}`]).sort()).toEqual([
          'get',
          'post',
        ]);
        expect(paths[`/Profiles/v4/{clientId}/${kind}/{typeId}`]).toHaveProperty('patch');
        expect(paths[`/Profiles/v4/{clientId}/${singular}/{typeId}`]).toHaveProperty('patch');
        expect(Object.keys(components.schemas[`${kind}ListDto`].properties)).toEqual([kind]);
      }
      expect(Object.keys(components.schemas.TypeEntryDto.properties)).toEqual([
        'TypeId',
        'TypeName',
        'LocalizedFields',
        'IsDefault',
        'IsActive',
        'Edited',
      ]);
      expect(paths['/Profiles/v4/{clientId}/PhoneTypes'].get.description).toMatch(/SMS/);
    });
  });
});
