import request from 'supertest';
import { configReaderBearer } from '../harness/session';
import {
  createGroups,
  createPrograms,
  filter,
  kv,
  names,
  program,
  useProgramsApp,
} from './program-helpers';

/**
 * Programs, filters and program groups (docs/api.md): concurrent changes, the
 * permissions, the legacy prefix and tenant isolation. Real engine and Redis, no worker.
 */
describe('Programs: concurrency, authorization, the legacy prefix, tenant isolation', () => {
  const suite = useProgramsApp();
  const { newClient } = suite;

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
      const reader = await configReaderBearer(suite.app, client.tenant);
      const url = (path: string) => `/Profiles/v4/${client.clientId}${path}`;
      for (const path of [
        '/Programs',
        '/Programs/IncludeAll',
        '/Programs/ProgramType/Marketing',
        '/ProgramGroups',
        '/ProgramGroups/IncludeMatching',
      ]) {
        const response = await request(suite.app.http).get(url(path)).set('Authorization', reader);
        expect({ path, status: response.status }).toEqual({ path, status: 200 });
      }
      const ops = JSON.stringify([{ op: 'replace', path: '/Name', value: 'Mine' }]);
      const writes = [
        request(suite.app.http)
          .post(url('/Programs'))
          .send({ Programs: [program('X')] }),
        request(suite.app.http)
          .patch(url(`/Programs/${owned.Id}`))
          .set('Content-Type', 'application/json')
          .send(ops),
        request(suite.app.http)
          .post(url(`/Programs/${owned.Id}/Filters`))
          .send({ Filters: [filter('X')] }),
        request(suite.app.http)
          .patch(url(`/Filters/${owned.Filters[0].ID}`))
          .set('Content-Type', 'application/json')
          .send(ops),
        request(suite.app.http)
          .put(url(`/Filters/${owned.Filters[0].ID}/RequiredPreferenceConsents`))
          .send({ RequiredPreferenceConsents: [] }),
        request(suite.app.http)
          .put(url(`/Config/RequiredPreferenceConsents/${owned.Filters[0].ID}`))
          .send({ RequiredPreferenceConsents: [] }),
        request(suite.app.http)
          .post(url('/ProgramGroups'))
          .send({ ProgramGroups: [{ Name: 'X' }] }),
        request(suite.app.http)
          .patch(url(`/ProgramGroups/${group.Id}`))
          .set('Content-Type', 'application/json')
          .send(ops),
        request(suite.app.http)
          .post(url('/Config/CustomProperties/Program'))
          .send([{ ID: owned.Id, CustomProperties: [{ Key: 'A' }] }]),
      ];
      for (const write of writes) {
        const response = await write.set('Authorization', reader);
        expect(response.status).toBe(403);
        expect(response.body.Message).toEqual(expect.any(String));
      }
      expect((await request(suite.app.http).get(url('/Programs'))).status).toBe(401);
      expect((await client.get('/Programs')).body.Programs).toEqual([owned]);
    });

    it('answers the same under the legacy /Profiles/v2 prefix', async () => {
      const client = await newClient();
      await createPrograms(client, [program('Legacy', { CustomProperties: kv({ Era: 'v2' }) })]);
      const auth = await client.tenant.bearer();
      const v2 = await request(suite.app.http)
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
      const foreign = await request(suite.app.http)
        .get(`/Profiles/v4/${owner.clientId}/Programs`)
        .set('Authorization', await stranger.tenant.bearer());
      expect(foreign.status).toBe(404);
    });
  });
});
