import {
  type Client,
  createPrograms,
  filter,
  kv,
  names,
  type Op,
  program,
  useProgramsApp,
} from './program-helpers';

/**
 * Programs (docs/api.md): PATCH of a program and its filters, filters added to a
 * program, PATCH of one filter, and their refusals. Real engine and Redis, no worker.
 */
describe('Programs: updates of programs and filters', () => {
  const suite = useProgramsApp();
  const { newClient } = suite;

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
});
