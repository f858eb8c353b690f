import request from 'supertest';
import { entry, type Op, useTypesSuite } from './type-helpers';

/**
 * Type-configuration entries (docs/api.md), as AddressTypes: PATCH (JSON Patch, its
 * refusals, concurrent patches, the singular route) and IsDefault. Real engine and Redis,
 * no worker.
 */
describe('Type-configuration entries: PATCH and IsDefault', () => {
  const { suite, freshTenant, post, get, patch, create, list } = useTypesSuite();

  describe('AddressTypes', () => {
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
});
