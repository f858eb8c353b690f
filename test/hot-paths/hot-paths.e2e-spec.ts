import request from 'supertest';
import { configureTestTenant, localized } from '../harness/configuration';
import {
  describeCommand,
  type EngineCommand,
  notAddressedById,
  recordEngineCommands,
} from '../harness/engine-commands';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/**
 * The hot paths touch the engine only through `_id` lookups, `_id` inserts and `_id`
 * replaces: on the embedded engine any other filter decodes every document of
 * the collection, so one such command makes a request's cost grow with the data. Every
 * engine command the api and the worker send while a path runs is recorded, and the test
 * fails naming the first one that is not addressed by `_id`.
 */
describe('Hot paths address the engine by _id only', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let bearer: string;
  let profileId: number;
  const alternateId = `HP-${Date.now()}`;
  const base = () => `/Profiles/v4/${tenant.clientId}`;

  const profileBody = (firstName: string) => ({
    CustomerType: 'Customer',
    CustomerName: { FirstName: firstName, LastName: 'Hot' },
    Emails: [
      { EmailAddress: `${firstName.toLowerCase()}@example.com`, EmailAddressType: 'Personal' },
    ],
    AlternateIds: [{ AlternateIdType: 'crm', AlternateId: alternateId }],
    ProfileTags: [{ Name: 'hot' }],
  });

  async function complete(id: number, firstName?: string): Promise<Record<string, any>> {
    return eventually(async () => {
      const res = await request(app.http)
        .get(`${base()}/Profile/${id}`)
        .set('Authorization', bearer);
      const done = res.status === 200 && res.body.UpdateStatus === 'Complete';
      return done && (!firstName || res.body.CustomerName?.FirstName === firstName)
        ? res.body
        : undefined;
    });
  }

  /**
   * Scans declared on purpose, never on a request's path: the worker's sweeper reads the
   * whole pending_profiles collection on its timer, which holds only the backlog of
   * profiles with writes not yet applied (docs/architecture.md, "The write path").
   */
  const isDeclaredScan = (command: EngineCommand) =>
    command.name === 'find' && command.collection === 'pending_profiles';

  function expectAddressedById(commands: EngineCommand[]): void {
    const offending = notAddressedById(commands)
      .filter((command) => !isDeclaredScan(command))
      .map(describeCommand);
    expect(offending).toEqual([]);
  }

  /** The apps whose connections are recorded: the api and every worker. */
  const processes = () => [app.api, ...app.workers];

  beforeAll(async () => {
    app = await startTestApp({ env: { MONITOR_ENGINE_COMMANDS: 'true' } });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    bearer = await tenant.bearer();
    const created = await request(app.http)
      .post(`${base()}/Profile`)
      .set('Authorization', bearer)
      .send(profileBody('Warm'))
      .expect(202);
    profileId = created.body.ProfileId;
    await complete(profileId, 'Warm');
    // Warm every cache a steady state has (configuration in the api and the worker).
    await request(app.http)
      .post(`${base()}/Profile/${profileId}`)
      .set('Authorization', bearer)
      .send({ DefaultLocale: 'en-us' })
      .expect(202);
    await complete(profileId);
  });
  afterAll(() => app.close());

  it('GET profile by id, through either auth scheme, sends no engine command', async () => {
    const commands = await recordEngineCommands(processes(), async () => {
      for (const authorization of [bearer, tenant.signed()]) {
        const res = await request(app.http)
          .get(`${base()}/Profile/${profileId}`)
          .set('Authorization', authorization)
          .expect(200);
        expect(res.body.ProfileId).toBe(profileId);
      }
    });
    // Authentication from its stamped caches, the profile from the read model: nothing.
    expect(commands.filter((c) => !isDeclaredScan(c)).map(describeCommand)).toEqual([]);
  });

  it('GET profile by alternate id', async () => {
    const commands = await recordEngineCommands(processes(), async () => {
      const res = await request(app.http)
        .get(`${base()}/Profile/AlternateId`)
        .query({ alternateIdType: 'crm', alternateId: alternateId.toLowerCase() })
        .set('Authorization', bearer)
        .expect(200);
      expect(res.body.ProfileId).toBe(profileId);
    });
    expectAddressedById(commands);
  });

  it('write acceptance and the worker applying the writes (create, merge, overwrite, upsert by alternate id)', async () => {
    let newId = 0;
    const commands = await recordEngineCommands(processes(), async () => {
      const created = await request(app.http)
        .post(`${base()}/Profile`)
        .set('Authorization', bearer)
        .send({ ...profileBody('Fresh'), AlternateIds: [] })
        .expect(202);
      newId = created.body.ProfileId;
      await request(app.http)
        .post(`${base()}/Profile/${profileId}`)
        .set('Authorization', bearer)
        .send({ CustomerName: { FirstName: 'Merged' }, ProfileTags: [{ Name: 'second' }] })
        .expect(202);
      await complete(profileId, 'Merged');
      await request(app.http)
        .put(`${base()}/Profile/${profileId}`)
        .set('Authorization', bearer)
        .send(profileBody('Overwritten'))
        .expect(202);
      await complete(profileId, 'Overwritten');
      await request(app.http)
        .post(`${base()}/Profile/AlternateId`)
        .query({ alternateIdType: 'crm', alternateId })
        .set('Authorization', bearer)
        .send({ CustomerName: { FirstName: 'Upserted' } })
        .expect(202);
      await complete(profileId, 'Upserted');
      await complete(newId, 'Fresh');
    });
    expect(commands.some((c) => c.collection === 'profiles' && c.name === 'update')).toBe(true);
    expectAddressedById(commands);
  });

  it('a configuration change: the next write reloads the configuration with one read of each collection', async () => {
    // Outside the recording: the change itself (a new email type) is not a hot path.
    await request(app.http)
      .post(`${base()}/EmailTypes`)
      .set('Authorization', bearer)
      .send({ EmailTypes: [{ TypeName: 'Reload', LocalizedFields: localized('Reload') }] })
      .expect(201);
    const commands = await recordEngineCommands(processes(), async () => {
      await request(app.http)
        .post(`${base()}/Profile/${profileId}`)
        .set('Authorization', bearer)
        .send({ DefaultLocale: 'en-gb' })
        .expect(202);
      await eventually(async () => {
        const res = await request(app.http)
          .get(`${base()}/Profile/${profileId}`)
          .set('Authorization', bearer);
        return res.body.DefaultLocale === 'en-gb' && res.body.UpdateStatus === 'Complete'
          ? true
          : undefined;
      });
    });
    // The api accepting reloads, and the worker applying (unless a job of its own reloaded
    // before the recording). Each of these finds decodes its whole collection on the
    // embedded engine: the six type kinds and their defaults are read by one find each per
    // reload, not one per kind.
    for (const collection of ['config_types', 'config_types_defaults']) {
      const reads = commands.filter((c) => c.name === 'find' && c.collection === collection);
      expect(reads.length).toBeGreaterThanOrEqual(1);
      expect(reads.length).toBeLessThanOrEqual(processes().length);
    }
  });

  it('history reads, by id and by alternate id, every category', async () => {
    const categories = [
      'StandardFields',
      'CustomFields',
      'ContactElements',
      'Preferences',
      'Consents',
    ];
    const commands = await recordEngineCommands(processes(), async () => {
      for (const category of categories) {
        const byId = await request(app.http)
          .get(`${base()}/Profile/${profileId}/History/${category}`)
          .set('Authorization', bearer)
          .expect(200);
        expect(Array.isArray(byId.body)).toBe(true);
        await request(app.http)
          .get(`${base()}/Profile/AlternateId/History/${category}`)
          .query({ alternateIdType: 'crm', alternateId })
          .set('Authorization', bearer)
          .expect(200);
      }
    });
    expectAddressedById(commands);
  });

  it('contact decisions: by id (warm: no engine command), by alternate id, by bare email, batch', async () => {
    const programs = await request(app.http)
      .get(`${base()}/Programs`)
      .set('Authorization', bearer)
      .expect(200);
    const programId = String(programs.body.Programs[0].Id);
    const ask = (query: Record<string, string | number>) =>
      request(app.http)
        .get(`${base()}/ContactDecision`)
        .query({ channelId: 'Email', programId, ...query })
        .set('Authorization', bearer)
        .expect(200);
    await ask({ profileId }); // warms the do-not-contact lists' copy
    // The api's commands only: a worker may still be finishing the last write's job (its
    // after-apply steps follow the publication that made the profile Complete), which is
    // not the decision's work; on a loaded machine that tail fell into this window.
    const warm = await recordEngineCommands([app.api], async () => {
      await ask({ profileId });
    });
    expect(warm.filter((c) => !isDeclaredScan(c)).map(describeCommand)).toEqual([]);
    const commands = await recordEngineCommands(processes(), async () => {
      await ask({ alternateIdType: 'crm', alternateId });
      await ask({ emailAddress: 'nobody-hot@example.com' });
      await request(app.http)
        .post(`${base()}/ContactDecisions`)
        .set('Authorization', bearer)
        .send({ Questions: [{ ProfileId: profileId, ChannelId: 'Email', ProgramId: programId }] })
        .expect(200);
    });
    expectAddressedById(commands);
  });

  it('bulk import: Initiate, Stage, Status and Exceptions', async () => {
    const imports = `${base()}/Bulk/Import`;
    const record = (n: number, extra: object = {}) => ({
      CustomerType: 'Customer',
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: `HP-bulk-${n}` }],
      ...extra,
    });
    const commands = await recordEngineCommands(processes(), async () => {
      const initiated = await request(app.http)
        .post(imports)
        .set('Authorization', bearer)
        .send({ Name: 'Hot', MatchCriteria: 'AlternateIdType', MatchValue: 'CRM' })
        .expect(201);
      const token = initiated.body.AccessToken as number;
      for (let stage = 0; stage < 2; stage++) {
        await request(app.http)
          .post(`${imports}/${token}/Stage`)
          .set('Authorization', bearer)
          .send([record(stage), record(stage + 10, { Bogus: stage })])
          .expect(200);
      }
      const status = await request(app.http)
        .get(`${imports}/${token}`)
        .set('Authorization', bearer)
        .expect(200);
      expect(status.body).toMatchObject({ ValidationSuccessful: 2, ValidationFailed: 2 });
      const page = await request(app.http)
        .get(`${imports}/${token}/Exceptions`)
        .query({ limit: 1, offset: 2 })
        .set('Authorization', bearer)
        .expect(200);
      expect(page.body).toMatchObject({ Count: 1, TotalResults: 2, HasMore: false });
    });
    expect(commands.some((c) => c.collection === 'bulk_import_chunks')).toBe(true);
    expectAddressedById(commands);
  });
});
