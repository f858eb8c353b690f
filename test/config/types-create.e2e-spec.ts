import { editedBy } from '../harness/configuration';
import { entry, useTypesSuite } from './type-helpers';

/**
 * Type-configuration entries (docs/api.md), as AddressTypes: POST and GET, their refusals,
 * and the localised fields by locale. Real engine and Redis, no worker.
 */
describe('Type-configuration entries: create, read and localisation', () => {
  const { freshTenant, post, get, create, list } = useTypesSuite();

  describe('AddressTypes', () => {
    it('POST creates the entries with ids, defaults and Edited, and answers 201 with the wrapper', async () => {
      const { clientId, auth: a, tenant: t } = await freshTenant();
      const response = await post(clientId, a, 'AddressTypes', {
        AddressTypes: [
          entry('Home'),
          {
            TypeName: 'Business',
            LocalizedFields: [{ Locale: 'en', Name: 'Business' }],
            IsActive: false,
          },
        ],
      });
      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(response.body)).toEqual(['AddressTypes']);
      const stamp = editedBy(t.userId);
      expect(response.body.AddressTypes).toEqual([
        {
          TypeId: 1,
          TypeName: 'Home',
          LocalizedFields: [{ Locale: 'en-us', Name: 'Home', Description: 'Home (en-us)' }],
          IsDefault: false,
          IsActive: true,
          Edited: stamp,
        },
        {
          TypeId: 2,
          TypeName: 'Business',
          LocalizedFields: [{ Locale: 'en', Name: 'Business' }],
          IsDefault: false,
          IsActive: false,
          Edited: stamp,
        },
      ]);
      const [created] = await create(clientId, a, 'AddressTypes', [entry('Shipping')]);
      expect(created.TypeId).toBe(3);
    });

    it('GET lists every entry in TypeId order, inactive ones included; Id selects one', async () => {
      const { clientId, auth: a } = await freshTenant();
      expect(await list(clientId, a, 'AddressTypes')).toEqual([]);
      const created = await create(clientId, a, 'AddressTypes', [
        entry('Home'),
        entry('Business', { IsActive: false }),
        entry('Shipping'),
      ]);
      const all = await get(clientId, a, 'AddressTypes');
      expect(all.status).toBe(200);
      expect(all.body).toEqual({ AddressTypes: created });

      expect((await get(clientId, a, 'AddressTypes', '?Id=0')).body).toEqual({
        AddressTypes: created,
      });
      const one = await get(clientId, a, 'AddressTypes', '?Id=2');
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ AddressTypes: [created[1]] });
      // Query parameter names match case-insensitively, as in the original service.
      expect((await get(clientId, a, 'AddressTypes', '?id=3')).body).toEqual({
        AddressTypes: [created[2]],
      });
    });

    it('GET with an unknown Id answers 404, a malformed Id or locale 400', async () => {
      const { clientId, auth: a } = await freshTenant();
      await create(clientId, a, 'AddressTypes', [entry('Home')]);
      const unknown = await get(clientId, a, 'AddressTypes', '?Id=99');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ Message: 'Address type 99 was not found' });
      for (const bad of ['abc', '-1', '1.5', '2147483648', '']) {
        const response = await get(clientId, a, 'AddressTypes', `?Id=${bad}`);
        expect({ bad, status: response.status }).toEqual({ bad, status: 400 });
        expect(response.body.Message).toBe(
          `Invalid Id (value "${bad}"): must be an integer from 0 to 2147483647`,
        );
      }
      const locale = await get(clientId, a, 'AddressTypes', '?locale=not_a_locale');
      expect(locale.status).toBe(400);
      expect(locale.body.Message).toMatch(/^Invalid locale \(value "not_a_locale"\)/);
    });

    it('ignores read-only fields (TypeId, Edited) sent on create, so a GET body can be sent back', async () => {
      const { clientId, auth: a, tenant: t } = await freshTenant();
      const [created] = await create(clientId, a, 'AddressTypes', [
        entry('Home', {
          TypeId: 999,
          Edited: { CreateDate: '1990-01-01T00:00:00Z', CreatedBy: 'mallory' },
        }),
      ]);
      expect(created.TypeId).toBe(1);
      expect(created.Edited.CreatedBy).toBe(t.userId);
      expect(created.Edited.CreateDate).not.toBe('1990-01-01T00:00:00Z');
    });

    it('refuses a read-only field sent in another shape than the document gives it', async () => {
      const { clientId, auth: a } = await freshTenant();
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ Edited: [1, 'x'] }, /AddressTypes\[0\]\.Edited \(value \[1,"x"\]\)/],
        [{ Edited: null }, /AddressTypes\[0\]\.Edited \(value null\)/],
        [{ Edited: { CreatedBy: 5 } }, /AddressTypes\[0\]\.Edited\.CreatedBy \(value 5\)/],
        [{ TypeId: 'one' }, /AddressTypes\[0\]\.TypeId \(value "one"\)/],
        [{ TypeId: 0 }, /AddressTypes\[0\]\.TypeId \(value 0\)/],
      ];
      for (const [extra, message] of cases) {
        const res = await post(clientId, a, 'AddressTypes', {
          AddressTypes: [entry('Home', extra)],
        });
        expect(res.status).toBe(400);
        expect(res.body.Message).toMatch(message);
      }
      expect(await list(clientId, a, 'AddressTypes')).toEqual([]);
    });

    it('POST refuses malformed bodies with 400 naming the field, and creates nothing', async () => {
      const { clientId, auth: a } = await freshTenant();
      const cases: [unknown, string | RegExp][] = [
        [{}, 'Invalid AddressTypes (value missing): AddressTypes must be an array'],
        [{ AddressTypes: [] }, /^Invalid AddressTypes \(value \[\]\): .*at least 1/],
        [[entry('Home')], 'The body must be a JSON object'],
        [{ AddressTypes: [entry('Home')], Colour: 'red' }, 'Unknown field Colour'],
        [
          { AddressTypes: [{ LocalizedFields: [{ Locale: 'en', Name: 'x' }] }] },
          /AddressTypes\[0\]\.TypeName \(value missing\)/,
        ],
        [
          { AddressTypes: [entry('x'.repeat(101))] },
          /AddressTypes\[0\]\.TypeName .*100 characters/,
        ],
        [
          { AddressTypes: [entry('   ')] },
          /AddressTypes\[0\]\.TypeName \(value " {3}"\): must not be blank/,
        ],
        [
          { AddressTypes: [{ TypeName: 'Home' }] },
          /AddressTypes\[0\]\.LocalizedFields \(value missing\)/,
        ],
        [
          { AddressTypes: [{ TypeName: 'Home', LocalizedFields: [] }] },
          /AddressTypes\[0\]\.LocalizedFields \(value \[\]\): .*at least 1/,
        ],
        [
          {
            AddressTypes: [
              { TypeName: 'Home', LocalizedFields: [{ Locale: 'english!', Name: 'Home' }] },
            ],
          },
          /AddressTypes\[0\]\.LocalizedFields\[0\]\.Locale \(value "english!"\): must be a locale code/,
        ],
        [
          { AddressTypes: [{ TypeName: 'Home', LocalizedFields: [{ Locale: 'en' }] }] },
          /AddressTypes\[0\]\.LocalizedFields\[0\]\.Name \(value missing\)/,
        ],
        [
          {
            AddressTypes: [
              { TypeName: 'Home', LocalizedFields: [{ Locale: 'en', Name: 'Home', Colour: 1 }] },
            ],
          },
          'Unknown field AddressTypes[0].LocalizedFields[0].Colour',
        ],
        [
          { AddressTypes: [entry('Home', { IsDefault: 'yes' })] },
          /AddressTypes\[0\]\.IsDefault \(value "yes"\): .*boolean/,
        ],
        [
          {
            AddressTypes: [
              {
                TypeName: 'Home',
                LocalizedFields: [
                  { Locale: 'fr', Name: 'a' },
                  { Locale: 'FR', Name: 'b' },
                ],
              },
            ],
          },
          'Invalid AddressTypes[0].LocalizedFields[1].Locale (value "FR"): the locale is already in AddressTypes[0].LocalizedFields[0]',
        ],
        [
          {
            AddressTypes: [entry('Home', { IsDefault: true }), entry('Work', { IsDefault: true })],
          },
          'Invalid AddressTypes[1].IsDefault (value true): only one entry can be the default and AddressTypes[0] already is',
        ],
        [
          { AddressTypes: [entry('Home', { IsDefault: true, IsActive: false })] },
          'Invalid AddressTypes[0].IsDefault (value true): an inactive entry (IsActive false) cannot be the default',
        ],
      ];
      for (const [body, message] of cases) {
        const response = await post(clientId, a, 'AddressTypes', body);
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        expect({ body, message: response.body.Message }).toEqual({
          body,
          message: typeof message === 'string' ? message : expect.stringMatching(message),
        });
      }
      expect(await list(clientId, a, 'AddressTypes')).toEqual([]);
    });

    it('POST answers 409 for an existing name (case-insensitive) or a name repeated in the body, and creates nothing', async () => {
      const { clientId, auth: a } = await freshTenant();
      await create(clientId, a, 'AddressTypes', [entry('Home')]);

      const existing = await post(clientId, a, 'AddressTypes', {
        AddressTypes: [entry('Work'), entry(' HOME ')],
      });
      expect(existing.status).toBe(409);
      expect(existing.body).toEqual({ Message: 'Address type "Home" already exists (TypeId 1)' });

      const repeated = await post(clientId, a, 'AddressTypes', {
        AddressTypes: [entry('Work'), entry('Other'), entry('work')],
      });
      expect(repeated.status).toBe(409);
      expect(repeated.body).toEqual({
        Message: 'AddressTypes[2].TypeName "work" repeats AddressTypes[0].TypeName',
      });

      const all = await list(clientId, a, 'AddressTypes');
      expect(all.map((one) => one.TypeName)).toEqual(['Home']);
      // The refused bodies claimed nothing: Work can be created now.
      await create(clientId, a, 'AddressTypes', [entry('Work')]);
    });

    it('concurrent creates of one name: exactly one succeeds, the others answer 409', async () => {
      const { clientId, auth: a } = await freshTenant();
      const responses = await Promise.all(
        [1, 2, 3].map(() => post(clientId, a, 'AddressTypes', { AddressTypes: [entry('Home')] })),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409]);
      expect((await list(clientId, a, 'AddressTypes')).map((one) => one.TypeName)).toEqual([
        'Home',
      ]);
    });

    describe('localisation', () => {
      let clientId: string;
      let a: string;
      let created: any[];

      beforeAll(async () => {
        ({ clientId, auth: a } = await freshTenant());
        created = await create(clientId, a, 'AddressTypes', [
          {
            TypeName: 'Home',
            LocalizedFields: [
              { Locale: 'en-us', Name: 'Home' },
              { Locale: 'fr', Name: 'Domicile' },
              { Locale: 'fr-CA', Name: 'Maison', Description: 'Adresse du domicile' },
            ],
          },
          {
            TypeName: 'Business',
            LocalizedFields: [
              { Locale: 'en-us', Name: 'Business' },
              { Locale: 'fr-ca', Name: 'Affaires' },
            ],
          },
          { TypeName: 'Shipping', LocalizedFields: [{ Locale: 'de', Name: 'Versand' }] },
        ]);
      });

      const namesFor = async (query: string) => {
        const response = await get(clientId, a, 'AddressTypes', query);
        expect(response.status).toBe(200);
        return response.body.AddressTypes.map((one: any) => [one.TypeName, one.LocalizedFields]);
      };

      it('without locale, returns every localised field', async () => {
        expect(await list(clientId, a, 'AddressTypes')).toEqual(created);
        expect(created[0].LocalizedFields).toHaveLength(3);
      });

      it('takes the exact locale, case-insensitively; entries without it keep an empty list', async () => {
        expect(await namesFor('?locale=FR-ca')).toEqual([
          ['Home', [{ Locale: 'fr-CA', Name: 'Maison', Description: 'Adresse du domicile' }]],
          ['Business', [{ Locale: 'fr-ca', Name: 'Affaires' }]],
          ['Shipping', []],
        ]);
      });

      it('falls back from fr-be to fr, and lets fr match fr-ca when an entry has no fr', async () => {
        expect(await namesFor('?locale=fr-be')).toEqual([
          ['Home', [{ Locale: 'fr', Name: 'Domicile' }]],
          ['Business', []],
          ['Shipping', []],
        ]);
        expect(await namesFor('?locale=fr')).toEqual([
          ['Home', [{ Locale: 'fr', Name: 'Domicile' }]],
          ['Business', [{ Locale: 'fr-ca', Name: 'Affaires' }]],
          ['Shipping', []],
        ]);
        expect(await namesFor('?locale=de-de')).toEqual([
          ['Home', []],
          ['Business', []],
          ['Shipping', [{ Locale: 'de', Name: 'Versand' }]],
        ]);
      });

      it('answers 404 when no entry has localised fields for the locale', async () => {
        const response = await get(clientId, a, 'AddressTypes', '?locale=es');
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          Message: 'No AddressTypes entry has localized fields for locale "es"',
        });
      });

      it('combines Id and locale: 404 when that entry has none for the locale', async () => {
        const one = await get(clientId, a, 'AddressTypes', `?Id=${created[1].TypeId}&Locale=fr`);
        expect(one.status).toBe(200);
        expect(one.body.AddressTypes).toEqual([
          { ...created[1], LocalizedFields: [{ Locale: 'fr-ca', Name: 'Affaires' }] },
        ]);
        const none = await get(clientId, a, 'AddressTypes', `?Id=${created[2].TypeId}&locale=fr`);
        expect(none.status).toBe(404);
        expect(none.body).toEqual({
          Message: `No AddressTypes entry with TypeId ${created[2].TypeId} has localized fields for locale "fr"`,
        });
      });
    });
  });
});
