import request from 'supertest';
import { TypeCatalog } from '@app/config/types';
import { editedBy } from '../harness/configuration';
import {
  configReaderBearer,
  createTestTenant,
  tenantApi,
  type TestTenant,
  useTenantApp,
} from '../harness/session';

/** The six kinds with their older singular PATCH alias. */
const KINDS = [
  ['AddressTypes', 'AddressType'],
  ['AlternateIdTypes', 'AlternateIdType'],
  ['CustomerTypes', 'CustomerType'],
  ['GroupTypes', 'GroupType'],
  ['EmailTypes', 'EmailType'],
  ['PhoneTypes', 'PhoneType'],
] as const;

type Op = { op: string; path: string; value?: unknown; from?: string };

const entry = (TypeName: string, extra: Record<string, unknown> = {}) => ({
  TypeName,
  LocalizedFields: [{ Locale: 'en-us', Name: TypeName, Description: `${TypeName} (en-us)` }],
  ...extra,
});

describe('Type-configuration entries (AddressTypes, AlternateIdTypes, CustomerTypes, GroupTypes, EmailTypes, PhoneTypes)', () => {
  const suite = useTenantApp({ workers: 0 });

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

    describe('PATCH', () => {
      let clientId: string;
      let a: string;
      let userId: string;

      beforeAll(async () => {
        const fresh = await freshTenant();
        ({ clientId, auth: a } = fresh);
        userId = fresh.tenant.userId;
      });

      async function createOne(name: string, extra: Record<string, unknown> = {}): Promise<any> {
        const [created] = await create(clientId, a, 'AddressTypes', [entry(name, extra)]);
        return created;
      }

      const current = async (typeId: number) =>
        (await get(clientId, a, 'AddressTypes', `?Id=${typeId}`)).body.AddressTypes[0];

      it('applies add, replace and remove to the entry and answers 200 with the wrapper', async () => {
        const home = await createOne('Home');
        const response = await patch(clientId, a, 'AddressTypes', home.TypeId, [
          { op: 'replace', path: '/TypeName', value: 'HOME' },
          { op: 'add', path: '/LocalizedFields/-', value: { Locale: 'fr', Name: 'Maison' } },
          { op: 'replace', path: '/LocalizedFields/0/Name', value: 'House' },
          { op: 'remove', path: '/LocalizedFields/0/Description' },
          { op: 'test', path: '/IsActive', value: true },
        ]);
        expect(response.status).toBe(200);
        const updated = {
          TypeId: home.TypeId,
          TypeName: 'HOME',
          LocalizedFields: [
            { Locale: 'en-us', Name: 'House' },
            { Locale: 'fr', Name: 'Maison' },
          ],
          IsDefault: false,
          IsActive: true,
          Edited: {
            CreateDate: home.Edited.CreateDate,
            CreatedBy: userId,
            ModifiedDate: expect.any(String),
            ModifiedBy: userId,
          },
        };
        expect(response.body).toEqual({ AddressTypes: [updated] });
        expect(await current(home.TypeId)).toEqual(response.body.AddressTypes[0]);
      });

      it('accepts application/json too', async () => {
        const one = await createOne('JsonBody');
        const response = await request(suite.app.http)
          .patch(`/Profiles/v4/${clientId}/AddressTypes/${one.TypeId}`)
          .set('Authorization', a)
          .send([{ op: 'replace', path: '/IsActive', value: false }]);
        expect(response.status).toBe(200);
        expect(response.body.AddressTypes[0].IsActive).toBe(false);
      });

      it('removes several array elements sent in descending index order', async () => {
        const one = await createOne('Several', {
          LocalizedFields: [
            { Locale: 'en', Name: 'zero' },
            { Locale: 'fr', Name: 'one' },
            { Locale: 'de', Name: 'two' },
            { Locale: 'es', Name: 'three' },
          ],
        });
        const response = await patch(clientId, a, 'AddressTypes', one.TypeId, [
          { op: 'remove', path: '/LocalizedFields/3' },
          { op: 'remove', path: '/LocalizedFields/1' },
        ]);
        expect(response.status).toBe(200);
        expect(response.body.AddressTypes[0].LocalizedFields).toEqual([
          { Locale: 'en', Name: 'zero' },
          { Locale: 'de', Name: 'two' },
        ]);
      });

      it('a failed test answers 400 and changes nothing, even after earlier operations', async () => {
        const one = await createOne('Tested');
        const response = await patch(clientId, a, 'AddressTypes', one.TypeId, [
          { op: 'replace', path: '/TypeName', value: 'Changed' },
          { op: 'test', path: '/TypeName', value: 'Something else' },
        ]);
        expect(response.status).toBe(400);
        expect(response.body.Message).toBe(
          'Operations[1] (test /TypeName) was refused: test failed: the value at the path differs; nothing was changed',
        );
        expect(await current(one.TypeId)).toEqual(one);
      });

      it('refuses move and copy with 400', async () => {
        const one = await createOne('Moved');
        for (const op of ['move', 'copy']) {
          const response = await patch(clientId, a, 'AddressTypes', one.TypeId, [
            { op, from: '/LocalizedFields/0', path: '/LocalizedFields/1' },
          ]);
          expect({ op, status: response.status }).toEqual({ op, status: 400 });
          expect(response.body.Message).toBe(
            `Invalid Operations[0].op (value "${op}"): move and copy are not supported (use add, remove, replace or test)`,
          );
        }
        expect(await current(one.TypeId)).toEqual(one);
      });

      it('refuses the read-only TypeId and Edited with 400', async () => {
        const one = await createOne('ReadOnly');
        const cases: Op[] = [
          { op: 'replace', path: '/TypeId', value: 77 },
          { op: 'remove', path: '/TypeId' },
          { op: 'replace', path: '/Edited/CreatedBy', value: 'mallory' },
          { op: 'test', path: '/Edited', value: {} },
        ];
        for (const operation of cases) {
          const response = await patch(clientId, a, 'AddressTypes', one.TypeId, [operation]);
          expect({ operation, status: response.status }).toEqual({ operation, status: 400 });
          expect(response.body.Message).toBe(`Operations[0].path "${operation.path}" is read-only`);
        }
        expect(await current(one.TypeId)).toEqual(one);
      });

      it('refuses a result that is not a valid entry with 400 naming the field', async () => {
        const one = await createOne('Validated');
        const cases: [Op[], string | RegExp][] = [
          [[{ op: 'replace', path: '/TypeName', value: '' }], /^Invalid TypeName \(value ""\)/],
          [[{ op: 'remove', path: '/TypeName' }], /^Invalid TypeName \(value missing\)/],
          [
            [{ op: 'remove', path: '/LocalizedFields/0' }],
            /^Invalid LocalizedFields \(value \[\]\): .*at least 1/,
          ],
          [[{ op: 'add', path: '/Colour', value: 'red' }], 'Unknown field Colour'],
          [
            [{ op: 'add', path: '/LocalizedFields/0/Colour', value: 'red' }],
            'Unknown field LocalizedFields[0].Colour',
          ],
          [[{ op: 'replace', path: '/IsActive', value: 'no' }], /^Invalid IsActive \(value "no"\)/],
          [
            [{ op: 'add', path: '/LocalizedFields/-', value: { Locale: 'EN-US', Name: 'x' } }],
            'Invalid LocalizedFields[1].Locale (value "EN-US"): the locale is already in LocalizedFields[0]',
          ],
          [
            [
              { op: 'replace', path: '/IsActive', value: false },
              { op: 'replace', path: '/IsDefault', value: true },
            ],
            'Invalid IsDefault (value true): an inactive entry (IsActive false) cannot be the default',
          ],
          [
            [{ op: 'remove', path: '/LocalizedFields/5' }],
            /^Operations\[0\] \(remove \/LocalizedFields\/5\) was refused: .*; nothing was changed$/,
          ],
        ];
        for (const [operations, message] of cases) {
          const response = await patch(clientId, a, 'AddressTypes', one.TypeId, operations);
          expect({ operations, status: response.status }).toEqual({ operations, status: 400 });
          expect({ operations, message: response.body.Message }).toEqual({
            operations,
            message: typeof message === 'string' ? message : expect.stringMatching(message),
          });
        }
        expect(await current(one.TypeId)).toEqual(one);
      });

      it('refuses a body that is not a non-empty array of valid operations with 400', async () => {
        const one = await createOne('BadBody');
        const cases: [unknown, string | RegExp][] = [
          [[], 'The body must be a non-empty array of PATCH operations ({"op", "path", "value"})'],
          [{ op: 'replace', path: '/TypeName', value: 'x' }, /^The body must be a non-empty array/],
          [
            [{ op: 'rename', path: '/TypeName' }],
            /^Invalid Operations\[0\]\.op \(value "rename"\)/,
          ],
          [[{ op: 'replace', value: 'x' }], /^Invalid Operations\[0\]\.path \(value missing\)/],
          [
            [{ op: 'replace', path: '/TypeName', value: 'x', extra: 1 }],
            'Unknown field Operations[0].extra',
          ],
          [['replace'], 'Invalid Operations[0] (value "replace"): must be an object'],
        ];
        for (const [body, message] of cases) {
          const response = await patch(clientId, a, 'AddressTypes', one.TypeId, body);
          expect({ body, status: response.status }).toEqual({ body, status: 400 });
          expect({ body, message: response.body.Message }).toEqual({
            body,
            message: typeof message === 'string' ? message : expect.stringMatching(message),
          });
        }
      });

      it('an unknown typeId answers 404, a malformed one 400', async () => {
        const unknown = await patch(clientId, a, 'AddressTypes', 4242, [
          { op: 'replace', path: '/IsActive', value: false },
        ]);
        expect(unknown.status).toBe(404);
        expect(unknown.body).toEqual({ Message: 'Address type 4242 was not found' });
        for (const bad of ['abc', '0', '2147483648']) {
          const response = await patch(clientId, a, 'AddressTypes', bad, [
            { op: 'replace', path: '/IsActive', value: false },
          ]);
          expect({ bad, status: response.status }).toEqual({ bad, status: 400 });
          expect(response.body.Message).toBe(
            `Invalid typeId (value "${bad}"): must be an integer from 1 to 2147483647`,
          );
        }
      });

      it('a change of the name is refused (profiles refer to it); a change of case only is allowed', async () => {
        const first = await createOne('Cabin');
        const second = await createOne('Cottage');
        for (const name of ['CABIN', 'Chalet']) {
          const refused = await patch(clientId, a, 'AddressTypes', second.TypeId, [
            { op: 'replace', path: '/TypeName', value: name },
          ]);
          expect(refused.status).toBe(400);
          expect(refused.body.Message).toBe(
            `Invalid TypeName (value "${name}"): the TypeName of address type "Cottage" cannot be changed, ` +
              'as profiles refer to it by this name; change its LocalizedFields, or create an entry with the new name and deactivate this one',
          );
        }
        expect(await current(second.TypeId)).toEqual(second);

        const caseOnly = await patch(clientId, a, 'AddressTypes', first.TypeId, [
          { op: 'replace', path: '/TypeName', value: 'CABIN' },
        ]);
        expect(caseOnly.status).toBe(200);
        expect(caseOnly.body.AddressTypes[0].TypeName).toBe('CABIN');
        // Both names stay taken.
        const taken = await post(clientId, a, 'AddressTypes', { AddressTypes: [entry('cottage')] });
        expect(taken.status).toBe(409);
      });

      it('concurrent patches of one entry are all applied (no lost update)', async () => {
        // Several rounds: a lost update shows only under some interleavings.
        for (let round = 0; round < 5; round++) {
          const one = await createOne(`Busy ${round}`);
          const locales = ['fr', 'de', 'es', 'it'];
          const responses = await Promise.all(
            locales.map((locale) =>
              patch(clientId, a, 'AddressTypes', one.TypeId, [
                { op: 'add', path: '/LocalizedFields/-', value: { Locale: locale, Name: locale } },
              ]),
            ),
          );
          expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
          const stored = (await current(one.TypeId)).LocalizedFields.map((f: any) => f.Locale);
          expect({ round, locales: stored.sort() }).toEqual({
            round,
            locales: ['de', 'en-us', 'es', 'fr', 'it'],
          });
        }
      });

      it('is also served by the older singular route PATCH /{clientId}/AddressType/{typeId}', async () => {
        const one = await createOne('Alias');
        const response = await patch(clientId, a, 'AddressType', one.TypeId, [
          { op: 'replace', path: '/IsActive', value: false },
        ]);
        expect(response.status).toBe(200);
        expect(response.body).toEqual({
          AddressTypes: [
            expect.objectContaining({ TypeId: one.TypeId, TypeName: 'Alias', IsActive: false }),
          ],
        });
      });
    });

    describe('IsDefault', () => {
      const defaults = async (clientId: string, a: string) =>
        (await list(clientId, a, 'AddressTypes'))
          .filter((one) => one.IsDefault)
          .map((one) => one.TypeName);

      it('at most one entry is the default: a new default clears the old one', async () => {
        const { clientId, auth: a } = await freshTenant();
        const [home] = await create(clientId, a, 'AddressTypes', [
          entry('Home', { IsDefault: true }),
          entry('Work'),
        ]);
        expect(home.IsDefault).toBe(true);
        expect(await defaults(clientId, a)).toEqual(['Home']);

        const [shipping] = await create(clientId, a, 'AddressTypes', [
          entry('Shipping', { IsDefault: true }),
        ]);
        expect(shipping.IsDefault).toBe(true);
        expect(await defaults(clientId, a)).toEqual(['Shipping']);

        const made = await patch(clientId, a, 'AddressTypes', home.TypeId, [
          { op: 'replace', path: '/IsDefault', value: true },
        ]);
        expect(made.status).toBe(200);
        expect(made.body.AddressTypes[0].IsDefault).toBe(true);
        expect(await defaults(clientId, a)).toEqual(['Home']);

        // A patch that leaves IsDefault alone keeps it.
        await patch(clientId, a, 'AddressTypes', home.TypeId, [
          { op: 'replace', path: '/TypeName', value: 'HOME' },
        ]);
        expect(await defaults(clientId, a)).toEqual(['HOME']);

        const cleared = await patch(clientId, a, 'AddressTypes', home.TypeId, [
          { op: 'replace', path: '/IsDefault', value: false },
        ]);
        expect(cleared.body.AddressTypes[0].IsDefault).toBe(false);
        expect(await defaults(clientId, a)).toEqual([]);
      });

      it('concurrent patches making different entries the default leave exactly one', async () => {
        const { clientId, auth: a } = await freshTenant();
        const created = await create(clientId, a, 'AddressTypes', [
          entry('A'),
          entry('B'),
          entry('C'),
        ]);
        await Promise.all(
          created.map((one) =>
            patch(clientId, a, 'AddressTypes', one.TypeId, [
              { op: 'replace', path: '/IsDefault', value: true },
            ]),
          ),
        );
        expect(await defaults(clientId, a)).toHaveLength(1);
      });

      it('the default of one kind does not touch another kind', async () => {
        const { clientId, auth: a } = await freshTenant();
        await create(clientId, a, 'AddressTypes', [entry('Home', { IsDefault: true })]);
        await create(clientId, a, 'EmailTypes', [entry('Personal', { IsDefault: true })]);
        expect(await defaults(clientId, a)).toEqual(['Home']);
        expect((await list(clientId, a, 'EmailTypes'))[0].IsDefault).toBe(true);
      });
    });
  });

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
