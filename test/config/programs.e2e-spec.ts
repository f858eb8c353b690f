import request from 'supertest';
import { QueryBus } from '@nestjs/cqrs';
import { IsConsentTypeRequiredQuery } from '@app/config/common/cross-area';
import { ProgramCatalog } from '@app/config/programs';
import { editedBy } from '../harness/configuration';
import {
  configReaderBearer,
  createTestTenant,
  tenantApi,
  type TenantApi,
  type TestTenant,
} from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

type Op = { op: string; path: string; value?: unknown; from?: string };

/** A client of the API for one tenant, as its administrator. */
interface Client extends TenantApi {
  clientId: string;
  tenant: TestTenant;
}

const kv = (entries: Record<string, string | undefined>) =>
  Object.entries(entries).map(([Key, Value]) => (Value === undefined ? { Key } : { Key, Value }));

const filter = (Name: string, extra: Record<string, unknown> = {}) => ({
  Name,
  ChannelID: 'Email',
  ...extra,
});

const program = (Name: string, extra: Record<string, unknown> = {}) => ({
  Name,
  ProgramType: 'Marketing',
  ...extra,
});

const names = (entries: { Name: string }[]) => entries.map((entry) => entry.Name);

describe('Programs, filters, program groups, custom properties, required consents', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
  });

  afterAll(async () => {
    await app?.close();
  });

  async function newClient(): Promise<Client> {
    const tenant = await createTestTenant(app);
    const api = tenantApi(app, tenant.clientId, await tenant.bearer());
    return { ...api, clientId: tenant.clientId, tenant };
  }

  async function createPrograms(client: Client, programs: object[]): Promise<any[]> {
    const response = await client.post('/Programs', { Programs: programs });
    if (response.status !== 201) {
      throw new Error(`create programs: ${response.status} ${JSON.stringify(response.body)}`);
    }
    return response.body.Programs;
  }

  async function createGroups(client: Client, groups: object[]): Promise<any[]> {
    const response = await client.post('/ProgramGroups', { ProgramGroups: groups });
    if (response.status !== 201) {
      throw new Error(`create groups: ${response.status} ${JSON.stringify(response.body)}`);
    }
    return response.body.ProgramGroups;
  }

  /** Creates a consent type through the consent-types area; answers its TypeId. */
  async function createConsentType(client: Client, TypeName: string, IsActive = true) {
    const response = await client.post('/ConsentTypes', {
      ConsentTypes: [
        {
          TypeName,
          IsActive,
          Versions: [
            {
              ConsentVersion: '1',
              IsActive: true,
              LocalizedFields: [
                { Locale: 'en-us', Name: TypeName, ConsentLanguage: `I agree to ${TypeName}` },
              ],
            },
          ],
        },
      ],
    });
    if (response.status !== 201) {
      throw new Error(
        `POST ConsentTypes (consent-types area) answered ${response.status} ${JSON.stringify(response.body)}`,
      );
    }
    return response.body.ConsentTypes[0].TypeId as number;
  }

  async function setConsentTypeActive(client: Client, typeId: number, value: boolean) {
    const response = await client.patch(`/ConsentTypes/${typeId}`, [
      { op: 'replace', path: '/IsActive', value },
    ]);
    if (response.status !== 200) {
      throw new Error(
        `PATCH ConsentTypes (consent-types area) answered ${response.status} ${JSON.stringify(response.body)}`,
      );
    }
  }

  describe('create and list', () => {
    let client: Client;

    beforeAll(async () => {
      client = await newClient();
    });

    it('creates programs with filters, storing canonical program types and channels', async () => {
      const response = await client.post('/Programs', {
        Programs: [
          program('Newsletter', {
            Description: 'Monthly news',
            CustomProperties: kv({ Jurisdiction: 'EU' }),
            Locales: [{ ID: 'en-us', DisplayTags: kv({ Title: 'Newsletter' }) }],
            Filters: [
              filter('News by email', {
                DefaultLocaleID: 'en-us',
                DefaultPreferenceValue: 1,
                OptInCustomerExpirationDays: 365,
                OptOutCustomerExpirationDays: 0,
                OptInNonCustomerExpirationDays: 30,
                OptOutNonCustomerExpirationDays: 10,
                FrequencyLocales: [
                  {
                    ID: 'en-us',
                    Frequencies: [
                      { ID: 'Weekly', DisplayName: 'Weekly', IsDefault: true, DisplayOrder: 1 },
                      { ID: 'Monthly', DisplayName: 'Monthly', DisplayOrder: 2 },
                    ],
                  },
                ],
                PreferenceAttributes: [{ ID: 'Source', DisplayOrder: 1, IsRequired: true }],
              }),
              filter('News by text', { ChannelID: 'sms', ID: 99, OptInPreferenceCount: 5 }),
            ],
          }),
          program('Do not call', {
            ProgramType: 'dnc',
            Filters: [filter('Calls', { ChannelID: 'PHONE' })],
          }),
          program('Receipts', { ProgramType: 'transactional', IsActive: false }),
        ],
      });
      expect(response.status).toBe(201);
      const [news, dnc, receipts] = response.body.Programs;
      expect(news).toEqual({
        Id: expect.any(Number),
        Name: 'Newsletter',
        Description: 'Monthly news',
        ProgramType: 'Marketing',
        IsActive: true,
        CustomProperties: [{ Key: 'Jurisdiction', Value: 'EU' }],
        Locales: [{ ID: 'en-us', DisplayTags: [{ Key: 'Title', Value: 'Newsletter' }] }],
        Filters: [
          {
            ID: expect.any(Number),
            ProgramID: news.Id,
            Name: 'News by email',
            ChannelID: 'Email',
            DefaultLocaleID: 'en-us',
            DefaultPreferenceValue: 1,
            OptInCustomerExpirationDays: 365,
            OptOutCustomerExpirationDays: 0,
            OptInNonCustomerExpirationDays: 30,
            OptOutNonCustomerExpirationDays: 10,
            CustomProperties: [],
            Locales: [],
            FrequencyLocales: [
              {
                ID: 'en-us',
                Frequencies: [
                  { ID: 'Weekly', DisplayName: 'Weekly', IsDefault: true, DisplayOrder: 1 },
                  { ID: 'Monthly', DisplayName: 'Monthly', DisplayOrder: 2 },
                ],
              },
            ],
            PreferenceAttributes: [{ ID: 'Source', DisplayOrder: 1, IsRequired: true }],
            RequiredPreferenceConsents: [],
            IsActive: true,
          },
          expect.objectContaining({ Name: 'News by text', ChannelID: 'Text/SMS', IsActive: true }),
        ],
        Edited: editedBy(client.tenant.userId),
      });
      expect(news.Filters[1].ID).not.toBe(news.Filters[0].ID);
      expect(news.Filters[1]).not.toHaveProperty('OptInPreferenceCount');
      expect(dnc).toMatchObject({
        ProgramType: 'Do Not Contact (DNC)',
        Filters: [{ ChannelID: 'Phone' }],
      });
      expect(receipts).toMatchObject({
        ProgramType: 'Transactional',
        IsActive: false,
        Filters: [],
      });

      const listed = await client.get('/Programs');
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({ Programs: [news, dnc, receipts] });
    });

    it('GET by Id answers one program; an unknown Id is 404, a malformed one 400', async () => {
      const [mine] = await createPrograms(client, [program('Read by id')]);
      const all = (await client.get('/Programs')).body.Programs;
      const one = await client.get(`/Programs?Id=${mine.Id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ Programs: [mine] });
      expect((await client.get('/Programs?Id=0')).body.Programs).toHaveLength(all.length);
      const unknown = await client.get('/Programs?Id=9999');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ Message: 'Program 9999 was not found' });
      const bad = await client.get('/Programs?Id=abc');
      expect(bad.status).toBe(400);
      expect(bad.body.Message).toContain('Invalid Id (value "abc")');
    });

    it('refuses invalid bodies with 400 naming the field, and creates nothing', async () => {
      const before = (await client.get('/Programs')).body.Programs.length;
      const cases: [object, string][] = [
        [{ Programs: [{ ProgramType: 'Marketing' }] }, 'Programs[0].Name'],
        [{ Programs: [program(' ')] }, 'Invalid Programs[0].Name (value " ")'],
        [
          { Programs: [program('X', { ProgramType: 'Promo' })] },
          'Invalid Programs[0].ProgramType (value "Promo")',
        ],
        [
          { Programs: [program('X', { Filters: [filter('F', { ChannelID: 'Fax' })] })] },
          'Invalid Programs[0].Filters[0].ChannelID (value "Fax")',
        ],
        [{ Programs: [program('X', { Colour: 'red' })] }, 'Unknown field Programs[0].Colour'],
        [
          { Programs: [program('X', { CustomProperties: kv({ A: '1', a: '2' }) })] },
          'Invalid Programs[0].CustomProperties[1].Key (value "a"): repeats Programs[0].CustomProperties[0].Key',
        ],
        [
          { Programs: [program('X', { Locales: [{ ID: 'english' }] })] },
          'Invalid Programs[0].Locales[0].ID (value "english")',
        ],
        [
          {
            Programs: [
              program('X', {
                Filters: [
                  filter('F', {
                    FrequencyLocales: [
                      {
                        ID: 'en',
                        Frequencies: [
                          { ID: 'A', IsDefault: true },
                          { ID: 'B', IsDefault: true },
                        ],
                      },
                    ],
                  }),
                ],
              }),
            ],
          },
          'at most one frequency per locale may have IsDefault true',
        ],
        [
          {
            Programs: [
              program('X', {
                Filters: [
                  filter('F', {
                    FrequencyLocales: [{ ID: 'en', Frequencies: [{ ID: 'x'.repeat(21) }] }],
                  }),
                ],
              }),
            ],
          },
          'Invalid Programs[0].Filters[0].FrequencyLocales[0].Frequencies[0].ID',
        ],
        [
          {
            Programs: [
              program('X', { Filters: [filter('F', { OptInCustomerExpirationDays: -1 })] }),
            ],
          },
          'OptInCustomerExpirationDays',
        ],
        [{ Programs: [] }, 'Programs'],
        [{}, 'Programs'],
      ];
      for (const [body, message] of cases) {
        const response = await client.post('/Programs', body);
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        expect(response.body.Message).toContain(message);
      }
      expect((await client.get('/Programs')).body.Programs).toHaveLength(before);
    });

    it('answers 409 for a taken or repeated name (case-insensitive), creating nothing', async () => {
      await createPrograms(client, [program('Taken name')]);
      const before = (await client.get('/Programs')).body.Programs.length;
      const taken = await client.post('/Programs', {
        Programs: [program('Fresh one'), program('  TAKEN name ')],
      });
      expect(taken.status).toBe(409);
      expect(taken.body.Message).toContain('Programs[1].Name "  TAKEN name " already exists');
      const repeated = await client.post('/Programs', {
        Programs: [program('Twice'), program('twice')],
      });
      expect(repeated.status).toBe(409);
      expect(repeated.body.Message).toContain('repeats Programs[0].Name');
      const filters = await client.post('/Programs', {
        Programs: [program('Filters twice', { Filters: [filter('Same'), filter('SAME')] })],
      });
      expect(filters.status).toBe(409);
      expect(filters.body.Message).toContain('Programs[0].Filters[1].Name');
      expect((await client.get('/Programs')).body.Programs).toHaveLength(before);
      // The names refused above are free.
      await createPrograms(client, [program('Fresh one'), program('Twice')]);
    });
  });

  describe('text tags by locale and programs by type', () => {
    let client: Client;

    beforeAll(async () => {
      client = await newClient();
      await createPrograms(client, [
        program('Offers', {
          Locales: [
            { ID: 'en-us', DisplayTags: kv({ Title: 'Offers' }) },
            { ID: 'fr', DisplayTags: kv({ Title: 'Offres' }) },
          ],
          Filters: [
            filter('Offers by email', {
              Locales: [
                { ID: 'en', DisplayTags: kv({ Label: 'Email' }) },
                { ID: 'fr-ca', DisplayTags: kv({ Label: 'Courriel' }) },
              ],
              FrequencyLocales: [
                { ID: 'en-us', Frequencies: [{ ID: 'Weekly' }] },
                { ID: 'fr', Frequencies: [{ ID: 'Hebdo' }] },
              ],
            }),
          ],
        }),
        program('Opt out', { ProgramType: 'Do Not Contact' }),
      ]);
    });

    it('localeId limits text tags of programs and filters to one locale', async () => {
      const response = await client.get('/Programs?localeId=fr-CA');
      expect(response.status).toBe(200);
      const [offers, optOut] = response.body.Programs;
      // fr-ca falls back to fr for the program; the filter has fr-ca itself.
      expect(offers.Locales).toEqual([
        { ID: 'fr', DisplayTags: [{ Key: 'Title', Value: 'Offres' }] },
      ]);
      expect(offers.Filters[0].Locales).toEqual([
        { ID: 'fr-ca', DisplayTags: [{ Key: 'Label', Value: 'Courriel' }] },
      ]);
      expect(offers.Filters[0].FrequencyLocales).toEqual([
        { ID: 'fr', Frequencies: [{ ID: 'Hebdo' }] },
      ]);
      expect(optOut.Locales).toEqual([]);

      const english = (await client.get('/Programs?localeId=en-us')).body.Programs[0];
      expect(english.Locales.map((l: any) => l.ID)).toEqual(['en-us']);
      expect(english.Filters[0].Locales.map((l: any) => l.ID)).toEqual(['en']);

      // `locale` is another name of localeId; without either, every locale is returned.
      const alias = await client.get('/Programs?locale=fr');
      expect(alias.body.Programs[0].Locales.map((l: any) => l.ID)).toEqual(['fr']);
      const all = await client.get('/Programs');
      expect(all.body.Programs[0].Locales).toHaveLength(2);
    });

    it('answers 404 when no program or filter has text tags for the locale, 400 for a malformed one', async () => {
      const none = await client.get('/Programs?localeId=de');
      expect(none.status).toBe(404);
      expect(none.body).toEqual({ Message: 'No program or filter has text tags for locale "de"' });
      const bad = await client.get('/Programs?localeId=not_a_locale');
      expect(bad.status).toBe(400);
      expect(bad.body.Message).toContain('Invalid localeId (value "not_a_locale")');
    });

    it('lists programs by program type, with aliases, any case, and a locale', async () => {
      const marketing = await client.get('/Programs/ProgramType/marketing');
      expect(marketing.status).toBe(200);
      expect(names(marketing.body.Programs)).toEqual(['Offers']);
      for (const type of ['Do Not Contact (DNC)', 'DNC', 'do not contact']) {
        const response = await client.get(`/Programs/ProgramType/${encodeURIComponent(type)}`);
        expect({ type, status: response.status }).toEqual({ type, status: 200 });
        expect(names(response.body.Programs)).toEqual(['Opt out']);
        expect(response.body.Programs[0].ProgramType).toBe('Do Not Contact (DNC)');
      }
      const empty = await client.get('/Programs/ProgramType/Consent');
      expect(empty.body).toEqual({ Programs: [] });
      const localized = await client.get('/Programs/ProgramType/Marketing?locale=en');
      expect(localized.body.Programs[0].Locales.map((l: any) => l.ID)).toEqual(['en-us']);
      const unknown = await client.get('/Programs/ProgramType/Promotional');
      expect(unknown.status).toBe(400);
      expect(unknown.body.Message).toContain('Invalid programTypeId (value "Promotional")');
    });
  });

  describe('updates', () => {
    let client: Client;
    let news: any;

    beforeAll(async () => {
      client = await newClient();
      [news] = await createPrograms(client, [
        program('News', {
          Filters: [filter('News email'), filter('News text', { ChannelID: 'Text' })],
        }),
        program('Alerts', { Filters: [filter('Alerts email')] }),
      ]);
    });

    it('PATCH changes a program and its filters, adds a filter, and answers the program', async () => {
      const response = await client.patch(`/Programs/${news.Id}`, [
        { op: 'test', path: '/Name', value: 'News' },
        { op: 'replace', path: '/Name', value: 'Daily news' },
        { op: 'add', path: '/CustomProperties/-', value: { Key: 'Tier', Value: 'Gold' } },
        { op: 'replace', path: '/Filters/1/ChannelID', value: 'SMS' },
        { op: 'replace', path: '/Filters/0/Name', value: 'Daily email' },
        { op: 'add', path: '/Filters/-', value: filter('Daily post', { ChannelID: 'Mail' }) },
      ]);
      expect(response.status).toBe(200);
      const [updated] = response.body.Programs;
      expect(updated).toMatchObject({
        Id: news.Id,
        Name: 'Daily news',
        CustomProperties: [{ Key: 'Tier', Value: 'Gold' }],
        Filters: [
          { ID: news.Filters[0].ID, Name: 'Daily email' },
          { ID: news.Filters[1].ID, Name: 'News text', ChannelID: 'Text/SMS' },
          { ID: expect.any(Number), Name: 'Daily post', ChannelID: 'Mail', ProgramID: news.Id },
        ],
      });
      expect(updated.Filters[2].ID).not.toBe(news.Filters[1].ID);
      expect(updated.Edited.CreateDate).toBe(news.Edited.CreateDate);
      expect(updated.Edited.ModifiedDate >= news.Edited.ModifiedDate).toBe(true);
      expect((await client.get(`/Programs?Id=${news.Id}`)).body.Programs[0]).toEqual(updated);
      news = updated;
      // The old name is free again.
      await createPrograms(client, [program('News')]);
    });

    /**
     * A client of its own with the programs as the first test leaves them ("Daily news" with
     * Daily email, News text and Daily post; "Alerts"), and with `digest` the two filters the
     * POST test adds: each later test starts from this, so that it also runs alone.
     */
    async function afterRename(digest = false): Promise<{ client: Client; news: any }> {
      const own = await newClient();
      const [daily] = await createPrograms(own, [
        program('Daily news', {
          CustomProperties: kv({ Tier: 'Gold' }),
          Filters: [
            filter('Daily email'),
            filter('News text', { ChannelID: 'Text' }),
            filter('Daily post', { ChannelID: 'Mail' }),
          ],
        }),
        program('Alerts', { Filters: [filter('Alerts email')] }),
      ]);
      if (digest) {
        const added = await own.post(`/Programs/${daily.Id}/Filters`, {
          Filters: [
            filter('Weekly digest', { CustomProperties: kv({ OnlineOnly: 'True' }) }),
            filter('Solicit', { ChannelID: 'solicit' }),
          ],
        });
        expect(added.status).toBe(201);
      }
      return { client: own, news: (await own.get(`/Programs?Id=${daily.Id}`)).body.Programs[0] };
    }

    it('PATCH refusals: 400 for bad operations or results, 404 unknown, 409 taken name', async () => {
      const { client, news } = await afterRename();
      const cases: [Op[] | unknown, number, string][] = [
        [[{ op: 'replace', path: '/Id', value: 5 }], 400, 'Operations[0].path "/Id" is read-only'],
        [[{ op: 'replace', path: '/Edited', value: {} }], 400, 'read-only'],
        [
          [{ op: 'move', from: '/Name', path: '/Description' }],
          400,
          'move and copy are not supported',
        ],
        [[{ op: 'jump', path: '/Name' }], 400, 'Invalid Operations[0].op (value "jump")'],
        [[], 400, 'non-empty array of PATCH operations'],
        [{ op: 'replace' }, 400, 'non-empty array of PATCH operations'],
        [
          [{ op: 'replace', path: '/ProgramType', value: 'Promo' }],
          400,
          'Invalid ProgramType (value "Promo")',
        ],
        [[{ op: 'add', path: '/Colour', value: 'red' }], 400, 'Unknown field Colour'],
        [
          [{ op: 'remove', path: '/Filters/0' }],
          400,
          'cannot be removed: set its IsActive to false',
        ],
        [
          [{ op: 'replace', path: '/Filters/0/ID', value: 424242 }],
          400,
          'Invalid Filters[0].ID (value 424242)',
        ],
        [
          [{ op: 'add', path: '/Filters/-', value: filter('daily EMAIL') }],
          409,
          'repeats Filters[0].Name',
        ],
        [
          [{ op: 'replace', path: '/Name', value: 'alerts' }],
          409,
          'Name "alerts" already belongs to another program',
        ],
        [
          [
            { op: 'replace', path: '/Name', value: 'Changed' },
            { op: 'test', path: '/IsActive', value: false },
          ],
          400,
          'test failed',
        ],
      ];
      for (const [ops, status, message] of cases) {
        const response = await client.patch(`/Programs/${news.Id}`, ops);
        expect({ ops, status: response.status }).toEqual({ ops, status });
        expect(response.body.Message).toContain(message);
      }
      expect((await client.get(`/Programs?Id=${news.Id}`)).body.Programs[0]).toEqual(news);
      const unknown = await client.patch('/Programs/9999', [
        { op: 'replace', path: '/Name', value: 'x' },
      ]);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ Message: 'Program 9999 was not found' });
      const badId = await client.patch('/Programs/abc', [
        { op: 'replace', path: '/Name', value: 'x' },
      ]);
      expect(badId.status).toBe(400);
      expect(badId.body.Message).toContain('Invalid programId (value "abc")');
    });

    it('a filter can be deactivated through the program PATCH', async () => {
      const { client, news } = await afterRename();
      const response = await client.patch(`/Programs/${news.Id}`, [
        { op: 'replace', path: '/Filters/2/IsActive', value: false },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.Programs[0].Filters[2].IsActive).toBe(false);
    });

    it('POST Programs/{id}/Filters adds filters (201); names are unique within the program', async () => {
      const { client, news } = await afterRename();
      const response = await client.post(`/Programs/${news.Id}/Filters`, {
        Filters: [
          filter('Weekly digest', { CustomProperties: kv({ OnlineOnly: 'True' }) }),
          filter('Solicit', { ChannelID: 'solicit' }),
        ],
      });
      expect(response.status).toBe(201);
      expect(response.body.Filters).toEqual([
        expect.objectContaining({
          Name: 'Weekly digest',
          ProgramID: news.Id,
          ID: expect.any(Number),
        }),
        expect.objectContaining({ Name: 'Solicit', ChannelID: 'Solicit' }),
      ]);
      const program = (await client.get(`/Programs?Id=${news.Id}`)).body.Programs[0];
      expect(names(program.Filters)).toEqual([
        'Daily email',
        'News text',
        'Daily post',
        'Weekly digest',
        'Solicit',
      ]);

      const taken = await client.post(`/Programs/${news.Id}/Filters`, {
        Filters: [filter('WEEKLY digest')],
      });
      expect(taken.status).toBe(409);
      expect(taken.body.Message).toContain(
        'Filters[0].Name "WEEKLY digest" already exists in program',
      );
      const repeated = await client.post(`/Programs/${news.Id}/Filters`, {
        Filters: [filter('A'), filter('a')],
      });
      expect(repeated.status).toBe(409);
      const invalid = await client.post(`/Programs/${news.Id}/Filters`, {
        Filters: [{ Name: 'No channel' }],
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.Message).toContain('Filters[0].ChannelID');
      const unknown = await client.post('/Programs/9999/Filters', { Filters: [filter('X')] });
      expect(unknown.status).toBe(404);
      // Another program may use the same filter name.
      const alerts = (await client.get('/Programs')).body.Programs.find(
        (p: any) => p.Name === 'Alerts',
      );
      const same = await client.post(`/Programs/${alerts.Id}/Filters`, {
        Filters: [filter('Weekly digest')],
      });
      expect(same.status).toBe(201);
    });

    it('PATCH Filters/{id} changes one filter', async () => {
      const { client, news } = await afterRename(true);
      const target = news.Filters[3];
      const response = await client.patch(`/Filters/${target.ID}`, [
        { op: 'replace', path: '/Description', value: 'Once a week' },
        { op: 'replace', path: '/ChannelID', value: 'text' },
        { op: 'add', path: '/PreferenceAttributes', value: [{ ID: 'Topic', IsRequired: false }] },
      ]);
      expect(response.body).toEqual({
        Filters: [
          {
            ...target,
            Description: 'Once a week',
            ChannelID: 'Text/SMS',
            PreferenceAttributes: [{ ID: 'Topic', IsRequired: false }],
          },
        ],
      });
      const program = (await client.get(`/Programs?Id=${news.Id}`)).body.Programs[0];
      expect(program.Filters[3]).toEqual(response.body.Filters[0]);
      expect(program.Edited.ModifiedDate >= news.Edited.ModifiedDate).toBe(true);
    });

    it('PATCH Filters/{id} refusals', async () => {
      const { client, news } = await afterRename(true);
      const target = news.Filters[3];
      const cases: [Op[], number, string][] = [
        [[{ op: 'replace', path: '/ID', value: 1 }], 400, 'read-only'],
        [[{ op: 'replace', path: '/ProgramID', value: 1 }], 400, 'read-only'],
        [
          [{ op: 'replace', path: '/ChannelID', value: 'Pigeon' }],
          400,
          'Invalid ChannelID (value "Pigeon")',
        ],
        [[{ op: 'remove', path: '/Name' }], 400, 'Name'],
        [
          [{ op: 'replace', path: '/Name', value: 'daily email' }],
          409,
          'already belongs to filter',
        ],
      ];
      for (const [ops, status, message] of cases) {
        const response = await client.patch(`/Filters/${target.ID}`, ops);
        expect({ ops, status: response.status }).toEqual({ ops, status });
        expect(response.body.Message).toContain(message);
      }
      const unknown = await client.patch('/Filters/9999', [
        { op: 'replace', path: '/Name', value: 'x' },
      ]);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ Message: 'Filter 9999 was not found' });
    });
  });

  describe('IncludeMatching and IncludeAll', () => {
    let client: Client;
    let eu: any;
    let us: any;
    let prospects: any;

    beforeAll(async () => {
      client = await newClient();
      [eu, us, prospects] = await createPrograms(client, [
        program('EU news', {
          CustomProperties: kv({ Jurisdiction: 'EU' }),
          Filters: [
            filter('EU online', { CustomProperties: kv({ OnlineOnly: 'True' }) }),
            filter('EU offline', { CustomProperties: kv({ OnlineOnly: 'False' }) }),
            filter('EU plain'),
            filter('EU but US', { CustomProperties: kv({ Jurisdiction: 'US' }) }),
          ],
        }),
        program('US news', {
          CustomProperties: kv({ Jurisdiction: 'US', LifeCycleStage: 'Active' }),
          Filters: [filter('US email')],
        }),
        program('Prospects', {
          Filters: [
            filter('Prospect email', { CustomProperties: kv({ LifeCycleStage: 'Prospect' }) }),
            filter('Prospect post', { ChannelID: 'Mail' }),
          ],
        }),
      ]);
    });

    const matching = async (query: string) => {
      const response = await client.get(`/Programs/IncludeMatching${query}`);
      expect(response.status).toBe(200);
      return response.body.Programs.map((p: any) => [p.Name, names(p.Filters)]);
    };
    const all = async (query: string) => {
      const response = await client.get(`/Programs/IncludeAll${query}`);
      expect(response.status).toBe(200);
      return response.body.Programs.map((p: any) => [p.Name, names(p.Filters)]);
    };

    it('a name with a value matches that value, case-insensitively; filters inherit it', async () => {
      const expected = [['EU news', ['EU online', 'EU offline', 'EU plain']]];
      expect(await matching('?Jurisdiction=EU')).toEqual(expected);
      expect(await matching('?jurisdiction=eu')).toEqual(expected);
      expect(await all('?Jurisdiction=EU')).toEqual([['EU news', names(eu.Filters)]]);
    });

    it('a name without a value matches any value', async () => {
      const expected = [
        ['US news', ['US email']],
        ['Prospects', ['Prospect email']],
      ];
      expect(await matching('?LifeCycleStage')).toEqual(expected);
      expect(await matching('?LifeCycleStage=')).toEqual(expected);
      expect(await all('?LifeCycleStage')).toEqual([
        ['US news', names(us.Filters)],
        ['Prospects', names(prospects.Filters)],
      ]);
    });

    it('several criteria must all hold; IncludeAll returns the same programs with every filter', async () => {
      expect(await matching('?Jurisdiction=EU&OnlineOnly=True')).toEqual([
        ['EU news', ['EU online']],
      ]);
      expect(await all('?Jurisdiction=EU&OnlineOnly=True')).toEqual([
        ['EU news', names(eu.Filters)],
      ]);
      expect(await matching('?Jurisdiction=EU&OnlineOnly')).toEqual([
        ['EU news', ['EU online', 'EU offline']],
      ]);
      expect(await matching('?Jurisdiction=US&LifeCycleStage=Active')).toEqual([
        ['US news', ['US email']],
      ]);
      // The filter overriding Jurisdiction matches US, so its program comes along.
      expect(await matching('?Jurisdiction=US')).toEqual([
        ['EU news', ['EU but US']],
        ['US news', ['US email']],
      ]);
      expect(await matching('?Jurisdication=EU&OnlineOnly=True&LifeCycleStage')).toEqual([]);
    });

    it('no match answers 200 with an empty list; no criterion returns everything', async () => {
      expect(await matching('?Jurisdiction=APAC')).toEqual([]);
      expect(await all('?Unknown')).toEqual([]);
      expect((await all('')).map((entry: any) => entry[0])).toEqual([
        'EU news',
        'US news',
        'Prospects',
      ]);
    });

    it('answers full program entries', async () => {
      const response = await client.get('/Programs/IncludeMatching?OnlineOnly=True');
      expect(response.body).toEqual({ Programs: [{ ...eu, Filters: [eu.Filters[0]] }] });
    });
  });

  describe('program groups', () => {
    let client: Client;
    let p1: any;
    let p2: any;
    let p3: any;
    let acme: any;
    let europe: any;
    let other: any;

    beforeAll(async () => {
      client = await newClient();
      [p1, p2, p3] = await createPrograms(client, [
        program('P1', {
          CustomProperties: kv({ Jurisdiction: 'EU' }),
          Filters: [
            filter('P1 online', { CustomProperties: kv({ OnlineOnly: 'True' }) }),
            filter('P1 offline', { CustomProperties: kv({ OnlineOnly: 'False' }) }),
          ],
        }),
        program('P2', { Filters: [filter('P2 email')] }),
        program('P3', { Filters: [filter('P3 email')] }),
      ]);
      [europe] = await createGroups(client, [
        { Name: 'Europe', CustomProperties: kv({ Region: 'EU' }), ProgramIds: [p1.Id] },
      ]);
      [acme, other] = await createGroups(client, [
        {
          Name: 'Acme',
          Description: 'Acme brand',
          CustomProperties: kv({ Brand: 'Acme' }),
          ProgramIds: [p3.Id],
          ProgramGroupIds: [europe.Id],
        },
        { Name: 'Other', CustomProperties: kv({ Brand: 'Other' }), ProgramIds: [p2.Id] },
      ]);
    });

    it('creates groups (201) and lists them, also by Id', async () => {
      expect(acme).toEqual({
        Id: expect.any(Number),
        Name: 'Acme',
        Description: 'Acme brand',
        IsActive: true,
        CustomProperties: [{ Key: 'Brand', Value: 'Acme' }],
        ProgramIds: [p3.Id],
        ProgramGroupIds: [europe.Id],
        Edited: editedBy(client.tenant.userId),
      });
      const list = await client.get('/ProgramGroups');
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ ProgramGroups: [europe, acme, other] });
      const one = await client.get(`/ProgramGroups?Id=${acme.Id}`);
      expect(one.body).toEqual({ ProgramGroups: [acme] });
      const unknown = await client.get('/ProgramGroups?Id=999');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ Message: 'Program group 999 was not found' });
    });

    it('refuses duplicate names (409), unknown or repeated members and bad bodies (400)', async () => {
      const taken = await client.post('/ProgramGroups', { ProgramGroups: [{ Name: 'ACME' }] });
      expect(taken.status).toBe(409);
      expect(taken.body.Message).toContain('ProgramGroups[0].Name "ACME" already exists');
      const repeated = await client.post('/ProgramGroups', {
        ProgramGroups: [{ Name: 'N' }, { Name: 'n' }],
      });
      expect(repeated.status).toBe(409);
      const cases: [object, string][] = [
        [
          { ProgramGroups: [{ Name: 'G', ProgramIds: [999] }] },
          'Invalid ProgramGroups[0].ProgramIds[0] (value 999): no program has this id',
        ],
        [
          { ProgramGroups: [{ Name: 'G', ProgramGroupIds: [999] }] },
          'Invalid ProgramGroups[0].ProgramGroupIds[0] (value 999): no program group has this id',
        ],
        [
          { ProgramGroups: [{ Name: 'G', ProgramIds: [p1.Id, p1.Id] }] },
          'Invalid ProgramGroups[0].ProgramIds[1]',
        ],
        [{ ProgramGroups: [{ Name: 'G', ProgramIds: ['1'] }] }, 'ProgramGroups[0].ProgramIds'],
        [
          { ProgramGroups: [{ Name: 'G', Programs: [] }] },
          'Unknown field ProgramGroups[0].Programs',
        ],
        [{ ProgramGroups: [{}] }, 'ProgramGroups[0].Name'],
      ];
      for (const [body, message] of cases) {
        const response = await client.post('/ProgramGroups', body);
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        expect(response.body.Message).toContain(message);
      }
      expect((await client.get('/ProgramGroups')).body.ProgramGroups).toHaveLength(3);
    });

    it('PATCH updates a group; cycles are refused with 400', async () => {
      const [spare] = await createGroups(client, [{ Name: 'Spare' }]);
      const response = await client.patch(`/ProgramGroups/${spare.Id}`, [
        { op: 'replace', path: '/Name', value: 'Spare parts' },
        { op: 'add', path: '/ProgramGroupIds', value: [acme.Id] },
        { op: 'add', path: '/ProgramIds', value: [p2.Id] },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.ProgramGroups[0]).toMatchObject({
        Id: spare.Id,
        Name: 'Spare parts',
        ProgramGroupIds: [acme.Id],
        ProgramIds: [p2.Id],
      });

      const self = await client.patch(`/ProgramGroups/${acme.Id}`, [
        { op: 'add', path: '/ProgramGroupIds/-', value: acme.Id },
      ]);
      expect(self.status).toBe(400);
      expect(self.body.Message).toContain(
        `program groups would contain themselves (${acme.Id} -> ${acme.Id})`,
      );
      // Europe is in Acme, Acme in Spare parts: Europe may not contain Spare parts.
      const loop = await client.patch(`/ProgramGroups/${europe.Id}`, [
        { op: 'add', path: '/ProgramGroupIds', value: [spare.Id] },
      ]);
      expect(loop.status).toBe(400);
      expect(loop.body.Message).toContain(
        `${europe.Id} -> ${spare.Id} -> ${acme.Id} -> ${europe.Id}`,
      );

      const taken = await client.patch(`/ProgramGroups/${spare.Id}`, [
        { op: 'replace', path: '/Name', value: 'europe' },
      ]);
      expect(taken.status).toBe(409);
      const unknownMember = await client.patch(`/ProgramGroups/${spare.Id}`, [
        { op: 'add', path: '/ProgramIds/-', value: 999 },
      ]);
      expect(unknownMember.status).toBe(400);
      expect(unknownMember.body.Message).toContain('Invalid ProgramIds[1] (value 999)');
      const readOnly = await client.patch(`/ProgramGroups/${spare.Id}`, [
        { op: 'replace', path: '/Id', value: 1 },
      ]);
      expect(readOnly.status).toBe(400);
      const unknown = await client.patch('/ProgramGroups/999', [
        { op: 'replace', path: '/Name', value: 'x' },
      ]);
      expect(unknown.status).toBe(404);

      // Undo, so the trees below have Acme and Other as roots.
      const undo = await client.patch(`/ProgramGroups/${spare.Id}`, [
        { op: 'replace', path: '/ProgramGroupIds', value: [] },
        { op: 'replace', path: '/ProgramIds', value: [] },
        { op: 'replace', path: '/IsActive', value: false },
      ]);
      expect(undo.status).toBe(200);
    });

    const tree = (group: any): unknown => [
      group.Name,
      group.ProgramGroups.map(tree),
      group.Programs.map((p: any) => [p.Name, names(p.Filters)]),
    ];
    const matching = async (query: string) => {
      const response = await client.get(`/ProgramGroups/IncludeMatching${query}`);
      expect(response.status).toBe(200);
      return response.body.ProgramGroups.map(tree);
    };
    const all = async (query: string) => {
      const response = await client.get(`/ProgramGroups/IncludeAll${query}`);
      expect(response.status).toBe(200);
      return response.body.ProgramGroups.map(tree);
    };

    it('IncludeMatching answers root groups with only the nested entries that match', async () => {
      // Europe (nested in Acme) matches; Acme comes along as its root, without P3.
      expect(await matching('?Region=EU')).toEqual([
        ['Acme', [['Europe', [], [['P1', ['P1 online', 'P1 offline']]]]], []],
      ]);
      // Brand flows from Acme into Europe, P1 and its filters; OnlineOnly only P1 online has.
      expect(await matching('?Brand=acme&OnlineOnly=True')).toEqual([
        ['Acme', [['Europe', [], [['P1', ['P1 online']]]]], []],
      ]);
      // A group matching by itself brings everything that inherits its properties.
      expect(await matching('?Brand=Acme')).toEqual([
        ['Acme', [['Europe', [], [['P1', ['P1 online', 'P1 offline']]]]], [['P3', ['P3 email']]]],
      ]);
      expect(await matching('?Brand')).toEqual([
        ['Acme', [['Europe', [], [['P1', ['P1 online', 'P1 offline']]]]], [['P3', ['P3 email']]]],
        ['Other', [], [['P2', ['P2 email']]]],
      ]);
      expect(await matching('?Brand=Nobody')).toEqual([]);
    });

    it('IncludeAll answers the same root groups with every nested entry', async () => {
      const acmeTree = [
        'Acme',
        [['Europe', [], [['P1', ['P1 online', 'P1 offline']]]]],
        [['P3', ['P3 email']]],
      ];
      expect(await all('?Region=EU')).toEqual([acmeTree]);
      expect(await all('?Brand=acme&OnlineOnly=True')).toEqual([acmeTree]);
      expect(await all('?Brand=Nobody')).toEqual([]);
      // Every root group, in id order (groups the other tests add come after these two).
      expect((await all('')).map((entry: any) => entry[0]).slice(0, 2)).toEqual(['Acme', 'Other']);
    });

    it('answers full group, program and filter entries in the trees', async () => {
      const response = await client.get('/ProgramGroups/IncludeMatching?OnlineOnly=True');
      const [root] = response.body.ProgramGroups;
      expect(root).toEqual({
        Id: acme.Id,
        Name: 'Acme',
        Description: 'Acme brand',
        IsActive: true,
        CustomProperties: [{ Key: 'Brand', Value: 'Acme' }],
        Edited: acme.Edited,
        Programs: [],
        ProgramGroups: [
          {
            Id: europe.Id,
            Name: 'Europe',
            IsActive: true,
            CustomProperties: [{ Key: 'Region', Value: 'EU' }],
            Edited: europe.Edited,
            ProgramGroups: [],
            Programs: [{ ...p1, Filters: [p1.Filters[0]] }],
          },
        ],
      });
    });
  });

  describe('custom properties (older Config route)', () => {
    let client: Client;
    let target: any;
    let group: any;

    beforeAll(async () => {
      client = await newClient();
      [target] = await createPrograms(client, [
        program('Target', {
          CustomProperties: kv({ Jurisdiction: 'EU' }),
          Filters: [filter('Target email')],
        }),
      ]);
      [group] = await createGroups(client, [{ Name: 'Group' }]);
    });

    it('adds new keys and keeps existing ones unless OverwriteExisting', async () => {
      const response = await client.post('/Config/CustomProperties/Program', [
        {
          ID: target.Id,
          CustomProperties: [
            { Key: 'Tier', Value: 'Gold', Link: 'ignored' },
            { Key: 'jurisdiction', Value: 'UK', OverwriteExisting: false },
          ],
        },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.Programs[0].CustomProperties).toEqual(
        kv({ Jurisdiction: 'EU', Tier: 'Gold' }),
      );
      const overwrite = await client.post('/Config/CustomProperties/program', [
        {
          ID: target.Id,
          CustomProperties: [{ Key: 'JURISDICTION', Value: 'UK', OverwriteExisting: true }],
        },
      ]);
      expect(overwrite.body.Programs[0].CustomProperties).toEqual(
        kv({ Jurisdiction: 'UK', Tier: 'Gold' }),
      );
      expect(
        (await client.get('/Programs/IncludeMatching?Jurisdiction=UK&Tier=gold')).body.Programs,
      ).toHaveLength(1);
    });

    it('sets properties on filters and program groups too', async () => {
      const onFilter = await client.post('/Config/CustomProperties/Filter', [
        { ID: target.Filters[0].ID, CustomProperties: [{ Key: 'OnlineOnly', Value: 'True' }] },
      ]);
      expect(onFilter.status).toBe(200);
      expect(onFilter.body.Filters[0]).toMatchObject({
        ID: target.Filters[0].ID,
        CustomProperties: kv({ OnlineOnly: 'True' }),
      });
      const onGroup = await client.post('/Config/CustomProperties/ProgramGroup', [
        { ID: group.Id, CustomProperties: [{ Key: 'Brand', Value: 'Acme' }] },
      ]);
      expect(onGroup.status).toBe(200);
      expect(onGroup.body.ProgramGroups[0]).toMatchObject({
        Id: group.Id,
        CustomProperties: kv({ Brand: 'Acme' }),
      });
    });

    it('refuses unknown ids (404, nothing changed), unknown entities and malformed bodies', async () => {
      const before = (await client.get('/Programs')).body.Programs;
      const unknown = await client.post('/Config/CustomProperties/Program', [
        { ID: target.Id, CustomProperties: [{ Key: 'New', Value: '1' }] },
        { ID: 999, CustomProperties: [{ Key: 'New', Value: '1' }] },
      ]);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ Message: 'Program 999 was not found' });
      expect((await client.get('/Programs')).body.Programs).toEqual(before);
      const entity = await client.post('/Config/CustomProperties/Widget', [
        { ID: 1, CustomProperties: [{ Key: 'A' }] },
      ]);
      expect(entity.status).toBe(404);
      const cases: [unknown, string][] = [
        [{ ID: 1 }, 'must be a non-empty JSON array'],
        [[{ ID: 'x', CustomProperties: [{ Key: 'A' }] }], 'Invalid [0].ID (value "x")'],
        [
          [{ ID: target.Id, CustomProperties: [{ Key: 'A' }, { Key: 'a' }] }],
          'repeats [0].CustomProperties[0].Key',
        ],
        [[{ ID: target.Id, CustomProperties: [{ Value: 'A' }] }], '[0].CustomProperties[0].Key'],
      ];
      for (const [body, message] of cases) {
        const response = await client.post('/Config/CustomProperties/Program', body);
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        expect(response.body.Message).toContain(message);
      }
    });
  });

  describe('required preference consents (with the consent-types area)', () => {
    let client: Client;
    let marketingTypeId: number;
    let owner: any;

    beforeAll(async () => {
      client = await newClient();
      [owner] = await createPrograms(client, [
        program('Owner', { Filters: [filter('Owner email')] }),
      ]);
      // The consent types and the filter requiring two of them that the tests below share
      // (set up here, so that each test also runs alone).
      marketingTypeId = await createConsentType(client, 'EmailMarketing');
      await createConsentType(client, 'Retired', false);
      await createConsentType(client, 'Terms');
      const marketing = await client.post(`/Programs/${owner.Id}/Filters`, {
        Filters: [
          filter('Marketing email', {
            RequiredPreferenceConsents: [
              { TypeName: 'EmailMarketing', DisplayOrder: 2 },
              { TypeName: 'Terms', DisplayOrder: 1 },
            ],
          }),
        ],
      });
      expect(marketing.status).toBe(201);
    });

    it('refuses a TypeName that names no consent type (400), creating nothing', async () => {
      const response = await client.post('/Programs', {
        Programs: [
          program('Needs consent', {
            Filters: [filter('F', { RequiredPreferenceConsents: [{ TypeName: 'Nonexistent' }] })],
          }),
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body.Message).toBe(
        'Invalid Programs[0].Filters[0].RequiredPreferenceConsents[0].TypeName (value "Nonexistent"): no consent type has this name',
      );
      expect((await client.get('/Programs')).body.Programs).toHaveLength(1);
    });

    it('accepts active consent types (stored as consent-types spells them), refuses inactive ones', async () => {
      const inactive = await client.post(`/Programs/${owner.Id}/Filters`, {
        Filters: [
          filter('Retired email', { RequiredPreferenceConsents: [{ TypeName: 'retired' }] }),
        ],
      });
      expect(inactive.status).toBe(400);
      expect(inactive.body.Message).toBe(
        'Invalid Filters[0].RequiredPreferenceConsents[0].TypeName (value "retired"): consent type "Retired" is not active',
      );

      const created = await client.post(`/Programs/${owner.Id}/Filters`, {
        Filters: [
          filter('Accepted email', {
            RequiredPreferenceConsents: [
              { TypeName: 'emailmarketing', DisplayOrder: 2 },
              { TypeName: 'Terms', DisplayOrder: 1, ConsentTypeLink: 7 },
            ],
          }),
        ],
      });
      expect(created.status).toBe(201);
      expect(created.body.Filters[0].RequiredPreferenceConsents).toEqual([
        { TypeName: 'EmailMarketing', DisplayOrder: 2 },
        { TypeName: 'Terms', DisplayOrder: 1 },
      ]);
      const repeated = await client.post(`/Programs/${owner.Id}/Filters`, {
        Filters: [
          filter('Twice', {
            RequiredPreferenceConsents: [{ TypeName: 'Terms' }, { TypeName: 'TERMS' }],
          }),
        ],
      });
      expect(repeated.status).toBe(400);
      expect(repeated.body.Message).toContain(
        'repeats Filters[0].RequiredPreferenceConsents[0].TypeName',
      );
    });

    it('PUT replaces the list, on the v4 route and on the older Config route', async () => {
      const marketing = (await client.get(`/Programs?Id=${owner.Id}`)).body.Programs[0].Filters[1];
      const replaced = await client.put(`/Filters/${marketing.ID}/RequiredPreferenceConsents`, {
        RequiredPreferenceConsents: [{ TypeName: 'TERMS' }],
      });
      expect(replaced.status).toBe(200);
      // A type the filter already requires keeps its stored spelling.
      expect(replaced.body).toEqual({ RequiredPreferenceConsents: [{ TypeName: 'Terms' }] });

      const older = await client.put(`/Config/RequiredPreferenceConsents/${marketing.ID}`, {
        RequiredPreferenceConsents: [
          { TypeName: 'Terms', DisplayOrder: 1 },
          { TypeName: 'EmailMarketing', DisplayOrder: 2 },
        ],
      });
      expect(older.status).toBe(200);
      expect(older.body.RequiredPreferenceConsents).toEqual([
        { TypeName: 'Terms', DisplayOrder: 1 },
        { TypeName: 'EmailMarketing', DisplayOrder: 2 },
      ]);
      const stored = (await client.get(`/Programs?Id=${owner.Id}`)).body.Programs[0].Filters[1];
      expect(stored.RequiredPreferenceConsents).toEqual(older.body.RequiredPreferenceConsents);

      const cases: [string, object, number, string][] = [
        [
          `/Filters/${marketing.ID}/RequiredPreferenceConsents`,
          { RequiredPreferenceConsents: [{ TypeName: 'Retired' }] },
          400,
          'is not active',
        ],
        [
          `/Config/RequiredPreferenceConsents/${marketing.ID}`,
          { RequiredPreferenceConsents: [{ TypeName: 'Nope' }] },
          400,
          'no consent type has this name',
        ],
        [
          `/Config/RequiredPreferenceConsents/${marketing.ID}`,
          { RequiredPreferenceConsents: [{}] },
          400,
          'RequiredPreferenceConsents[0].TypeName',
        ],
        [
          `/Config/RequiredPreferenceConsents/${marketing.ID}`,
          {},
          400,
          'RequiredPreferenceConsents',
        ],
        [
          '/Config/RequiredPreferenceConsents/9999',
          { RequiredPreferenceConsents: [] },
          404,
          'Filter 9999 was not found',
        ],
        [
          '/Filters/9999/RequiredPreferenceConsents',
          { RequiredPreferenceConsents: [] },
          404,
          'Filter 9999 was not found',
        ],
      ];
      for (const [path, body, status, message] of cases) {
        const response = await client.put(path, body);
        expect({ path, body, status: response.status }).toEqual({ path, body, status });
        expect(response.body.Message).toContain(message);
      }
      expect((await client.get(`/Programs?Id=${owner.Id}`)).body.Programs[0].Filters[1]).toEqual(
        stored,
      );
    });

    it('answers IsConsentTypeRequiredQuery for consent-types, case-insensitively and per client', async () => {
      const queries = app.api.get(QueryBus);
      expect(
        await queries.execute(new IsConsentTypeRequiredQuery(client.clientId, ['emailMARKETING'])),
      ).toBe(true);
      expect(
        await queries.execute(new IsConsentTypeRequiredQuery(client.clientId, ['Terms'])),
      ).toBe(true);
      expect(
        await queries.execute(new IsConsentTypeRequiredQuery(client.clientId, ['Retired'])),
      ).toBe(false);
      const stranger = await newClient();
      expect(
        await queries.execute(new IsConsentTypeRequiredQuery(stranger.clientId, ['Terms'])),
      ).toBe(false);
    });

    it('a required consent type keeps its channel: consent-types refuses to change ChannelId', async () => {
      const response = await client.patch(`/ConsentTypes/${marketingTypeId}`, [
        { op: 'add', path: '/ChannelId', value: 'Email' },
      ]);
      expect(response.status).toBe(400);
      expect(response.body.Message).toContain('ChannelId cannot be changed');
    });

    it('deactivating a consent type removes it from every filter; reactivating does not restore it', async () => {
      // A second program requiring the same type, to see every filter cleaned.
      const [second] = await createPrograms(client, [
        program('Second', {
          Filters: [
            filter('Second email', {
              RequiredPreferenceConsents: [{ TypeName: 'EmailMarketing' }],
            }),
          ],
        }),
      ]);
      await setConsentTypeActive(client, marketingTypeId, false);
      const required = (programs: any[]) =>
        programs.flatMap((p) =>
          p.Filters.flatMap((f: any) => f.RequiredPreferenceConsents.map((c: any) => c.TypeName)),
        );
      await eventually(async () => {
        const programs = (await client.get('/Programs')).body.Programs;
        return required(programs).includes('EmailMarketing') ? undefined : programs;
      });
      const programs = (await client.get('/Programs')).body.Programs;
      // Only Terms is left, on every filter that required both.
      expect(new Set(required(programs))).toEqual(new Set(['Terms']));
      expect(
        programs.find((p: any) => p.Id === second.Id).Filters[0].RequiredPreferenceConsents,
      ).toEqual([]);
      expect(
        await app.api
          .get(QueryBus)
          .execute(new IsConsentTypeRequiredQuery(client.clientId, ['EmailMarketing'])),
      ).toBe(false);

      await setConsentTypeActive(client, marketingTypeId, true);
      expect(new Set(required((await client.get('/Programs')).body.Programs))).toEqual(
        new Set(['Terms']),
      );
    });
  });

  describe('ProgramCatalog (read service for preferences and profile validation)', () => {
    it('finds a filter by the string ids preferences carry, with its program', async () => {
      const client = await newClient();
      const [news] = await createPrograms(client, [
        program('News', {
          IsActive: false,
          Filters: [
            filter('News email', {
              OptInCustomerExpirationDays: 30,
              FrequencyLocales: [
                { ID: 'en', Frequencies: [{ ID: 'Weekly', IsDefault: true }, { ID: 'Monthly' }] },
                { ID: 'fr', Frequencies: [{ ID: 'Weekly' }] },
              ],
              PreferenceAttributes: [{ ID: 'Source', IsRequired: true }],
            }),
            filter('News text', { ChannelID: 'SMS' }),
          ],
        }),
      ]);
      const catalog = app.api.get(ProgramCatalog);
      const [email, text] = news.Filters;
      const found = await catalog.findFilter(
        client.clientId,
        String(news.Id),
        'email',
        String(email.ID),
      );
      expect(found).toEqual({
        ProgramId: news.Id,
        ProgramName: 'News',
        ProgramType: 'Marketing',
        ProgramIsActive: false,
        FilterId: email.ID,
        FilterName: 'News email',
        ChannelId: 'Email',
        FilterIsActive: true,
        OptInCustomerExpirationDays: 30,
        FrequencyLocales: [
          { ID: 'en', Frequencies: [{ ID: 'Weekly', IsDefault: true }, { ID: 'Monthly' }] },
          { ID: 'fr', Frequencies: [{ ID: 'Weekly' }] },
        ],
        FrequencyIds: ['Weekly', 'Monthly'],
        RequiredPreferenceConsents: [],
        PreferenceAttributes: [{ ID: 'Source', IsRequired: true }],
      });
      // "Text" and "SMS" both name the Text/SMS channel; no channel means any.
      expect(await catalog.findFilter(client.clientId, news.Id, 'Text', text.ID)).toMatchObject({
        ChannelId: 'Text/SMS',
      });
      expect(
        await catalog.findFilter(client.clientId, `${news.Id}`, undefined, `${text.ID}`),
      ).not.toBeNull();
      expect(
        await catalog.findFilter(client.clientId, `${news.Id}`, 'Email', `${text.ID}`),
      ).toBeNull();
      expect(await catalog.findFilter(client.clientId, '999', 'Email', `${email.ID}`)).toBeNull();
      expect(await catalog.findFilter(client.clientId, `${news.Id}`, 'Email', '999')).toBeNull();
      expect(await catalog.findFilter(client.clientId, 'News', 'Email', `${email.ID}`)).toBeNull();
      const stranger = await newClient();
      expect(
        await catalog.findFilter(stranger.clientId, `${news.Id}`, 'Email', `${email.ID}`),
      ).toBeNull();

      // A change is seen at once (the cache follows the configuration stamp).
      const patched = await client.patch(`/Filters/${email.ID}`, [
        { op: 'replace', path: '/IsActive', value: false },
      ]);
      expect(patched.status).toBe(200);
      expect(
        await catalog.findFilter(client.clientId, `${news.Id}`, 'Email', `${email.ID}`),
      ).toMatchObject({
        FilterIsActive: false,
      });
    });
  });

  describe('concurrency, authorization and the legacy prefix', () => {
    it('concurrent changes to one program are all kept (revision check and retry)', async () => {
      const client = await newClient();
      const [shared] = await createPrograms(client, [
        program('Shared', { Filters: [filter('Shared email')] }),
      ]);
      const keys = ['A', 'B', 'C', 'D', 'E', 'F'];
      const responses = await Promise.all(
        keys.map((Key, index) =>
          index % 2
            ? client.patch(`/Programs/${shared.Id}`, [
                { op: 'add', path: '/CustomProperties/-', value: { Key, Value: Key } },
              ])
            : client.post('/Config/CustomProperties/Filter', [
                { ID: shared.Filters[0].ID, CustomProperties: [{ Key, Value: Key }] },
              ]),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const [stored] = (await client.get(`/Programs?Id=${shared.Id}`)).body.Programs;
      expect(stored.CustomProperties.map((p: any) => p.Key)).toEqual(
        expect.arrayContaining(['B', 'D', 'F']),
      );
      expect(stored.CustomProperties).toHaveLength(3);
      expect(stored.Filters[0].CustomProperties.map((p: any) => p.Key)).toEqual(
        expect.arrayContaining(['A', 'C', 'E']),
      );
      expect(stored.Filters[0].CustomProperties).toHaveLength(3);
    });

    it('concurrent creates of one name: exactly one wins, the others answer 409', async () => {
      const client = await newClient();
      const responses = await Promise.all(
        ['Race', 'RACE', 'race ', 'Race'].map((Name) =>
          client.post('/Programs', { Programs: [program(Name)] }),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409]);
      expect(names((await client.get('/Programs')).body.Programs)).toHaveLength(1);
      const groups = await Promise.all(
        ['Race', 'race'].map((Name) =>
          client.post('/ProgramGroups', { ProgramGroups: [{ Name }] }),
        ),
      );
      expect(groups.map((response) => response.status).sort()).toEqual([201, 409]);
    });

    it('needs configuration read to GET and configuration write to change', async () => {
      const client = await newClient();
      const [owned] = await createPrograms(client, [
        program('Owned', { Filters: [filter('Owned email')] }),
      ]);
      const [group] = await createGroups(client, [{ Name: 'Owned group' }]);
      const reader = await configReaderBearer(app, client.tenant);
      const url = (path: string) => `/Profiles/v4/${client.clientId}${path}`;
      for (const path of [
        '/Programs',
        '/Programs/IncludeAll',
        '/Programs/ProgramType/Marketing',
        '/ProgramGroups',
        '/ProgramGroups/IncludeMatching',
      ]) {
        const response = await request(app.http).get(url(path)).set('Authorization', reader);
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
      }
      const ops = JSON.stringify([{ op: 'replace', path: '/Name', value: 'Mine' }]);
      const writes = [
        request(app.http)
          .post(url('/Programs'))
          .send({ Programs: [program('X')] }),
        request(app.http)
          .patch(url(`/Programs/${owned.Id}`))
          .set('Content-Type', 'application/json')
          .send(ops),
        request(app.http)
          .post(url(`/Programs/${owned.Id}/Filters`))
          .send({ Filters: [filter('X')] }),
        request(app.http)
          .patch(url(`/Filters/${owned.Filters[0].ID}`))
          .set('Content-Type', 'application/json')
          .send(ops),
        request(app.http)
          .put(url(`/Filters/${owned.Filters[0].ID}/RequiredPreferenceConsents`))
          .send({ RequiredPreferenceConsents: [] }),
        request(app.http)
          .put(url(`/Config/RequiredPreferenceConsents/${owned.Filters[0].ID}`))
          .send({ RequiredPreferenceConsents: [] }),
        request(app.http)
          .post(url('/ProgramGroups'))
          .send({ ProgramGroups: [{ Name: 'X' }] }),
        request(app.http)
          .patch(url(`/ProgramGroups/${group.Id}`))
          .set('Content-Type', 'application/json')
          .send(ops),
        request(app.http)
          .post(url('/Config/CustomProperties/Program'))
          .send([{ ID: owned.Id, CustomProperties: [{ Key: 'A' }] }]),
      ];
      for (const write of writes) {
        const response = await write.set('Authorization', reader);
        expect(response.status).toBe(403);
        expect(response.body.Message).toEqual(expect.any(String));
      }
      expect((await request(app.http).get(url('/Programs'))).status).toBe(401);
      expect((await client.get('/Programs')).body.Programs).toEqual([owned]);
    });

    it('answers the same under the legacy /Profiles/v2 prefix', async () => {
      const client = await newClient();
      await createPrograms(client, [program('Legacy', { CustomProperties: kv({ Era: 'v2' }) })]);
      const auth = await client.tenant.bearer();
      const v2 = await request(app.http)
        .get(`/Profiles/v2/${client.clientId}/Programs/IncludeMatching?Era=V2`)
        .set('Authorization', auth);
      expect(v2.status).toBe(200);
      expect(names(v2.body.Programs)).toEqual(['Legacy']);
    });
  });

  describe('tenant isolation', () => {
    it("one client never sees or changes another client's programs, filters and groups", async () => {
      const owner = await newClient();
      const stranger = await newClient();
      const [mine] = await createPrograms(owner, [
        program('Private', {
          CustomProperties: kv({ Secret: 'yes' }),
          Filters: [filter('Private email')],
        }),
      ]);
      const [group] = await createGroups(owner, [{ Name: 'Private group', ProgramIds: [mine.Id] }]);

      expect((await stranger.get('/Programs')).body).toEqual({ Programs: [] });
      expect((await stranger.get(`/Programs?Id=${mine.Id}`)).status).toBe(404);
      expect((await stranger.get('/Programs/ProgramType/Marketing')).body).toEqual({
        Programs: [],
      });
      expect((await stranger.get('/Programs/IncludeAll')).body).toEqual({ Programs: [] });
      expect((await stranger.get('/Programs/IncludeMatching?Secret')).body).toEqual({
        Programs: [],
      });
      expect((await stranger.get('/ProgramGroups')).body).toEqual({ ProgramGroups: [] });
      expect((await stranger.get('/ProgramGroups/IncludeAll')).body).toEqual({ ProgramGroups: [] });

      const rename = [{ op: 'replace', path: '/Name', value: 'Taken over' }];
      expect((await stranger.patch(`/Programs/${mine.Id}`, rename)).status).toBe(404);
      expect((await stranger.patch(`/Filters/${mine.Filters[0].ID}`, rename)).status).toBe(404);
      expect((await stranger.patch(`/ProgramGroups/${group.Id}`, rename)).status).toBe(404);
      expect(
        (await stranger.post(`/Programs/${mine.Id}/Filters`, { Filters: [filter('X')] })).status,
      ).toBe(404);
      expect(
        (
          await stranger.put(`/Config/RequiredPreferenceConsents/${mine.Filters[0].ID}`, {
            RequiredPreferenceConsents: [],
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await stranger.post('/Config/CustomProperties/Program', [
            { ID: mine.Id, CustomProperties: [{ Key: 'A' }] },
          ])
        ).status,
      ).toBe(404);
      // A stranger's group may not reference the owner's programs.
      const borrow = await stranger.post('/ProgramGroups', {
        ProgramGroups: [{ Name: 'Borrow', ProgramIds: [mine.Id] }],
      });
      expect(borrow.status).toBe(400);

      // Names are unique per client only.
      await createPrograms(stranger, [program('Private')]);
      await createGroups(stranger, [{ Name: 'Private group' }]);
      expect((await owner.get('/Programs')).body.Programs).toEqual([mine]);

      // Another client's id in the path answers 404, as for any unknown client.
      const foreign = await request(app.http)
        .get(`/Profiles/v4/${owner.clientId}/Programs`)
        .set('Authorization', await stranger.tenant.bearer());
      expect(foreign.status).toBe(404);
    });
  });
});
