import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

/*
 * User-group scope on profile data (docs/api.md, "Permissions on profile data"): a group limited to some
 * programs, consent types and custom fields sees only those in every retrieval and
 * search, gets 403 for writes naming anything else, and its overwrites and patches keep
 * what it cannot see. Without read access to the consents or preferences area, that
 * data is hidden; without write access, writing it is 403.
 */
describe('Profile permissions (user-group scope)', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let admin: TenantAdminService;
  let full: string;
  let scoped: string;
  let readOnlyConsents: string;
  let viewer: string;
  const base = () => `/Profiles/v4/${tenant.clientId}/Profile`;

  // Programs by the names the tests use (News, News2, Offers), created in beforeAll, each
  // with an Email and a Solicit filter; a preference names one of them.
  type Channel = 'Email' | 'Solicit';
  const filters: Record<string, Record<Channel, object>> = {};
  const programNames = new Map<string, string>();
  const preference = (program: string, extra: object = {}, channel: Channel = 'Email') => ({
    ...filters[program][channel],
    PreferenceType: 1,
    ...extra,
  });

  const fullProfile = () => ({
    CustomerType: 'Customer',
    CustomerName: { FirstName: 'Ann', LastName: 'Scope' },
    CustomFields: [
      { Name: 'Tier', Value: 'Gold' },
      { Name: 'Hidden', Value: 'secret' },
    ],
    Consents: [
      { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 },
      { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 },
    ],
    Emails: [
      {
        EmailAddress: 'ann@example.com',
        EmailAddressType: 'Personal',
        Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
        EmailPreferences: [
          preference('News', {
            ConsentAssociations: [{ ConsentType: 'Marketing', ConsentVersion: '1.0' }],
          }),
          preference('Offers'),
          preference('News2', { MatchType: 'Implied' }),
        ],
      },
    ],
    ProfilePreferences: [preference('Offers', {}, 'Solicit'), preference('News', {}, 'Solicit')],
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-1' }],
  });

  async function created(body: object): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', full)
      .send(body)
      .expect(202);
    const profileId = res.body.ProfileId as number;
    await complete(profileId);
    return profileId;
  }

  async function complete(profileId: number): Promise<void> {
    await eventually(async () => {
      const res = await request(app.http).get(`${base()}/${profileId}`).set('Authorization', full);
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });
  }

  const get = (profileId: number, authorization: string, query = '') =>
    request(app.http)
      .get(`${base()}/${profileId}${query}`)
      .set('Authorization', authorization)
      .expect(200)
      .then((res) => res.body);

  const names = (elements: { Name?: string; ConsentType?: string; ProgramId?: string }[]) =>
    elements
      .map((e) => e.Name ?? e.ConsentType ?? programNames.get(e.ProgramId!) ?? e.ProgramId)
      .sort();

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    const res = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Programs`)
      .set('Authorization', await tenant.bearer())
      .send({
        // Program names are unique per client: the harness has an "Offers" already.
        Programs: ['News', 'News2', 'Offers'].map((name) => ({
          Name: `Scope ${name}`,
          ProgramType: 'Marketing',
          Filters: [
            { Name: `${name} by email`, ChannelID: 'Email' },
            { Name: `${name} in the app`, ChannelID: 'Solicit' },
          ],
        })),
      })
      .expect(201);
    for (const program of res.body.Programs as {
      Id: number;
      Name: string;
      Filters: { ID: number; ChannelID: Channel }[];
    }[]) {
      const ProgramId = String(program.Id);
      const name = program.Name.replace('Scope ', '');
      programNames.set(ProgramId, name);
      filters[name] = Object.fromEntries(
        program.Filters.map((f) => [
          f.ChannelID,
          { ProgramId, ChannelId: f.ChannelID, FilterId: String(f.ID) },
        ]),
      ) as Record<Channel, object>;
    }
    admin = app.api.get(TenantAdminService);
    const everyArea = (access: 'read' | 'write') =>
      (['profiles', 'preferences', 'consents', 'history'] as const).map((area) => ({
        area,
        access,
      }));
    await admin.defineUserGroup(tenant.clientId, 'Newsletter desk', everyArea('write'), {
      programs: [(filters.News.Email as { ProgramId: string }).ProgramId],
      consentTypes: ['Marketing', 'Email'],
      customFields: ['Tier'],
    });
    await admin.defineUserGroup(tenant.clientId, 'Consent readers', [
      { area: 'profiles', access: 'write' },
      { area: 'consents', access: 'read' },
    ]);
    await admin.defineUserGroup(tenant.clientId, 'Viewers', everyArea('read'));
    await admin.addUser({ clientId: tenant.clientId, userId: 'desk', group: 'Newsletter desk' });
    await admin.addUser({ clientId: tenant.clientId, userId: 'reader', group: 'Consent readers' });
    await admin.addUser({ clientId: tenant.clientId, userId: 'viewer', group: 'Viewers' });
    full = await tenant.bearer();
    scoped = tenant.signed({ userId: 'desk' });
    readOnlyConsents = tenant.signed({ userId: 'reader' });
    viewer = tenant.signed({ userId: 'viewer' });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('a retrieval shows only the programs, consent types and custom fields of the group', async () => {
    const profileId = await created(fullProfile());
    const all = await get(profileId, full, '?implied=true');
    expect(names(all.CustomFields)).toEqual(['Hidden', 'Tier']);
    expect(names(all.Emails[0].EmailPreferences)).toEqual(['News', 'News2', 'Offers']);

    const seen = await get(profileId, scoped);
    expect(names(seen.CustomFields)).toEqual(['Tier']);
    expect(names(seen.Consents)).toEqual(['Marketing']);
    expect(names(seen.Emails[0].Consents)).toEqual(['Email']);
    expect(names(seen.Emails[0].EmailPreferences)).toEqual(['News']);
    expect(names(seen.Emails[0].EmailPreferences[0].ConsentAssociations)).toEqual(['Marketing']);
    expect(names(seen.ProfilePreferences)).toEqual(['News']);
    // Elements outside the scoped lists are untouched by the lists' absence: the name shows.
    expect(seen.CustomerName.FirstName).toBe('Ann');
    // Each process keeps renderings per stored version and view: asked again, in turn,
    // each caller still gets its own view of the same version.
    expect(await get(profileId, full, '?implied=true')).toEqual(all);
    expect(await get(profileId, scoped)).toEqual(seen);
    expect(names((await get(profileId, full)).Emails[0].EmailPreferences)).toEqual([
      'News',
      'Offers',
    ]);

    // By alternate id and through a search, the same.
    const byPair = await request(app.http)
      .get(`${base()}/AlternateId?alternateIdType=CRM&alternateId=scope-1`)
      .set('Authorization', scoped)
      .expect(200);
    expect(names(byPair.body.CustomFields)).toEqual(['Tier']);
    const search = await request(app.http)
      .get(`${base()}/Email?emailAddress=ann@example.com`)
      .set('Authorization', scoped)
      .expect(200);
    expect(search.body).toHaveLength(1);
    expect(names(search.body[0].Consents)).toEqual(['Marketing']);
  });

  it("a group's scope redefined applies to its users' next requests", async () => {
    const profileId = await created({
      ...fullProfile(),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-redefined' }],
    });
    await admin.defineUserGroup(tenant.clientId, 'Redefined', [
      { area: 'profiles', access: 'read' },
      { area: 'consents', access: 'read' },
    ]);
    await admin.addUser({ clientId: tenant.clientId, userId: 'redefined', group: 'Redefined' });
    const user = tenant.signed({ userId: 'redefined' });
    // Twice: the api keeps what it made of the caller (its normalised scope) between requests.
    expect(names((await get(profileId, user)).Consents)).toEqual(['Marketing', 'Terms']);
    expect(names((await get(profileId, user)).Consents)).toEqual(['Marketing', 'Terms']);
    await admin.defineUserGroup(
      tenant.clientId,
      'Redefined',
      [
        { area: 'profiles', access: 'read' },
        { area: 'consents', access: 'read' },
      ],
      { consentTypes: ['Terms'] },
    );
    expect(names((await get(profileId, user)).Consents)).toEqual(['Terms']);
  });

  it('implied preferences are returned only with implied=true', async () => {
    const profileId = await created({
      ...fullProfile(),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-implied' }],
    });
    const plain = await get(profileId, full);
    expect(names(plain.Emails[0].EmailPreferences)).toEqual(['News', 'Offers']);
    const withImplied = await get(profileId, full, '?implied=true');
    expect(names(withImplied.Emails[0].EmailPreferences)).toEqual(['News', 'News2', 'Offers']);
    await request(app.http)
      .get(`${base()}/${profileId}?implied=maybe`)
      .set('Authorization', full)
      .expect(400);
  });

  it('without read access to an area, its data is hidden', async () => {
    const profileId = await created({
      ...fullProfile(),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-areas' }],
    });
    const seen = await get(profileId, readOnlyConsents);
    expect(names(seen.Consents)).toEqual(['Marketing', 'Terms']);
    expect(seen.ProfilePreferences).toEqual([]);
    expect(seen.Emails[0].EmailPreferences).toEqual([]);
    expect(names(seen.CustomFields)).toEqual(['Hidden', 'Tier']);
  });

  it('a write naming anything outside the scope is 403 and changes nothing', async () => {
    const profileId = await created({
      ...fullProfile(),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-403' }],
    });
    const refusals: [object, string][] = [
      [{ CustomFields: [{ Name: 'Hidden', Value: 'x' }] }, 'CustomFields[0].Name (value "Hidden")'],
      [{ Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] }, 'Consents[0].ConsentType'],
      [
        { ProfilePreferences: [preference('Offers', {}, 'Solicit')] },
        'ProfilePreferences[0].ProgramId',
      ],
      [
        {
          Emails: [
            {
              EmailAddress: 'ann@example.com',
              EmailPreferences: [
                preference('News', { ConsentAssociations: [{ ConsentType: 'Terms' }] }),
              ],
            },
          ],
        },
        'Emails[0].EmailPreferences[0].ConsentAssociations[0].ConsentType (value "Terms")',
      ],
    ];
    for (const [body, named] of refusals) {
      const res = await request(app.http)
        .post(`${base()}/${profileId}`)
        .set('Authorization', scoped)
        .send(body)
        .expect(403);
      expect(res.body.Message).toContain(named);
    }
    // A create too.
    await request(app.http)
      .post(base())
      .set('Authorization', scoped)
      .send({ CustomerType: 'Customer', CustomFields: [{ Name: 'Hidden', Value: 'x' }] })
      .expect(403);
    // Writing consents needs write access to the consents area.
    const noWrite = await request(app.http)
      .post(`${base()}/${profileId}`)
      .set('Authorization', readOnlyConsents)
      .send({ Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] })
      .expect(403);
    expect(noWrite.body.Message).toContain('no write access to consents');
    // A read-only group cannot write at all.
    await request(app.http)
      .post(`${base()}/${profileId}`)
      .set('Authorization', viewer)
      .send({ CustomerName: { FirstName: 'X' } })
      .expect(403);

    const updates = await request(app.http)
      .get(`${base()}/${profileId}/Updates`)
      .set('Authorization', full)
      .expect(200);
    expect(updates.body.Updates).toHaveLength(1); // only the create was accepted
    const after = await get(profileId, full, '?implied=true');
    expect(after.CustomFields.find((f: { Name: string }) => f.Name === 'Hidden').Value).toBe(
      'secret',
    );
  });

  it('writes within the scope are accepted, and a retrieved profile sent back stays allowed', async () => {
    const profileId = await created({
      ...fullProfile(),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-ok' }],
    });
    await request(app.http)
      .post(`${base()}/${profileId}`)
      .set('Authorization', scoped)
      .send({ CustomFields: [{ Name: 'Tier', Value: 'Silver' }] })
      .expect(202);
    await complete(profileId);
    // The consent reader sends back what it saw, consents included (unchanged): allowed.
    const seen = await get(profileId, readOnlyConsents);
    await request(app.http)
      .post(`${base()}/${profileId}`)
      .set('Authorization', readOnlyConsents)
      .send({ ...seen, CustomerName: { ...seen.CustomerName, FirstName: 'Anna' } })
      .expect(202);
    await complete(profileId);
    const after = await get(profileId, full);
    expect(after.CustomerName.FirstName).toBe('Anna');
    expect(after.CustomFields.find((f: { Name: string }) => f.Name === 'Tier').Value).toBe(
      'Silver',
    );
  });

  it('an overwrite by a scoped group keeps what the group cannot see', async () => {
    const profileId = await created({
      ...fullProfile(),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-put' }],
    });
    await request(app.http)
      .put(`${base()}/${profileId}`)
      .set('Authorization', scoped)
      .send({
        CustomerType: 'Customer',
        CustomFields: [{ Name: 'Tier', Value: 'Bronze' }],
        Emails: [{ EmailAddress: 'ann@example.com', EmailAddressType: 'Personal' }],
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-put' }],
      })
      .expect(202);
    await complete(profileId);
    const after = await get(profileId, full, '?implied=true');
    // Overwritten: the name (absent from the body) and the visible consents and preferences.
    expect(after.CustomerName).toBeUndefined();
    expect(names(after.CustomFields)).toEqual(['Hidden', 'Tier']);
    expect(after.CustomFields.find((f: { Name: string }) => f.Name === 'Tier').Value).toBe(
      'Bronze',
    );
    expect(names(after.Consents)).toEqual(['Terms']);
    expect(names(after.ProfilePreferences)).toEqual(['Offers']);
    expect(names(after.Emails[0].Consents)).toEqual([]);
    expect(names(after.Emails[0].EmailPreferences)).toEqual(['News2', 'Offers']);
  });

  it('a patch works on what the group sees, keeps the rest, and is 403 outside the scope', async () => {
    const profileId = await created({
      ...fullProfile(),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'scope-patch' }],
    });
    // The scoped view has one custom field (Tier) at index 0: replacing the whole list
    // replaces only what the group sees.
    const res = await request(app.http)
      .patch(`${base()}/${profileId}`)
      .set('Authorization', scoped)
      .send([
        { op: 'replace', path: '/CustomFields', value: [{ Name: 'Tier', Value: 'Platinum' }] },
      ])
      .expect(200);
    expect(names(res.body.CustomFields)).toEqual(['Tier']);
    const after = await get(profileId, full);
    expect(after.CustomFields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Name: 'Tier', Value: 'Platinum' }),
        expect.objectContaining({ Name: 'Hidden', Value: 'secret' }),
      ]),
    );

    const refused = await request(app.http)
      .patch(`${base()}/${profileId}`)
      .set('Authorization', scoped)
      .send([{ op: 'add', path: '/CustomFields/-', value: { Name: 'c1', Value: 'x' } }])
      .expect(403);
    expect(refused.body.Message).toContain('c1');
    const unchanged = await get(profileId, full);
    expect(names(unchanged.CustomFields)).toEqual(['Hidden', 'Tier']);
  });

  it('define-group validates the scope lists', async () => {
    await expect(
      admin.defineUserGroup(tenant.clientId, 'Bad', [], { programs: ['x'.repeat(300)] }),
    ).rejects.toThrow('at most 256 characters');
    const { group } = await admin.defineUserGroup(tenant.clientId, 'Trimmed', [], {
      customFields: [' Tier ', 'Tier', ''],
    });
    expect(group.scope).toEqual({ customFields: ['Tier'] });
  });
});
