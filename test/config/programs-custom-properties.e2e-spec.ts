import {
  type Client,
  createGroups,
  createPrograms,
  filter,
  kv,
  names,
  program,
  useProgramsApp,
} from './program-helpers';

/**
 * Programs (docs/api.md): custom properties, matched by IncludeMatching and
 * IncludeAll, and set through the older Config route. Real engine and Redis, no worker.
 */
describe('Programs: custom properties', () => {
  const suite = useProgramsApp();
  const { newClient } = suite;

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
});
