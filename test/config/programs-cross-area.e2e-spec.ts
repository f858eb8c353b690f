import { QueryBus } from '@nestjs/cqrs';
import { IsConsentTypeRequiredQuery } from '@app/config/common/cross-area';
import { ProgramCatalog } from '@app/config/programs';
import { eventually } from '../harness/test-app';
import { type Client, createPrograms, filter, program, useProgramsApp } from './program-helpers';

/**
 * Programs and the other areas (docs/api.md): the consent types a filter requires
 * (with the consent-types area), and ProgramCatalog, the read service of preferences and
 * profile validation. Real engine and Redis, no worker.
 */
describe('Programs and the other areas: required consents, ProgramCatalog', () => {
  const suite = useProgramsApp();
  const { newClient } = suite;

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
      const queries = suite.app.api.get(QueryBus);
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
        await suite.app.api
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
      const catalog = suite.app.api.get(ProgramCatalog);
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
});
