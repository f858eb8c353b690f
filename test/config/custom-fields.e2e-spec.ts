import { CustomFieldCatalog } from '../../libs/config/src/custom-fields/services/custom-field-catalog.service';
import { checkCustomFieldValue } from '../../libs/config/src/custom-fields/domain/custom-field-value';
import { editedBy } from '../harness/configuration';
import { configReaderBearer, createTestTenant, useTenantApp } from '../harness/session';

describe('Custom fields: /{clientId}/CustomFields and /{clientId}/CustomField/<Type>/{Id}', () => {
  const suite = useTenantApp({ workers: 0 });
  let picklistId: number;

  const get = (query = '', who?: string, client?: string) =>
    suite.api(who, client).get(`/CustomFields${query}`);
  const post = (path: string, body: unknown) => suite.api().post(`/CustomFields${path}`, body);
  const patch = (path: string, body: unknown) => suite.api().patch(`/${path}`, body);

  let counter = 0;
  const names = (name: string) => [
    { Locale: 'en-us', Name: name },
    { Locale: 'fr', Name: `${name} (fr)` },
  ];
  const unique = (prefix: string) => `${prefix} ${++counter}`;
  const textField = (extra: Record<string, unknown> = {}) => {
    const name = unique('Nickname');
    return { Name: name, LocalizedDisplayNames: names(name), ...extra };
  };
  const numericField = (extra: Record<string, unknown> = {}) => {
    const name = unique('Score');
    return { Name: name, LocalizedDisplayNames: names(name), ...extra };
  };
  const dateField = (extra: Record<string, unknown> = {}) => {
    const name = unique('Joined');
    return { Name: name, LocalizedDisplayNames: names(name), ...extra };
  };
  const selectField = (extra: Record<string, unknown> = {}) => {
    const name = unique('Tier');
    return {
      Name: name,
      LocalizedDisplayNames: names(name),
      PicklistId: picklistId,
      DisplayType: 'SingleSelect',
      ...extra,
    };
  };

  beforeAll(async () => {
    const res = await suite
      .api()
      .post('/Picklists', {
        Picklists: [
          {
            Name: 'Tiers',
            FieldSelectOptions: [
              { Value: 'GOLD', LocalizedNames: [{ Locale: 'en', Name: 'Gold' }] },
              { Value: 'SILVER', LocalizedNames: [{ Locale: 'en', Name: 'Silver' }] },
              { Value: 'OLD', LocalizedNames: [{ Locale: 'en', Name: 'Old' }], IsActive: false },
            ],
          },
        ],
      })
      .expect(201);
    picklistId = res.body.Picklists[0].Id;
  });

  it('creates each type with 201 and answers every field of it, defaults included', async () => {
    const text = await post('/Text', {
      TextFields: [
        textField({
          Name: 'Member code',
          Description: 'Code printed on the card',
          MinLength: 3,
          MaxLength: 10,
          DefaultValue: 'ABC',
          ValidationRegex: '^[A-Z]+$',
          FieldMask: 'AAA',
          UpdateRuleId: 2,
          DisplayOrder: 4,
          IsRequired: true,
          IsReadOnly: true,
        }),
      ],
    });
    expect(text.status).toBe(201);
    const edited = editedBy(suite.tenant.userId);
    /** The common fields of a definition created with only its name and display names. */
    const defaults = {
      Id: expect.any(Number),
      LocalizedDisplayNames: expect.any(Array),
      Description: null,
      UpdateRuleId: 1,
      DisplayOrder: null,
      IsReadOnly: false,
      IsRequired: false,
      IsActive: true,
      Edited: edited,
    };
    expect(text.body).toEqual({
      DateTimeFields: [],
      NumericFields: [],
      SelectListFields: [],
      TextFields: [
        {
          Id: expect.any(Number),
          Name: 'Member code',
          LocalizedDisplayNames: [
            { Locale: 'en-us', Name: expect.any(String), Description: null },
            { Locale: 'fr', Name: expect.any(String), Description: null },
          ],
          Description: 'Code printed on the card',
          UpdateRuleId: 2,
          DisplayOrder: 4,
          IsReadOnly: true,
          IsRequired: true,
          IsActive: true,
          MinLength: 3,
          MaxLength: 10,
          DefaultValue: 'ABC',
          ValidationRegex: '^[A-Z]+$',
          FieldMask: 'AAA',
          Edited: edited,
        },
      ],
    });

    const numeric = await post('/Numeric', {
      NumericFields: [
        numericField({ MinValue: 0, MaxValue: 100, DecimalPlaces: 1, DefaultValue: 2.5 }),
      ],
    }).expect(201);
    expect(numeric.body.NumericFields[0]).toEqual({
      ...defaults,
      Name: expect.stringMatching(/^Score/),
      MinValue: 0,
      MaxValue: 100,
      DecimalPlaces: 1,
      DefaultValue: 2.5,
      FieldMask: null,
    });

    const date = await post('/DateTime', {
      DateTimeFields: [dateField({ MinDate: '2000-01-01', MaxDate: '2100-01-01T00:00:00Z' })],
    }).expect(201);
    expect(date.body.DateTimeFields[0]).toEqual({
      ...defaults,
      Name: expect.stringMatching(/^Joined/),
      MinDate: '2000-01-01',
      MaxDate: '2100-01-01T00:00:00Z',
      DefaultValue: null,
    });

    const select = await post('/SelectList', {
      SelectListFields: [selectField({ DisplayType: 'MultiSelect', DefaultState: 'Checked' })],
    }).expect(201);
    expect(select.body.SelectListFields[0]).toEqual({
      ...defaults,
      Name: expect.stringMatching(/^Tier/),
      PicklistId: picklistId,
      DisplayType: 'MultiSelect',
      DefaultState: 'Checked',
    });

    // One id space across the types; GET by Id finds each in its own list.
    const ids = [
      text.body.TextFields[0].Id,
      numeric.body.NumericFields[0].Id,
      date.body.DateTimeFields[0].Id,
      select.body.SelectListFields[0].Id,
    ];
    expect(new Set(ids).size).toBe(4);
    const one = await get(`?Id=${ids[1]}`).expect(200);
    expect(one.body).toEqual({
      DateTimeFields: [],
      NumericFields: [numeric.body.NumericFields[0]],
      SelectListFields: [],
      TextFields: [],
    });
    const all = await get().expect(200);
    expect(all.body.TextFields.map((f: any) => f.Id)).toContain(ids[0]);
    expect(all.body.SelectListFields.map((f: any) => f.Id)).toContain(ids[3]);
    expect(all.body.DateTimeFields.map((f: any) => f.Id)).toContain(ids[2]);
  });

  it('creates several types at once with POST /CustomFields, all or nothing', async () => {
    const res = await post('', {
      TextFields: [textField()],
      NumericFields: [numericField(), numericField()],
    }).expect(201);
    expect(res.body.TextFields).toHaveLength(1);
    expect(res.body.NumericFields).toHaveLength(2);
    expect(res.body.SelectListFields).toEqual([]);

    const failing = textField();
    const bad = await post('', {
      TextFields: [failing],
      SelectListFields: [selectField({ PicklistId: 99999 })],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.Message).toBe(
      'Invalid SelectListFields[0].PicklistId (value 99999): no picklist of this client has this id',
    );
    const all = await get().expect(200);
    expect(all.body.TextFields.map((f: any) => f.Name)).not.toContain(failing.Name);
    await post('', {}).expect(400);
  });

  it('lists the update rules', async () => {
    const res = await suite.api().get('/CustomFields/UpdateRules').expect(200);
    expect(res.body.UpdateRules.map((rule: any) => [rule.Id, rule.Name])).toEqual([
      [1, 'Always'],
      [2, 'IfCurrentValueIsBlank'],
      [4, 'IfNewValueIsNotBlank'],
      [5, 'Never'],
    ]);
    for (const rule of res.body.UpdateRules) expect(rule.Description).toEqual(expect.any(String));
  });

  it('refuses a name used by any type (any case) or repeated in the body with 409', async () => {
    const text = textField({ Name: 'Shared name' });
    await post('/Text', { TextFields: [text] }).expect(201);
    const other = await post('/Numeric', {
      NumericFields: [numericField(), numericField({ Name: 'SHARED  name' })],
    });
    expect(other.status).toBe(409);
    expect(other.body.Message).toBe('Custom field "Shared name" already exists');
    const twice = await post('', {
      TextFields: [textField({ Name: 'Twice' })],
      DateTimeFields: [dateField({ Name: 'twice' })],
    });
    expect(twice.status).toBe(409);
    expect(twice.body.Message).toBe(
      'Custom field name "twice" is given more than once in the body',
    );
    const all = await get().expect(200);
    expect(all.body.DateTimeFields.map((f: any) => f.Name)).not.toContain('twice');
    expect(all.body.TextFields.map((f: any) => f.Name)).not.toContain('Twice');
  });

  it('validates definitions and names field and value', async () => {
    const cases: [string, unknown, string][] = [
      [
        '/Text',
        { TextFields: [textField({ ValidationRegex: '([a-z' })] },
        'Invalid TextFields[0].ValidationRegex (value "([a-z"): must be a valid JavaScript regular expression',
      ],
      [
        '/Text',
        { TextFields: [textField({ MinLength: 5, MaxLength: 2 })] },
        'Invalid TextFields[0].MinLength (value 5): must not be greater than MaxLength (2)',
      ],
      [
        '/Text',
        { TextFields: [textField({ MaxLength: 4001 })] },
        'Invalid TextFields[0].MaxLength (value 4001)',
      ],
      [
        '/Text',
        { TextFields: [textField({ ValidationRegex: '^\\d+$', DefaultValue: 'x' })] },
        'Invalid TextFields[0].DefaultValue (value "x"): must match the pattern',
      ],
      [
        '/Numeric',
        { NumericFields: [numericField({ MinValue: 3, MaxValue: 1 })] },
        'Invalid NumericFields[0].MinValue (value 3): must not be greater than MaxValue (1)',
      ],
      [
        '/Numeric',
        { NumericFields: [numericField({ DecimalPlaces: 0, DefaultValue: 1.5 })] },
        'Invalid NumericFields[0].DefaultValue (value 1.5): must have at most 0 decimal places',
      ],
      [
        '/Numeric',
        { NumericFields: [numericField({ FieldMask: 'x'.repeat(4001) })] },
        'NumericFields[0].FieldMask',
      ],
      [
        '/Numeric',
        { NumericFields: [numericField({ MinValue: 'low' })] },
        'Invalid NumericFields[0].MinValue (value "low")',
      ],
      [
        '/DateTime',
        { DateTimeFields: [dateField({ MinDate: '2020-02-01', MaxDate: '2020-01-01' })] },
        'Invalid DateTimeFields[0].MinDate (value "2020-02-01"): must not be greater than MaxDate ("2020-01-01")',
      ],
      [
        '/DateTime',
        { DateTimeFields: [dateField({ MaxDate: '31/12/2020' })] },
        'Invalid DateTimeFields[0].MaxDate (value "31/12/2020"): must be an ISO 8601 date or date-time',
      ],
      [
        '/SelectList',
        { SelectListFields: [selectField({ PicklistId: 4242 })] },
        'Invalid SelectListFields[0].PicklistId (value 4242): no picklist of this client has this id',
      ],
      [
        '/SelectList',
        { SelectListFields: [selectField({ PicklistId: undefined })] },
        'Invalid SelectListFields[0].PicklistId (value missing)',
      ],
      [
        '/SelectList',
        { SelectListFields: [selectField({ DisplayType: 'Dropdown' })] },
        'Invalid SelectListFields[0].DisplayType (value "Dropdown")',
      ],
      [
        '/SelectList',
        { SelectListFields: [selectField({ DefaultState: 'On' })] },
        'SelectListFields[0].DefaultState',
      ],
      [
        '/Text',
        { TextFields: [textField({ Name: 'x'.repeat(95) })] },
        'Invalid TextFields[0].Name',
      ],
      [
        '/Text',
        { TextFields: [textField({ Name: '   ' })] },
        'Invalid TextFields[0].Name (value "   "): must not be blank',
      ],
      [
        '/Text',
        { TextFields: [textField({ LocalizedDisplayNames: [] })] },
        'TextFields[0].LocalizedDisplayNames',
      ],
      [
        '/Text',
        { TextFields: [textField({ Description: 'x'.repeat(257) })] },
        'TextFields[0].Description',
      ],
      [
        '/Text',
        { TextFields: [textField({ UpdateRuleId: 3 })] },
        'Invalid TextFields[0].UpdateRuleId (value 3): must be one of 1, 2, 4, 5',
      ],
      [
        '/Text',
        { TextFields: [textField({ PicklistId: 1 })] },
        'Unknown field TextFields[0].PicklistId',
      ],
      ['/Text', { NumericFields: [numericField()] }, 'Unknown field NumericFields'],
      ['/Text', { TextFields: [] }, 'TextFields'],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(path, body);
      expect({ path, body, status: res.status }).toEqual({ path, body, status: 400 });
      expect(res.body.Message).toContain(message);
    }
  });

  it('GET: unknown Id 404, malformed Id 400, locale selection and locale 404', async () => {
    const missing = await get('?Id=777777').expect(404);
    expect(missing.body).toEqual({ Message: 'Custom field 777777 was not found' });
    await get('?Id=-1').expect(400);
    const created = await post('/Text', { TextFields: [textField()] }).expect(201);
    const id = created.body.TextFields[0].Id;
    const fr = await get(`?Id=${id}&locale=fr-CA`).expect(200);
    expect(fr.body.TextFields[0].LocalizedDisplayNames).toEqual([
      { Locale: 'fr', Name: `${created.body.TextFields[0].Name} (fr)`, Description: null },
    ]);
    const none = await get(`?Id=${id}&locale=de`).expect(404);
    expect(none.body.Message).toBe('No custom field has localized display names for locale "de"');
  });

  it('PATCH (both routes) updates a definition, validates the result and keeps Id and Edited', async () => {
    const created = await post('/Numeric', {
      NumericFields: [numericField({ MinValue: 0, MaxValue: 10 })],
    }).expect(201);
    const field = created.body.NumericFields[0];
    const res = await patch(`CustomField/Numeric/${field.Id}`, [
      { op: 'replace', path: '/MaxValue', value: 50 },
      { op: 'replace', path: '/DecimalPlaces', value: 2 },
      { op: 'replace', path: '/Name', value: field.Name.toUpperCase() },
      { op: 'add', path: '/LocalizedDisplayNames/-', value: { Locale: 'de', Name: 'Punkte' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.TextFields).toEqual([]);
    const updated = res.body.NumericFields[0];
    expect(updated).toEqual({
      ...field,
      Name: field.Name.toUpperCase(),
      MaxValue: 50,
      DecimalPlaces: 2,
      LocalizedDisplayNames: [
        ...field.LocalizedDisplayNames,
        { Locale: 'de', Name: 'Punkte', Description: null },
      ],
      Edited: { ...field.Edited, ModifiedDate: expect.any(String) },
    });
    // Another name is refused: profiles store the field's values under its name.
    const renamed = await patch(`CustomField/Numeric/${field.Id}`, [
      { op: 'replace', path: '/Name', value: 'Renamed score' },
    ]);
    expect(renamed.status).toBe(400);
    expect(renamed.body.Message).toBe(
      `Invalid Name (value "Renamed score"): the Name of custom field "${updated.Name}" cannot be changed, ` +
        'as profiles refer to it by this name; change its LocalizedDisplayNames, or create an entry with the new name and deactivate this one',
    );
    const plural = await patch(`CustomFields/Numeric/${field.Id}`, [
      { op: 'replace', path: '/IsActive', value: false },
    ]).expect(200);
    expect(plural.body.NumericFields[0].IsActive).toBe(false);
    expect((await get(`?Id=${field.Id}`).expect(200)).body.NumericFields[0]).toEqual(
      plural.body.NumericFields[0],
    );
    // The name stays the field's.
    await post('/Text', { TextFields: [textField({ Name: field.Name })] }).expect(409);

    const minOverMax = await patch(`CustomField/Numeric/${field.Id}`, [
      { op: 'replace', path: '/MinValue', value: 60 },
    ]);
    expect(minOverMax.status).toBe(400);
    expect(minOverMax.body.Message).toBe(
      'Invalid MinValue (value 60): must not be greater than MaxValue (50)',
    );
  });

  it('PATCH refuses bad results, taken names, read-only fields, unknown ids and wrong types', async () => {
    const text = (await post('/Text', { TextFields: [textField()] }).expect(201)).body
      .TextFields[0];
    const other = (await post('/Text', { TextFields: [textField()] }).expect(201)).body
      .TextFields[0];
    const select = (await post('/SelectList', { SelectListFields: [selectField()] }).expect(201))
      .body.SelectListFields[0];

    const regex = await patch(`CustomField/Text/${text.Id}`, [
      { op: 'replace', path: '/ValidationRegex', value: '[' },
    ]);
    expect(regex.status).toBe(400);
    expect(regex.body.Message).toContain('Invalid ValidationRegex (value "["): must be a valid');

    // Any other name is refused, another field's included.
    const taken = await patch(`CustomField/Text/${text.Id}`, [
      { op: 'replace', path: '/Name', value: other.Name.toUpperCase() },
    ]);
    expect(taken.status).toBe(400);
    expect(taken.body.Message).toContain('cannot be changed');

    const picklist = await patch(`CustomField/SelectList/${select.Id}`, [
      { op: 'replace', path: '/PicklistId', value: 123456 },
    ]);
    expect(picklist.status).toBe(400);
    expect(picklist.body.Message).toBe(
      'Invalid PicklistId (value 123456): no picklist of this client has this id',
    );
    const noPicklist = await patch(`CustomField/SelectList/${select.Id}`, [
      { op: 'remove', path: '/PicklistId' },
    ]);
    expect(noPicklist.status).toBe(400);

    await patch(`CustomField/Text/${text.Id}`, [{ op: 'replace', path: '/Id', value: 1 }]).expect(
      400,
    );
    await patch(`CustomField/Text/${text.Id}`, [{ op: 'add', path: '/MinValue', value: 1 }]).expect(
      400,
    );

    const wrongType = await patch(`CustomField/Numeric/${text.Id}`, [
      { op: 'replace', path: '/Description', value: 'x' },
    ]);
    expect(wrongType.status).toBe(404);
    expect(wrongType.body).toEqual({ Message: `Numeric custom field ${text.Id} was not found` });
    const unknownType = await patch(`CustomField/Colour/${text.Id}`, [
      { op: 'replace', path: '/Description', value: 'x' },
    ]);
    expect(unknownType.status).toBe(404);
    await patch('CustomField/Text/999999', [
      { op: 'replace', path: '/Description', value: 'x' },
    ]).expect(404);
    await patch('CustomField/Text/zero', [
      { op: 'replace', path: '/Description', value: 'x' },
    ]).expect(400);

    expect((await get(`?Id=${text.Id}`).expect(200)).body.TextFields[0]).toEqual(text);
    expect((await get(`?Id=${select.Id}`).expect(200)).body.SelectListFields[0]).toEqual(select);
  });

  it('CustomFieldCatalog resolves a definition by name with its picklist values, for checkCustomFieldValue', async () => {
    const select = (
      await post('/SelectList', {
        SelectListFields: [selectField({ Name: 'Loyalty Tier', DisplayType: 'MultiSelect' })],
      }).expect(201)
    ).body.SelectListFields[0];
    const catalog = suite.app.api.get(CustomFieldCatalog);
    const found = await catalog.findByName(suite.tenant.clientId, '  loyalty   TIER ');
    expect(found?.definition).toMatchObject({
      Id: select.Id,
      FieldType: 'SelectList',
      Name: 'Loyalty Tier',
      DisplayType: 'MultiSelect',
      PicklistId: picklistId,
    });
    expect(found?.picklistValues).toEqual(['GOLD', 'SILVER']);
    expect(
      checkCustomFieldValue(found!.definition, found!.picklistValues, 'GOLD::SILVER', null),
    ).toBeNull();
    expect(checkCustomFieldValue(found!.definition, found!.picklistValues, 'OLD', null)).toContain(
      '"OLD" is not an active value',
    );
    expect(await catalog.findByName(suite.tenant.clientId, 'No such field')).toBeNull();
    expect(await catalog.findByName('another-client', 'Loyalty Tier')).toBeNull();
    // A field of another type has no picklist values (created here: the test runs alone too).
    const created = (
      await post('/Text', { TextFields: [textField({ Name: 'Catalog text' })] }).expect(201)
    ).body.TextFields[0];
    const text = await catalog.findById(suite.tenant.clientId, created.Id);
    expect(text?.picklistValues).toBeNull();
  });

  it('keeps one client’s custom fields invisible to another', async () => {
    const mine = (await post('/Text', { TextFields: [textField({ Name: 'Private' })] }).expect(201))
      .body.TextFields[0];
    const other = await createTestTenant(suite.app);
    const otherAuth = await other.bearer();
    const theirs = await get('', otherAuth, other.clientId).expect(200);
    expect(theirs.body).toEqual({
      DateTimeFields: [],
      NumericFields: [],
      SelectListFields: [],
      TextFields: [],
    });
    await get(`?Id=${mine.Id}`, otherAuth, other.clientId).expect(404);
    const theirApi = suite.api(otherAuth, other.clientId);
    await theirApi
      .patch(`/CustomField/Text/${mine.Id}`, [{ op: 'replace', path: '/Name', value: 'Stolen' }])
      .expect(404);
    // This client's picklist is unknown to the other client.
    const select = await theirApi.post('/CustomFields/SelectList', {
      SelectListFields: [selectField()],
    });
    expect(select.status).toBe(400);
    expect(select.body.Message).toContain('no picklist of this client has this id');
    // The name is free for the other client.
    await theirApi
      .post('/CustomFields/Text', { TextFields: [textField({ Name: 'Private' })] })
      .expect(201);
    expect((await get(`?Id=${mine.Id}`).expect(200)).body.TextFields[0].Name).toBe('Private');
  });

  it('needs configuration read to list and configuration write to create or update', async () => {
    const field = (await post('/Text', { TextFields: [textField()] }).expect(201)).body
      .TextFields[0];
    const reader = await configReaderBearer(suite.app, suite.tenant);
    const readerApi = suite.api(reader);
    await get('', reader).expect(200);
    await readerApi.get('/CustomFields/UpdateRules').expect(200);
    for (const path of ['', '/Text']) {
      await readerApi.post(`/CustomFields${path}`, { TextFields: [textField()] }).expect(403);
    }
    await readerApi
      .patch(`/CustomField/Text/${field.Id}`, [{ op: 'replace', path: '/Name', value: 'x' }])
      .expect(403);
  });

  it('keeps every one of several concurrent PATCHes of one definition', async () => {
    const field = (await post('/Text', { TextFields: [textField()] }).expect(201)).body
      .TextFields[0];
    const locales = ['de', 'es', 'it', 'nl', 'pt', 'sv'];
    const responses = await Promise.all(
      locales.map((Locale) =>
        patch(`CustomFields/Text/${field.Id}`, [
          { op: 'add', path: '/LocalizedDisplayNames/-', value: { Locale, Name: Locale } },
        ]),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(locales.map(() => 200));
    const stored = (await get(`?Id=${field.Id}`).expect(200)).body.TextFields[0];
    expect(stored.LocalizedDisplayNames.map((n: any) => n.Locale).sort()).toEqual(
      ['en-us', 'fr', ...locales].sort(),
    );
    // Every read answers the latest revision only, once.
    const all = await get().expect(200);
    expect(all.body.TextFields.filter((f: any) => f.Id === field.Id)).toEqual([stored]);
  });
});
