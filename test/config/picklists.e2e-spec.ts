import { editedBy } from '../harness/configuration';
import { configReaderBearer, createTestTenant, useTenantApp } from '../harness/session';

describe('Picklists: GET/POST /{clientId}/Picklists, PATCH /{clientId}/Picklist(s)/{Id}', () => {
  const suite = useTenantApp({ workers: 0 });

  const get = (query = '', who?: string, client?: string) =>
    suite.api(who, client).get(`/Picklists${query}`);
  const post = (body: unknown) => suite.api().post('/Picklists', body);
  const patch = (id: number | string, body: unknown, route = 'Picklist') =>
    suite.api().patch(`/${route}/${id}`, body);

  let counter = 0;
  function picklist(overrides: Record<string, unknown> = {}) {
    counter += 1;
    return {
      Name: `Tier ${counter}`,
      Description: 'Loyalty tiers',
      FieldSelectOptions: [
        {
          Value: 'GOLD',
          LocalizedNames: [
            { Locale: 'en-us', Name: 'Gold' },
            { Locale: 'fr', Name: 'Or' },
          ],
          DisplayOrder: 1,
        },
        { Value: 'SILVER', LocalizedNames: [{ Locale: 'en-us', Name: 'Silver' }], DisplayOrder: 2 },
      ],
      ...overrides,
    };
  }

  async function created(overrides: Record<string, unknown> = {}): Promise<any> {
    const res = await post({ Picklists: [picklist(overrides)] });
    expect(res.status).toBe(201);
    return res.body.Picklists[0];
  }

  it('creates picklists with 201 and answers every field, defaults included', async () => {
    const res = await post({ Picklists: [picklist({ Name: 'Colours' }), picklist()] });
    expect(res.status).toBe(201);
    expect(res.body.Picklists).toHaveLength(2);
    const [colours, other] = res.body.Picklists;
    expect(colours).toEqual({
      Id: expect.any(Number),
      Name: 'Colours',
      Description: 'Loyalty tiers',
      IsActive: true,
      FieldSelectOptions: [
        {
          Value: 'GOLD',
          LocalizedNames: [
            { Locale: 'en-us', Name: 'Gold', Description: null },
            { Locale: 'fr', Name: 'Or', Description: null },
          ],
          DisplayOrder: 1,
          IsActive: true,
        },
        {
          Value: 'SILVER',
          LocalizedNames: [{ Locale: 'en-us', Name: 'Silver', Description: null }],
          DisplayOrder: 2,
          IsActive: true,
        },
      ],
      Edited: editedBy(suite.tenant.userId),
    });
    expect(other.Id).toBe(colours.Id + 1);

    const one = await get(`?Id=${colours.Id}`).expect(200);
    expect(one.body).toEqual({ Picklists: [colours] });
    const all = await get().expect(200);
    expect(all.body.Picklists.map((p: any) => p.Id)).toEqual(
      expect.arrayContaining([colours.Id, other.Id]),
    );
  });

  it('accepts read-only fields in the body and ignores them', async () => {
    const res = await post({
      Picklists: [picklist({ Id: 999, Edited: { CreatedBy: 'someone' } })],
    }).expect(201);
    expect(res.body.Picklists[0].Id).not.toBe(999);
    expect(res.body.Picklists[0].Edited.CreatedBy).toBe(suite.tenant.userId);
  });

  it('GET with an unknown Id answers 404, with a malformed Id 400', async () => {
    const res = await get('?Id=987654').expect(404);
    expect(res.body).toEqual({ Message: 'Picklist 987654 was not found' });
    const bad = await get('?Id=abc').expect(400);
    expect(bad.body.Message).toContain('Invalid Id (value "abc")');
  });

  it('selects option names by locale, case-insensitively, and answers 404 for a locale nobody has', async () => {
    const list = await created();
    const fr = await get(`?Id=${list.Id}&locale=FR-ca`).expect(200);
    expect(fr.body.Picklists[0].FieldSelectOptions.map((o: any) => o.LocalizedNames)).toEqual([
      [{ Locale: 'fr', Name: 'Or', Description: null }],
      [],
    ]);
    const en = await get(`?id=${list.Id}&Locale=en`).expect(200);
    expect(en.body.Picklists[0].FieldSelectOptions[1].LocalizedNames).toEqual([
      { Locale: 'en-us', Name: 'Silver', Description: null },
    ]);
    const none = await get(`?Id=${list.Id}&locale=es`).expect(404);
    expect(none.body.Message).toContain('"es"');
    await get('?locale=not_a_locale').expect(400);
  });

  it('refuses a name that exists (any case) or repeats in the body with 409, creating nothing', async () => {
    const existing = await created({ Name: 'Sizes' });
    const fresh = picklist({ Name: 'Fresh name' });
    const res = await post({ Picklists: [fresh, picklist({ Name: ' SIZES ' })] });
    expect(res.status).toBe(409);
    expect(res.body.Message).toBe('Picklist "Sizes" already exists');
    const twice = await post({ Picklists: [picklist({ Name: 'Dup' }), picklist({ Name: 'dup' })] });
    expect(twice.status).toBe(409);
    expect(twice.body.Message).toContain('"dup" is given more than once');
    const all = await get().expect(200);
    const names = all.body.Picklists.map((p: any) => p.Name);
    expect(names).not.toContain('Fresh name');
    expect(names).not.toContain('Dup');
    expect(names).toContain(existing.Name);
  });

  it('validates the body and names field and value', async () => {
    const cases: [unknown, string][] = [
      [{}, 'Picklists'],
      [{ Picklists: [] }, 'Invalid Picklists'],
      [{ Picklists: [picklist({ Name: '' })] }, 'Invalid Picklists[0].Name (value "")'],
      [{ Picklists: [picklist({ Name: 'x'.repeat(101) })] }, 'Invalid Picklists[0].Name'],
      [{ Picklists: [picklist({ Description: 'x'.repeat(257) })] }, 'Picklists[0].Description'],
      [{ Picklists: [picklist({ FieldSelectOptions: undefined })] }, 'FieldSelectOptions'],
      [{ Picklists: [picklist({ FieldSelectOptions: [] })] }, 'FieldSelectOptions'],
      [
        {
          Picklists: [
            picklist({
              FieldSelectOptions: [
                { Value: 'A::B', LocalizedNames: [{ Locale: 'en', Name: 'A' }] },
              ],
            }),
          ],
        },
        'Invalid Picklists[0].FieldSelectOptions[0].Value (value "A::B"): must not contain "::"',
      ],
      [
        {
          Picklists: [
            picklist({
              FieldSelectOptions: [
                { Value: 'A', LocalizedNames: [{ Locale: 'en', Name: 'A' }] },
                { Value: 'a', LocalizedNames: [{ Locale: 'en', Name: 'A' }] },
              ],
            }),
          ],
        },
        'Invalid Picklists[0].FieldSelectOptions[1].Value (value "a"): repeats FieldSelectOptions[0].Value',
      ],
      [
        {
          Picklists: [picklist({ FieldSelectOptions: [{ Value: 'A', LocalizedNames: [] }] })],
        },
        'Picklists[0].FieldSelectOptions[0].LocalizedNames',
      ],
      [{ Picklists: [picklist({ Colour: 'red' })] }, 'Unknown field Picklists[0].Colour'],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.Message).toContain(message);
    }
  });

  it('PATCH (both routes) renames, adds and removes options, and stamps Edited', async () => {
    const list = await created();
    const res = await patch(list.Id, [
      { op: 'replace', path: '/Name', value: 'Renamed tiers' },
      {
        op: 'add',
        path: '/FieldSelectOptions/-',
        value: { Value: 'BRONZE', LocalizedNames: [{ Locale: 'en-us', Name: 'Bronze' }] },
      },
      { op: 'remove', path: '/FieldSelectOptions/0' },
      { op: 'replace', path: '/Description', value: null },
    ]);
    expect(res.status).toBe(200);
    const updated = res.body.Picklists[0];
    expect(updated.Name).toBe('Renamed tiers');
    expect(updated.Description).toBeNull();
    expect(updated.FieldSelectOptions.map((o: any) => o.Value)).toEqual(['SILVER', 'BRONZE']);
    expect(updated.FieldSelectOptions[1].IsActive).toBe(true);
    expect(updated.Edited.CreateDate).toBe(list.Edited.CreateDate);
    expect(updated.Edited.ModifiedDate >= list.Edited.ModifiedDate).toBe(true);

    const plural = await patch(
      list.Id,
      [{ op: 'replace', path: '/IsActive', value: false }],
      'Picklists',
    );
    expect(plural.status).toBe(200);
    expect(plural.body.Picklists[0].IsActive).toBe(false);
    const stored = await get(`?Id=${list.Id}`).expect(200);
    expect(stored.body.Picklists[0]).toEqual(plural.body.Picklists[0]);

    // The old name is free again.
    await post({ Picklists: [picklist({ Name: list.Name })] }).expect(201);
  });

  it('PATCH refuses a taken name with 409, and bad operations or results with 400, changing nothing', async () => {
    const first = await created();
    const second = await created();
    const taken = await patch(second.Id, [
      { op: 'replace', path: '/Name', value: first.Name.toUpperCase() },
    ]);
    expect(taken.status).toBe(409);
    expect(taken.body.Message).toBe(`Picklist "${first.Name.toUpperCase()}" already exists`);

    const cases: [unknown, string][] = [
      [{ op: 'replace', path: '/Name', value: 'x' }, 'non-empty array'],
      [[], 'non-empty array'],
      [[{ op: 'replace', path: '/Id', value: 5 }], 'Operations[0].path "/Id" is read-only'],
      [[{ op: 'replace', path: '/Edited', value: {} }], 'read-only'],
      [[{ op: 'move', from: '/Name', path: '/Description' }], 'not supported'],
      [[{ op: 'jump', path: '/Name' }], 'Invalid Operations[0].op (value "jump")'],
      [
        [
          { op: 'replace', path: '/Name', value: 'Never stored' },
          { op: 'test', path: '/IsActive', value: false },
        ],
        'Operations[1] (test /IsActive) was refused',
      ],
      [[{ op: 'remove', path: '/FieldSelectOptions/7' }], 'Operations[0] (remove'],
      [[{ op: 'replace', path: '/FieldSelectOptions', value: [] }], 'FieldSelectOptions'],
      [
        [{ op: 'replace', path: '/FieldSelectOptions/1/Value', value: 'gold' }],
        'Invalid FieldSelectOptions[1].Value (value "gold"): repeats',
      ],
      [[{ op: 'add', path: '/Colour', value: 'red' }], 'Unknown field Colour'],
      [[{ op: 'replace', path: '/Name', value: 'x'.repeat(101) }], 'Invalid Name'],
    ];
    for (const [body, message] of cases) {
      const res = await patch(second.Id, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.Message).toContain(message);
    }
    const after = await get(`?Id=${second.Id}`).expect(200);
    expect(after.body.Picklists[0]).toEqual(second);
  });

  it('PATCH of an unknown id answers 404, of a malformed id 400', async () => {
    const res = await patch(424242, [{ op: 'replace', path: '/Name', value: 'x' }]);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ Message: 'Picklist 424242 was not found' });
    const bad = await patch('abc', [{ op: 'replace', path: '/Name', value: 'x' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.Message).toContain('Invalid Id (value "abc")');
  });

  it('keeps one client’s picklists invisible to another', async () => {
    const mine = await created({ Name: 'Private list' });
    const other = await createTestTenant(suite.app);
    const otherAuth = await other.bearer();
    const theirs = await get('', otherAuth, other.clientId).expect(200);
    expect(theirs.body).toEqual({ Picklists: [] });
    await get(`?Id=${mine.Id}`, otherAuth, other.clientId).expect(404);
    const theirApi = suite.api(otherAuth, other.clientId);
    await theirApi
      .patch(`/Picklist/${mine.Id}`, [{ op: 'replace', path: '/Name', value: 'Stolen' }])
      .expect(404);
    // The same name is free for the other client; its ids start at 1.
    const res = await theirApi
      .post('/Picklists', { Picklists: [picklist({ Name: 'Private list' })] })
      .expect(201);
    expect(res.body.Picklists[0].Id).toBe(1);
    // Another tenant's token on this client's path: 404 as for an unknown client.
    await get('', otherAuth).expect(404);
    expect((await get(`?Id=${mine.Id}`).expect(200)).body.Picklists[0].Name).toBe('Private list');
  });

  it('needs configuration read to list and configuration write to create or update', async () => {
    const list = await created();
    const reader = await configReaderBearer(suite.app, suite.tenant);
    await get('', reader).expect(200);
    const denied = await suite.api(reader).post('/Picklists', { Picklists: [picklist()] });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      Message: 'The user group "Config readers" has no write permission on configuration',
    });
    await suite
      .api(reader)
      .patch(`/Picklist/${list.Id}`, [{ op: 'replace', path: '/Name', value: 'x' }])
      .expect(403);
  });

  it('keeps every one of several concurrent PATCHes of one picklist (revision check and retry)', async () => {
    const list = await created();
    const values = ['C1', 'C2', 'C3', 'C4', 'C5', 'C6'];
    const responses = await Promise.all(
      values.map((Value) =>
        patch(list.Id, [
          {
            op: 'add',
            path: '/FieldSelectOptions/-',
            value: { Value, LocalizedNames: [{ Locale: 'en', Name: Value }] },
          },
        ]),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(values.map(() => 200));
    const stored = (await get(`?Id=${list.Id}`).expect(200)).body.Picklists[0];
    expect(stored.FieldSelectOptions.map((o: any) => o.Value).sort()).toEqual(
      ['GOLD', 'SILVER', ...values].sort(),
    );
  });
});
