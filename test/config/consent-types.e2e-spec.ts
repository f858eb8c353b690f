import { QueryBus } from '@nestjs/cqrs';
import { FindConsentTypeQuery } from '../../libs/config/src/common/cross-area';
import { ConfigEventOutbox } from '../../libs/config/src/consent-types/repositories/config-event-outbox.repository';
import { ConsentTypeCatalog } from '../../libs/config/src/consent-types/services/consent-type-catalog.service';
import { editedBy } from '../harness/configuration';
import { configReaderBearer, createTestTenant, useTenantApp } from '../harness/session';
import { eventually } from '../harness/test-app';

describe('Consent types: /{clientId}/ConsentTypes, versions and their events', () => {
  const suite = useTenantApp({ workers: 0 });
  const get = (query = '', who?: string, client?: string) =>
    suite.api(who, client).get(`/ConsentTypes${query}`);
  const post = (body: unknown) => suite.api().post('/ConsentTypes', body);
  const patch = (typeId: number | string, body: unknown, route = 'ConsentTypes') =>
    suite.api().patch(`/${route}/${typeId}`, body);
  const publish = (typeId: number, body: unknown, route = 'ConsentTypes') =>
    suite.api().post(`/${route}/${typeId}/Versions`, body);

  let counter = 0;
  const version = (ConsentVersion: string, extra: Record<string, unknown> = {}) => ({
    ConsentVersion,
    LocalizedFields: [
      { ConsentLanguage: `I agree (${ConsentVersion})`, Locale: 'en-us', Name: 'Terms' },
      { ConsentLanguage: `J'accepte (${ConsentVersion})`, Locale: 'fr', Name: 'Conditions' },
    ],
    ...extra,
  });
  const consentType = (extra: Record<string, unknown> = {}) => ({
    TypeName: `Consent ${++counter}`,
    IsActive: true,
    Versions: [version('1.0')],
    ...extra,
  });
  async function created(extra: Record<string, unknown> = {}): Promise<any> {
    const res = await post({ ConsentTypes: [consentType(extra)] });
    expect(res.status).toBe(201);
    return res.body.ConsentTypes[0];
  }

  async function eventsOf(typeId: number): Promise<any[]> {
    const outbox = suite.app.api.get(ConfigEventOutbox);
    const pending = await outbox.pendingAcrossTenants(10000);
    return pending.filter(
      (event) => event.clientId === suite.tenant.clientId && event.typeId === typeId,
    );
  }

  async function programRequiring(typeName: string): Promise<{ programId: number }> {
    const res = await suite.api().post('/Programs', {
      Programs: [
        {
          Name: `Program for ${typeName}`,
          ProgramType: 'Marketing',
          Filters: [
            {
              Name: 'Newsletter',
              ChannelID: 'Email',
              RequiredPreferenceConsents: [{ TypeName: typeName, DisplayOrder: 1 }],
            },
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    return { programId: res.body.Programs[0].Id };
  }

  async function requiredConsentsOf(programId: number): Promise<string[]> {
    const res = await suite.api().get('/Programs').expect(200);
    const program = res.body.Programs.find((p: any) => p.Id === programId);
    return program.Filters[0].RequiredPreferenceConsents.map((c: any) => c.TypeName);
  }

  it('creates consent types with 201 and answers every field, defaults included', async () => {
    const res = await post({
      ConsentTypes: [
        {
          TypeName: 'Email marketing',
          LocalizedFields: [{ Locale: 'en-us', Name: 'Email marketing', Description: 'News' }],
          IsActive: true,
          IsDefault: true,
          ChannelId: 'email',
          Attributes: [{ Key: 'Source', Value: 'Web' }, { Key: 'Region' }],
          Versions: [
            version('1.0', { ExpirationInDays: 365, IsAssociatedWithProfiles: true }),
            version('2.0', { IsActive: false }),
          ],
        },
        { TypeName: 'Profile terms' },
      ],
    });
    expect(res.status).toBe(201);
    const edited = editedBy(suite.tenant.userId);
    const [email, terms] = res.body.ConsentTypes;
    expect(email).toEqual({
      TypeId: expect.any(Number),
      TypeName: 'Email marketing',
      LocalizedFields: [{ Locale: 'en-us', Name: 'Email marketing', Description: 'News' }],
      IsActive: true,
      IsDefault: true,
      ChannelId: 'Email',
      RequiresConfirmation: false,
      Attributes: [
        { Key: 'Source', Value: 'Web' },
        { Key: 'Region', Value: null },
      ],
      Versions: [
        {
          ConsentVersion: '1.0',
          LocalizedFields: [
            { ConsentLanguage: 'I agree (1.0)', Locale: 'en-us', Name: 'Terms', Description: null },
            {
              ConsentLanguage: "J'accepte (1.0)",
              Locale: 'fr',
              Name: 'Conditions',
              Description: null,
            },
          ],
          ExpirationInDays: 365,
          IsActive: true,
          IsAssociatedWithProfiles: true,
          Edited: edited,
          PublishedDate: email.Edited.CreateDate,
        },
        expect.objectContaining({
          ConsentVersion: '2.0',
          ExpirationInDays: null,
          IsActive: false,
          IsAssociatedWithProfiles: false,
        }),
      ],
      Edited: edited,
    });
    expect(terms).toEqual({
      TypeId: email.TypeId + 1,
      TypeName: 'Profile terms',
      LocalizedFields: [],
      IsActive: true,
      IsDefault: false,
      ChannelId: null,
      RequiresConfirmation: false,
      Attributes: [],
      Versions: [],
      Edited: edited,
    });

    expect((await get(`?Id=${email.TypeId}`).expect(200)).body).toEqual({ ConsentTypes: [email] });
    const all = await get().expect(200);
    expect(all.body.ConsentTypes.map((t: any) => t.TypeId)).toEqual(
      expect.arrayContaining([email.TypeId, terms.TypeId]),
    );
  });

  it('accepts the channel aliases and read-only fields, and refuses an unknown channel', async () => {
    const sms = await created({ ChannelId: 'Text/SMS', TypeId: 5000, Edited: { CreatedBy: 'x' } });
    expect(sms.ChannelId).toBe('SMS');
    expect(sms.TypeId).not.toBe(5000);
    expect(sms.Edited.CreatedBy).toBe(suite.tenant.userId);
    const fax = await post({ ConsentTypes: [consentType({ ChannelId: 'Fax' })] });
    expect(fax.status).toBe(400);
    expect(fax.body.Message).toContain('Invalid ConsentTypes[0].ChannelId (value "Fax")');
  });

  it('GET: unknown Id 404, malformed Id or flag 400', async () => {
    const res = await get('?Id=31337').expect(404);
    expect(res.body).toEqual({ Message: 'Consent type 31337 was not found' });
    await get('?Id=1.5').expect(400);
    const flag = await get('?latestVersionOnly=maybe').expect(400);
    expect(flag.body.Message).toBe(
      'Invalid latestVersionOnly (value "maybe"): must be true or false',
    );
  });

  it('latestVersionOnly returns the last published version of each type', async () => {
    const type = await created({ Versions: [version('1.0'), version('1.1')] });
    const latest = async () => {
      const res = await get(`?Id=${type.TypeId}&latestVersionOnly=true`).expect(200);
      return res.body.ConsentTypes[0].Versions.map((v: any) => v.ConsentVersion);
    };
    // Published together: the later in the list.
    expect(await latest()).toEqual(['1.1']);
    await publish(type.TypeId, version('2.0')).expect(201);
    expect(await latest()).toEqual(['2.0']);
    // Added last though it sorts first: the most recent is the last published.
    await patch(type.TypeId, [{ op: 'add', path: '/Versions/0', value: version('0.9') }]).expect(
      200,
    );
    expect(await latest()).toEqual(['0.9']);
    const all = await get(`?Id=${type.TypeId}&latestVersionOnly=FALSE`).expect(200);
    expect(all.body.ConsentTypes[0].Versions.map((v: any) => v.ConsentVersion)).toEqual([
      '0.9',
      '1.0',
      '1.1',
      '2.0',
    ]);
    const none = await created({ Versions: [] });
    const empty = await get(`?Id=${none.TypeId}&LatestVersionOnly=true`).expect(200);
    expect(empty.body.ConsentTypes[0].Versions).toEqual([]);
  });

  it('selects localized fields of the type and its versions by locale; 404 when none has any', async () => {
    const type = await created({
      LocalizedFields: [
        { Locale: 'en', Name: 'Marketing' },
        { Locale: 'fr-ca', Name: 'Marketing (CA)' },
      ],
      Versions: [version('1.0')],
    });
    const fr = await get(`?Id=${type.TypeId}&locale=fr`).expect(200);
    expect(fr.body.ConsentTypes[0].LocalizedFields).toEqual([
      { Locale: 'fr-ca', Name: 'Marketing (CA)', Description: null },
    ]);
    expect(fr.body.ConsentTypes[0].Versions[0].LocalizedFields).toEqual([
      {
        ConsentLanguage: "J'accepte (1.0)",
        Locale: 'fr',
        Name: 'Conditions',
        Description: null,
      },
    ]);
    const enGb = await get(`?Id=${type.TypeId}&locale=en-GB`).expect(200);
    expect(enGb.body.ConsentTypes[0].LocalizedFields.map((f: any) => f.Name)).toEqual([
      'Marketing',
    ]);
    expect(enGb.body.ConsentTypes[0].Versions[0].LocalizedFields).toEqual([]);
    // Only a version has German fields: the type still counts.
    const german = await created({
      Versions: [{ ConsentVersion: 'de', LocalizedFields: [{ Locale: 'de', Name: 'AGB' }] }],
    });
    const de = await get(`?locale=de&latestVersionOnly=true`).expect(200);
    const found = de.body.ConsentTypes.find((t: any) => t.TypeId === german.TypeId);
    expect(found.Versions[0].LocalizedFields).toEqual([
      { ConsentLanguage: null, Locale: 'de', Name: 'AGB', Description: null },
    ]);
    const none = await get('?locale=ja').expect(404);
    expect(none.body).toEqual({ Message: 'No consent type has localized fields for locale "ja"' });
  });

  it('refuses existing or repeated names and repeated versions with 409, creating nothing', async () => {
    const existing = await created({ TypeName: 'Newsletter consent' });
    const fresh = consentType();
    const res = await post({
      ConsentTypes: [fresh, consentType({ TypeName: 'NEWSLETTER  consent' })],
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ Message: `Consent type "${existing.TypeName}" already exists` });
    const twice = await post({
      ConsentTypes: [consentType({ TypeName: 'Twice' }), consentType({ TypeName: 'twice' })],
    });
    expect(twice.status).toBe(409);
    expect(twice.body.Message).toBe(
      'Consent type name "twice" is given more than once in the body',
    );
    const versions = await post({
      ConsentTypes: [consentType({ Versions: [version('1.0'), version(' 1.0')] })],
    });
    expect(versions.status).toBe(409);
    expect(versions.body.Message).toBe(
      'ConsentTypes[0].Versions names version " 1.0" more than once',
    );
    const names = (await get().expect(200)).body.ConsentTypes.map((t: any) => t.TypeName);
    expect(names).not.toContain(fresh.TypeName);
    expect(names).not.toContain('Twice');
  });

  it('validates the body and names field and value', async () => {
    const cases: [unknown, string][] = [
      [{ ConsentTypes: [{ IsActive: true }] }, 'Invalid ConsentTypes[0].TypeName (value missing)'],
      [{ ConsentTypes: [consentType({ TypeName: 'x'.repeat(101) })] }, 'ConsentTypes[0].TypeName'],
      [
        { ConsentTypes: [consentType({ Versions: [version('x'.repeat(51))] })] },
        'Invalid ConsentTypes[0].Versions[0].ConsentVersion',
      ],
      [
        { ConsentTypes: [consentType({ Versions: [{ ConsentVersion: '1' }] })] },
        'ConsentTypes[0].Versions[0].LocalizedFields',
      ],
      [
        { ConsentTypes: [consentType({ Versions: [version('1', { ExpirationInDays: -1 })] })] },
        'Invalid ConsentTypes[0].Versions[0].ExpirationInDays (value -1)',
      ],
      [
        {
          ConsentTypes: [
            consentType({
              Versions: [{ ConsentVersion: '1', LocalizedFields: [{ Locale: 'en' }] }],
            }),
          ],
        },
        'Invalid ConsentTypes[0].Versions[0].LocalizedFields[0].Name (value missing)',
      ],
      [
        { ConsentTypes: [consentType({ Attributes: [{ Key: 'A' }, { Key: 'a' }] })] },
        'Invalid ConsentTypes[0].Attributes[1].Key (value "a"): repeats Attributes[0].Key',
      ],
      [
        { ConsentTypes: [consentType({ Versions: [version('1', { Colour: 'red' })] })] },
        'Unknown field ConsentTypes[0].Versions[0].Colour',
      ],
      [{ ConsentTypes: [] }, 'ConsentTypes'],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.Message).toContain(message);
    }
  });

  it('PATCH (both routes) changes the type and its versions, keeping publication dates', async () => {
    const type = await created({ Attributes: [{ Key: 'Source', Value: 'Web' }] });
    const res = await patch(
      type.TypeId,
      [
        { op: 'replace', path: '/TypeName', value: 'Renamed consent' },
        { op: 'add', path: '/LocalizedFields/-', value: { Locale: 'en', Name: 'Renamed' } },
        { op: 'replace', path: '/Attributes/0/Value', value: 'Store' },
        { op: 'replace', path: '/Versions/0/IsActive', value: false },
        { op: 'replace', path: '/Versions/0/PublishedDate', value: '2000-01-01T00:00:00Z' },
        { op: 'replace', path: '/ChannelId', value: 'Phone' },
      ],
      'ConsentType',
    );
    expect(res.status).toBe(200);
    const updated = res.body.ConsentTypes[0];
    expect(updated).toEqual({
      ...type,
      TypeName: 'Renamed consent',
      LocalizedFields: [{ Locale: 'en', Name: 'Renamed', Description: null }],
      Attributes: [{ Key: 'Source', Value: 'Store' }],
      ChannelId: 'Phone',
      Versions: [
        {
          ...type.Versions[0],
          IsActive: false,
          PublishedDate: type.Versions[0].PublishedDate,
          Edited: { ...type.Versions[0].Edited, ModifiedDate: expect.any(String) },
        },
      ],
      Edited: { ...type.Edited, ModifiedDate: expect.any(String) },
    });
    expect((await get(`?Id=${type.TypeId}`).expect(200)).body.ConsentTypes[0]).toEqual(updated);
    // The old name stays the type's (stored consents may still carry it): no other type takes it.
    await post({ ConsentTypes: [consentType({ TypeName: type.TypeName })] }).expect(409);
    // Back to profile-only.
    const profileOnly = await patch(type.TypeId, [
      { op: 'replace', path: '/ChannelId', value: null },
    ]).expect(200);
    expect(profileOnly.body.ConsentTypes[0].ChannelId).toBeNull();
  });

  it('PATCH refuses taken names, duplicate or dropped versions, read-only fields and bad operations', async () => {
    const first = await created();
    const type = await created({ Versions: [version('1.0'), version('2.0')] });
    const taken = await patch(type.TypeId, [
      { op: 'replace', path: '/TypeName', value: first.TypeName.toLowerCase() },
    ]);
    expect(taken.status).toBe(409);
    expect(taken.body.Message).toBe(
      `Consent type "${first.TypeName.toLowerCase()}" already exists`,
    );

    const duplicate = await patch(type.TypeId, [
      { op: 'add', path: '/Versions/-', value: version('2.0') },
    ]);
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.Message).toBe(
      `Consent type "${type.TypeName}" already has version "2.0"`,
    );

    const cases: [unknown, string][] = [
      [[{ op: 'remove', path: '/Versions/1' }], 'Invalid Versions: version "2.0" of consent type'],
      [
        [{ op: 'replace', path: '/Versions/0/ConsentVersion', value: '1.5' }],
        'a published version is never removed or renamed',
      ],
      [[{ op: 'replace', path: '/TypeId', value: 1 }], 'Operations[0].path "/TypeId" is read-only'],
      [
        [{ op: 'replace', path: '/ChannelId', value: 'Pigeon' }],
        'Invalid ChannelId (value "Pigeon")',
      ],
      [
        [{ op: 'replace', path: '/Versions/0/ExpirationInDays', value: 'soon' }],
        'Versions[0].ExpirationInDays',
      ],
      [
        [
          { op: 'replace', path: '/TypeName', value: 'Never saved' },
          { op: 'test', path: '/IsActive', value: false },
        ],
        'Operations[1] (test /IsActive) was refused',
      ],
      [[{ op: 'copy', from: '/TypeName', path: '/X' }], 'not supported'],
      [{ op: 'replace' }, 'non-empty array'],
    ];
    for (const [body, message] of cases) {
      const res = await patch(type.TypeId, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.Message).toContain(message);
    }
    expect((await get(`?Id=${type.TypeId}`).expect(200)).body.ConsentTypes[0]).toEqual(type);
    await patch(987654, [{ op: 'replace', path: '/IsActive', value: false }]).expect(404);
    await patch('x1', [{ op: 'replace', path: '/IsActive', value: false }]).expect(400);
  });

  it('records each published version once in config_events, for create, PATCH and POST /Versions', async () => {
    const type = await created({ Versions: [version('1.0')] });
    const byPatch = await patch(type.TypeId, [
      { op: 'add', path: '/Versions/-', value: version('2.0') },
    ]);
    expect(byPatch.status).toBe(200);
    const byPost = await publish(
      type.TypeId,
      version('3.0', { ExpirationInDays: 30 }),
      'ConsentType',
    );
    expect(byPost.status).toBe(201);
    expect(byPost.body.ConsentTypes[0].Versions.map((v: any) => v.ConsentVersion)).toEqual([
      '1.0',
      '2.0',
      '3.0',
    ]);
    const third = byPost.body.ConsentTypes[0].Versions[2];
    expect(third.ExpirationInDays).toBe(30);
    const second = byPost.body.ConsentTypes[0].Versions[1];
    expect(third.PublishedDate > second.PublishedDate).toBe(true);
    // Changes that publish nothing record no version (a rename records its own event).
    await patch(type.TypeId, [
      { op: 'replace', path: '/Versions/0/IsActive', value: false },
    ]).expect(200);
    await patch(type.TypeId, [
      { op: 'replace', path: '/TypeName', value: 'Events renamed' },
    ]).expect(200);
    const renamed = (await eventsOf(type.TypeId)).filter(
      (event) => event.type === 'consent-type-renamed',
    );
    expect(renamed).toEqual([
      expect.objectContaining({ consentType: type.TypeName, typeId: type.TypeId }),
    ]);

    const events = (await eventsOf(type.TypeId)).filter(
      (event) => event.type === 'consent-version-published',
    );
    expect(events.map((event) => event.consentVersion).sort()).toEqual(['1.0', '2.0', '3.0']);
    const published = events.find((event) => event.consentVersion === '3.0');
    expect(published).toEqual({
      _id: `${suite.tenant.clientId}|consent-version|${type.TypeId}|3.0`,
      clientId: suite.tenant.clientId,
      type: 'consent-version-published',
      consentType: type.TypeName,
      typeId: type.TypeId,
      consentVersion: '3.0',
      at: new Date(third.PublishedDate),
      processedAt: null,
    });

    // A duplicate publication is refused and records nothing more.
    const again = await publish(type.TypeId, version('3.0'));
    expect(again.status).toBe(409);
    expect(await eventsOf(type.TypeId)).toHaveLength(4);

    // The worker marks events processed; they leave the pending list.
    const outbox = suite.app.api.get(ConfigEventOutbox);
    await outbox.markProcessed(published!._id);
    const left = await eventsOf(type.TypeId);
    expect(left.map((event) => event.consentVersion ?? event.type).sort()).toEqual([
      '1.0',
      '2.0',
      'consent-type-renamed',
    ]);
  });

  it('POST /Versions validates its body and answers 404 for an unknown type', async () => {
    const type = await created();
    const bad = await publish(type.TypeId, { ConsentVersion: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.Message).toContain('Invalid ConsentVersion (value "")');
    const unknown = await publish(424242, version('1.0'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ Message: 'Consent type 424242 was not found' });
  });

  it('deactivating a consent type removes it from the filters that require it, for good', async () => {
    const type = await created({ TypeName: 'Required marketing' });
    const { programId } = await programRequiring(type.TypeName);
    expect(await requiredConsentsOf(programId)).toEqual(['Required marketing']);

    await patch(type.TypeId, [{ op: 'replace', path: '/IsActive', value: false }]).expect(200);
    await eventually(async () =>
      (await requiredConsentsOf(programId)).length === 0 ? true : undefined,
    );
    // Reactivating it does not restore the requirement.
    await patch(type.TypeId, [{ op: 'replace', path: '/IsActive', value: true }]).expect(200);
    expect(await requiredConsentsOf(programId)).toEqual([]);
  });

  it('refuses to change the ChannelId of a consent type a filter requires', async () => {
    const type = await created({ TypeName: 'Locked channel', ChannelId: 'Email' });
    await programRequiring('locked CHANNEL');
    const res = await patch(type.TypeId, [{ op: 'replace', path: '/ChannelId', value: 'Phone' }]);
    expect(res.status).toBe(400);
    expect(res.body.Message).toBe(
      'Invalid ChannelId (value "Phone"): consent type "Locked channel" is required by a filter (RequiredPreferenceConsents), so its ChannelId cannot be changed',
    );
    await patch(type.TypeId, [{ op: 'replace', path: '/ChannelId', value: null }]).expect(400);
    // Other changes, and the same channel in another spelling, are fine.
    await patch(type.TypeId, [
      { op: 'replace', path: '/ChannelId', value: 'EMAIL' },
      { op: 'replace', path: '/IsDefault', value: true },
    ]).expect(200);
    expect((await get(`?Id=${type.TypeId}`).expect(200)).body.ConsentTypes[0].ChannelId).toBe(
      'Email',
    );
  });

  it('answers FindConsentTypeQuery and ConsentTypeCatalog lookups by name, case-insensitively', async () => {
    const type = await created({
      TypeName: 'Lookup Terms',
      ChannelId: 'SMS',
      Versions: [version('1.0', { ExpirationInDays: 10 }), version('2.0', { IsActive: false })],
    });
    const queries = suite.app.api.get(QueryBus);
    const found = await queries.execute(
      new FindConsentTypeQuery(suite.tenant.clientId, '  lookup   TERMS '),
    );
    expect(found).toMatchObject({
      TypeId: type.TypeId,
      TypeName: 'Lookup Terms',
      IsActive: true,
      ChannelId: 'SMS',
      Versions: [
        { ConsentVersion: '1.0', IsActive: true, ExpirationInDays: 10 },
        { ConsentVersion: '2.0', IsActive: false },
      ],
    });
    expect(
      await queries.execute(new FindConsentTypeQuery(suite.tenant.clientId, 'Nope')),
    ).toBeNull();
    expect(
      await queries.execute(new FindConsentTypeQuery('other-client', 'Lookup Terms')),
    ).toBeNull();

    const catalog = suite.app.api.get(ConsentTypeCatalog);
    const byId = await catalog.findById(suite.tenant.clientId, type.TypeId);
    expect(byId?.LatestVersion).toBe('2.0');
    expect(byId?.Versions[0].PublishedDate).toBe(type.Versions[0].PublishedDate);
    expect((await catalog.list(suite.tenant.clientId)).map((t) => t.TypeId)).toContain(type.TypeId);
    expect(await catalog.findByName(suite.tenant.clientId, 'lookup terms')).toEqual(byId);
  });

  it('keeps one client’s consent types invisible to another', async () => {
    const mine = await created({ TypeName: 'Private consent' });
    const other = await createTestTenant(suite.app);
    const otherAuth = await other.bearer();
    expect((await get('', otherAuth, other.clientId).expect(200)).body).toEqual({
      ConsentTypes: [],
    });
    await get(`?Id=${mine.TypeId}`, otherAuth, other.clientId).expect(404);
    const theirApi = suite.api(otherAuth, other.clientId);
    await theirApi
      .patch(`/ConsentTypes/${mine.TypeId}`, [{ op: 'replace', path: '/IsActive', value: false }])
      .expect(404);
    await theirApi.post(`/ConsentTypes/${mine.TypeId}/Versions`, version('9.9')).expect(404);
    const theirs = await theirApi
      .post('/ConsentTypes', { ConsentTypes: [consentType({ TypeName: 'Private consent' })] })
      .expect(201);
    expect(theirs.body.ConsentTypes[0].TypeId).toBe(1);
    const still = (await get(`?Id=${mine.TypeId}`).expect(200)).body.ConsentTypes[0];
    expect(still).toEqual(mine);
  });

  it('needs configuration read to list and configuration write to create, update or publish', async () => {
    const type = await created();
    const reader = await configReaderBearer(suite.app, suite.tenant);
    const readerApi = suite.api(reader);
    await get('', reader).expect(200);
    await readerApi.post('/ConsentTypes', { ConsentTypes: [consentType()] }).expect(403);
    await readerApi
      .patch(`/ConsentType/${type.TypeId}`, [{ op: 'replace', path: '/IsActive', value: false }])
      .expect(403);
    await readerApi.post(`/ConsentTypes/${type.TypeId}/Versions`, version('5.0')).expect(403);
    expect(await eventsOf(type.TypeId)).toHaveLength(1);
  });

  it('keeps every one of several concurrent publications, each recorded once', async () => {
    const type = await created({ Versions: [] });
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    const responses = await Promise.all(
      names.map((name, index) =>
        index % 2
          ? publish(type.TypeId, version(name))
          : patch(type.TypeId, [{ op: 'add', path: '/Versions/-', value: version(name) }]),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 201, 200, 201, 200, 201]);
    const stored = (await get(`?Id=${type.TypeId}`).expect(200)).body.ConsentTypes[0];
    expect(stored.Versions.map((v: any) => v.ConsentVersion).sort()).toEqual(names);
    const events = await eventsOf(type.TypeId);
    expect(events.map((event) => event.consentVersion).sort()).toEqual(names);
    const all = await get().expect(200);
    expect(all.body.ConsentTypes.filter((t: any) => t.TypeId === type.TypeId)).toEqual([stored]);
  });
});
