import { editedBy } from '../harness/configuration';
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
 * Program groups (docs/api.md): create, list, PATCH (cycles refused), and the
 * IncludeMatching and IncludeAll trees. Real engine and Redis, no worker.
 */
describe('Program groups', () => {
  const suite = useProgramsApp();
  const { newClient } = suite;

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
});
