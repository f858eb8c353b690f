import { editedBy } from '../harness/configuration';
import {
  type Client,
  createPrograms,
  filter,
  kv,
  names,
  program,
  useProgramsApp,
} from './program-helpers';

/**
 * Programs (docs/api.md): creating programs with their filters, listing them, by Id,
 * with the text tags of one locale, and by program type. Real engine and Redis, no worker.
 */
describe('Programs: create and list, by locale and by type', () => {
  const suite = useProgramsApp();
  const { newClient } = suite;

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
        // Double opt-in is off unless chosen (docs/double-opt-in.md).
        RequiresConfirmation: false,
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
            RequiresConfirmation: false,
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
});
