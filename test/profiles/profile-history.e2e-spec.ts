import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { tenantKey } from '@app/shared';
import { TenantAdminService } from '@app/auth';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, fetchBearer, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';
import { ProfileHistoryRepository } from '../../libs/profiles/src/repositories/profile-history.repository';

type Entry = Record<string, any>;

/**
 * Historical retrieval: GET /{clientId}/Profile/{profileId}/History/<category> and
 * /{clientId}/Profile/AlternateId/History/<category>?alternateIdType=&alternateId=.
 * History is written by the worker with the write itself, so it always agrees with the
 * profile as GET shows it.
 */
describe('Profile history', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  const base = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}/Profile`;
  const crmId = `CRM-${randomBytes(4).toString('hex')}`;
  const loyaltyId = `L-${randomBytes(4).toString('hex')}`;
  let id: number;
  let writeTimes: string[];

  const get = (profileId: number, authorization = auth) =>
    request(app.http).get(`${base()}/${profileId}`).set('Authorization', authorization);
  const complete = (profileId: number) =>
    eventually(async () => {
      const res = await get(profileId);
      return res.body.UpdateStatus === 'Complete' ? (res.body as Entry) : undefined;
    });
  const history = (path: string, authorization = auth, t: TestTenant = tenant) =>
    request(app.http)
      .get(`${base(t)}/${path}`)
      .set('Authorization', authorization);
  const entries = async (path: string): Promise<Entry[]> => {
    const res = await history(path).expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    return res.body as Entry[];
  };

  async function create(body: object): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', ...body })
      .expect(202);
    await complete(res.body.ProfileId);
    return res.body.ProfileId as number;
  }

  async function write(method: 'post' | 'put', profileId: number, body: object): Promise<void> {
    await request(app.http)
      [method](`${base()}/${profileId}`)
      .set('Authorization', auth)
      .send(body)
      .expect(202);
    await complete(profileId);
  }

  // The preferences' filters, filled in by beforeAll: program P1 with the Solicit filters F1
  // and F2 (profile preferences), program P2 with the Email filter E1.
  const P1F1: Record<string, unknown> = { PreferenceType: 1 };
  const P1F2: Record<string, unknown> = { PreferenceType: 1 };
  const P2E1: Record<string, unknown> = { PreferenceType: 1 };

  const createBody = {
    CustomerType: 'Customer',
    CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
    DefaultLocale: 'en-us',
    CustomFields: [
      { Name: 'Tier', Value: 'Gold' },
      { Name: 'Hidden', Value: 'h1' },
    ],
    Consents: [
      { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 },
      { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 },
    ],
    ProfilePreferences: [P1F1],
    Emails: [
      {
        EmailAddress: 'ann@example.com',
        EmailAddressType: 'Personal',
        Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
        EmailPreferences: [P2E1],
      },
    ],
    AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: crmId }],
  };
  const mergeBody = {
    CustomerName: { FirstName: 'Anne' },
    CustomFields: [{ Name: 'Tier', Value: 'Platinum' }],
    Emails: [{ EmailAddress: 'work@example.com', EmailAddressType: 'Personal' }],
    Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }],
    ProfilePreferences: [P1F2],
    AlternateIds: [{ AlternateIdType: 'Loyalty', AlternateId: loyaltyId }],
  };
  // The profile as it is after the merge, except the work email: only that removal changes.
  const overwriteBody = {
    ...createBody,
    CustomerName: { FirstName: 'Anne', LastName: 'Lee' },
    CustomFields: [
      { Name: 'Tier', Value: 'Platinum' },
      { Name: 'Hidden', Value: 'h1' },
    ],
    Consents: [
      { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 3 },
      { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 },
    ],
    ProfilePreferences: [...createBody.ProfilePreferences, ...mergeBody.ProfilePreferences],
    AlternateIds: [...createBody.AlternateIds, ...mergeBody.AlternateIds],
  };

  const currentAlternateIds = [
    expect.objectContaining({ AlternateIdType: 'CRM', AlternateId: crmId, IsActive: true }),
    expect.objectContaining({ AlternateIdType: 'Loyalty', AlternateId: loyaltyId, IsActive: true }),
  ];

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    const { programs } = await configureTestTenant(app, tenant);
    await configureTestTenant(app, other);
    auth = await tenant.bearer();
    const res = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/Programs`)
      .set('Authorization', auth)
      .send({
        Programs: [
          {
            Name: 'P1',
            ProgramType: 'Marketing',
            Filters: [
              { Name: 'F1', ChannelID: 'Solicit' },
              { Name: 'F2', ChannelID: 'Solicit' },
            ],
          },
        ],
      })
      .expect(201);
    const [p1] = res.body.Programs as { Id: number; Filters: { ID: number }[] }[];
    const solicit = (filter: { ID: number }) => ({
      ProgramId: String(p1.Id),
      ChannelId: 'Solicit',
      FilterId: String(filter.ID),
    });
    Object.assign(P1F1, solicit(p1.Filters[0]));
    Object.assign(P1F2, solicit(p1.Filters[1]));
    Object.assign(P2E1, programs.newsletter.email);

    id = await create(createBody);
    await write('post', id, mergeBody);
    await write('put', id, overwriteBody);
    const updates = await request(app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    writeTimes = (updates.body.Updates as { SubmittedUtcTime: string; Status: string }[])
      .map((update) => {
        expect(update.Status).toBe('Complete');
        return update.SubmittedUtcTime;
      })
      .reverse();
    expect(writeTimes).toHaveLength(3);
  });
  afterAll(() => app?.close());

  /** Every route of a category, by id and by both alternate ids (any case). */
  const byEveryAddress = (category: string, query = '') => [
    `${id}/History/${category}${query ? `?${query}` : ''}`,
    `AlternateId/History/${category}?alternateIdType=crm&alternateId=${crmId.toLowerCase()}${query ? `&${query}` : ''}`,
    `AlternateId/History/${category}?alternateIdType=Loyalty&alternateId=${loyaltyId}${query ? `&${query}` : ''}`,
  ];

  it('lists the standard fields after each write that changed them, ascending', async () => {
    for (const path of byEveryAddress('StandardFields')) {
      const list = await entries(path);
      expect(list).toEqual([
        {
          ProfileId: id,
          IsActive: true,
          Edited: {
            CreateDate: writeTimes[0],
            CreatedBy: tenant.userId,
            ModifiedDate: writeTimes[0],
            ModifiedBy: tenant.userId,
          },
          CustomerType: 'Customer',
          PreserveConsents: true,
          PreservePreferences: true,
          CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
          DefaultLocale: 'en-us',
          AlternateIds: currentAlternateIds,
        },
        expect.objectContaining({
          ProfileId: id,
          CustomerName: { FirstName: 'Anne', LastName: 'Lee' },
          Edited: expect.objectContaining({
            CreateDate: writeTimes[0],
            ModifiedDate: writeTimes[1],
          }),
          AlternateIds: currentAlternateIds,
        }),
      ]);
      // Only the category's part: nothing else of the profile.
      expect(Object.keys(list[0])).not.toEqual(expect.arrayContaining(['CustomFields']));
      expect(list[0]).not.toHaveProperty('UpdateStatus');
    }
  });

  it('lists custom field changes one field per entry, ascending', async () => {
    for (const path of byEveryAddress('CustomFields')) {
      const list = await entries(path);
      expect(list.map((entry) => entry.CustomFields)).toEqual([
        [expect.objectContaining({ Name: 'Tier', Value: 'Gold', IsActive: true })],
        [expect.objectContaining({ Name: 'Hidden', Value: 'h1', IsActive: true })],
        [
          {
            Name: 'Tier',
            Value: 'Platinum',
            IsActive: true,
            Edited: expect.objectContaining({
              CreateDate: writeTimes[0],
              ModifiedDate: writeTimes[1],
            }),
          },
        ],
      ]);
      for (const entry of list) {
        expect(entry.ProfileId).toBe(id);
        expect(entry.AlternateIds).toEqual(currentAlternateIds);
        expect(entry).not.toHaveProperty('CustomerName');
      }
    }
  });

  it('lists contact elements without their nested lists, a removal as IsActive false', async () => {
    for (const path of byEveryAddress('ContactElements')) {
      const list = await entries(path);
      expect(list.map((entry) => entry.Emails)).toEqual([
        [
          expect.objectContaining({
            EmailAddress: 'ann@example.com',
            EmailAddressType: 'Personal',
            IsActive: true,
          }),
        ],
        [expect.objectContaining({ EmailAddress: 'work@example.com', IsActive: true })],
        [
          expect.objectContaining({
            EmailAddress: 'work@example.com',
            IsActive: false,
            Edited: expect.objectContaining({ ModifiedDate: writeTimes[2] }),
          }),
        ],
      ]);
      for (const entry of list) {
        expect(entry.Emails[0]).not.toHaveProperty('EmailPreferences');
        expect(entry.Emails[0]).not.toHaveProperty('Consents');
        expect(entry.AlternateIds).toEqual(currentAlternateIds);
      }
    }
  });

  it('lists preferences, contact ones inside their element, and filterId narrows them', async () => {
    const p1f1 = expect.objectContaining({
      ProgramId: P1F1.ProgramId,
      FilterId: P1F1.FilterId,
      IsActive: true,
      LastModifiedDate: writeTimes[0],
    });
    const p2f1 = expect.objectContaining({
      ProgramId: P2E1.ProgramId,
      FilterId: P2E1.FilterId,
      IsActive: true,
    });
    const p1f2 = expect.objectContaining({
      ProgramId: P1F2.ProgramId,
      FilterId: P1F2.FilterId,
      LastModifiedDate: writeTimes[1],
    });
    for (const path of byEveryAddress('Preferences')) {
      const list = await entries(path);
      expect(list).toEqual([
        { ProfileId: id, ProfilePreferences: [p1f1], AlternateIds: currentAlternateIds },
        {
          ProfileId: id,
          Emails: [
            {
              EmailAddress: 'ann@example.com',
              EmailAddressType: 'Personal',
              EmailPreferences: [p2f1],
            },
          ],
          AlternateIds: currentAlternateIds,
        },
        { ProfileId: id, ProfilePreferences: [p1f2], AlternateIds: currentAlternateIds },
      ]);
    }
    for (const [filter, expected] of [
      [P1F1, [[p1f1]]],
      [P2E1, [[p2f1]]],
    ] as const) {
      for (const path of byEveryAddress('Preferences', `filterId=%20${filter.FilterId}%20`)) {
        const list = await entries(path);
        expect(
          list.map((entry) => entry.ProfilePreferences ?? entry.Emails[0].EmailPreferences),
        ).toEqual(expected);
      }
    }
    expect(await entries(`${id}/History/Preferences?filterId=${P1F2.FilterId}`)).toEqual([
      expect.objectContaining({ ProfilePreferences: [p1f2] }),
    ]);
    expect(await entries(`${id}/History/Preferences?filterId=none`)).toEqual([]);
    const twice = await history(`${id}/History/Preferences?filterId=a&filterId=b`).expect(400);
    expect(twice.body.Message).toMatch(/filterId/);
  });

  it('lists consents by type, then version, then modified date; a status change keeps its trace', async () => {
    for (const path of byEveryAddress('Consents')) {
      const list = await entries(path);
      expect(list).toEqual([
        {
          ProfileId: id,
          Emails: [
            {
              EmailAddress: 'ann@example.com',
              EmailAddressType: 'Personal',
              Consents: [expect.objectContaining({ ConsentType: 'Email', ConsentStatus: 1 })],
            },
          ],
          AlternateIds: currentAlternateIds,
        },
        {
          ProfileId: id,
          Consents: [expect.objectContaining({ ConsentType: 'Marketing', ConsentStatus: 1 })],
          AlternateIds: currentAlternateIds,
        },
        {
          ProfileId: id,
          Consents: [
            expect.objectContaining({
              ConsentType: 'Terms',
              ConsentVersion: '1.0',
              ConsentStatus: 1,
              IsActive: true,
              Edited: expect.objectContaining({ ModifiedDate: writeTimes[0] }),
            }),
          ],
          AlternateIds: currentAlternateIds,
        },
        {
          ProfileId: id,
          Consents: [
            expect.objectContaining({
              ConsentType: 'Terms',
              ConsentStatus: 3,
              Edited: expect.objectContaining({ ModifiedDate: writeTimes[1] }),
            }),
          ],
          AlternateIds: currentAlternateIds,
        },
      ]);
    }
  });

  it('routes Profile/AlternateId/History/... to the alternate-id lookup, not as a profile id', async () => {
    const missing = await history('AlternateId/History/StandardFields').expect(400);
    expect(missing.body.Message).toMatch(/alternateIdType/);
    expect(missing.body.Message).not.toMatch(/profileId/);
    const unknown = await history(
      'AlternateId/History/Consents?alternateIdType=CRM&alternateId=nobody',
    ).expect(404);
    expect(unknown.body.Message).toMatch(/nobody/);
    const invalid = await history('abc/History/StandardFields').expect(400);
    expect(invalid.body.Message).toMatch(/profileId/);
  });

  it('answers 404 for an unknown profile and for another tenant', async () => {
    await history('999999/History/StandardFields').expect(404);
    // Another tenant's token on this tenant's path, and this profile id in the other tenant.
    const otherAuth = await other.bearer();
    const foreign = await history(`${id}/History/CustomFields`, otherAuth).expect(404);
    expect(foreign.body.Message).toMatch(/Client/);
    await history(`${id}/History/CustomFields`, otherAuth, other).expect(404);
    await history(
      `AlternateId/History/CustomFields?alternateIdType=CRM&alternateId=${crmId}`,
      otherAuth,
      other,
    ).expect(404);
  });

  it('answers 404 once the profile is deleted, and keeps none of its history', async () => {
    const alternateId = `D-${randomBytes(4).toString('hex')}`;
    const doomed = await create({
      CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: alternateId }],
    });
    expect(await entries(`${doomed}/History/CustomFields`)).toHaveLength(1);
    await request(app.http).delete(`${base()}/${doomed}`).set('Authorization', auth).expect(204);
    for (const category of [
      'StandardFields',
      'CustomFields',
      'ContactElements',
      'Preferences',
      'Consents',
    ]) {
      await history(`${doomed}/History/${category}`).expect(404);
      await history(
        `AlternateId/History/${category}?alternateIdType=CRM&alternateId=${alternateId}`,
      ).expect(404);
    }
    // The pages go in the stage after the save (the 204 waits for the save, not for it).
    const db = app.api.get<Connection>(getConnectionToken());
    const left = () =>
      db
        .collection('profile_history')
        .countDocuments({ _id: { $regex: `^${tenant.clientId}\\|${doomed}\\|` } } as object);
    await eventually(async () => ((await left()) === 0 ? true : undefined));
    expect(await left()).toBe(0);
  });

  it('records nothing for a write the worker refused, nor for a tag removal', async () => {
    const tag = `t${randomBytes(4).toString('hex')}`;
    const profileId = await create({
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      ProfileTags: [{ Name: tag }],
    });
    const before = await entries(`${profileId}/History/StandardFields`);
    expect(before).toHaveLength(1);
    // A patch whose test fails: the worker refuses the whole write (400, nothing changes).
    await request(app.http)
      .patch(`${base()}/${profileId}`)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json-patch+json')
      .send(
        JSON.stringify([
          { op: 'replace', path: '/CustomerName/FirstName', value: 'Zed' },
          { op: 'test', path: '/CustomerName/LastName', value: 'Nope' },
        ]),
      )
      .expect(400);
    const updates = await request(app.http)
      .get(`${base()}/${profileId}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    expect(updates.body.Updates[0]).toMatchObject({ Operation: 'patch', Status: 'Failed' });
    expect(await entries(`${profileId}/History/StandardFields`)).toEqual(before);
    // A tag removal (a queued system write) is no history either.
    await request(app.http)
      .delete(`/Profiles/v4/${tenant.clientId}/Tags/${tag}`)
      .set('Authorization', auth)
      .expect(204);
    await eventually(async () => {
      const res = await get(profileId);
      return res.body.UpdateStatus === 'Complete' && !res.body.ProfileTags?.length
        ? true
        : undefined;
    });
    expect(await entries(`${profileId}/History/StandardFields`)).toEqual(before);
  });

  /**
   * Records a standard-field entry for write `seq` as a worker's attempt would before its
   * save (on the pages the profile counts), without the save: what a crash leaves.
   */
  async function orphanEntry(profileId: number, seq: number, firstName: string): Promise<void> {
    const db = app.api.get<Connection>(getConnectionToken());
    const stored = await db
      .collection<{ _id: string; historyPages?: number }>('profiles')
      .findOne({ _id: `${tenant.clientId}|${profileId}` });
    await app.api.get(ProfileHistoryRepository).record(stored?.historyPages ?? 0, [
      {
        _id: tenantKey(tenant.clientId, profileId, seq, 0),
        clientId: tenant.clientId,
        profileId,
        seq,
        n: 0,
        category: 'standard',
        modifiedAt: new Date().toISOString(),
        snapshot: {
          IsActive: true,
          CustomerType: 'Customer',
          CustomerName: { FirstName: firstName },
        },
      },
    ]);
  }

  it('records nothing for a write refused when applied, even after an earlier attempt recorded it', async () => {
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/CustomFields/Text`)
      .set('Authorization', auth)
      .send({
        TextFields: [
          {
            Name: 'FirstSeen',
            LocalizedDisplayNames: [{ Locale: 'en-us', Name: 'FirstSeen' }],
            UpdateRuleId: 2,
          },
        ],
      })
      .expect(201);
    const profileId = await create({ CustomerName: { FirstName: 'Ann' } });
    await app.stopWorker(app.workers[0]);
    try {
      // FirstSeen may only be set while blank: both merges pass acceptance (blank now) ...
      for (const [value, firstName] of [
        ['2026-01-01', 'Bea'],
        ['2026-02-02', 'Cy'],
      ]) {
        await request(app.http)
          .post(`${base()}/${profileId}`)
          .set('Authorization', auth)
          .send({
            CustomerName: { FirstName: firstName },
            CustomFields: [{ Name: 'FirstSeen', Value: value }],
          })
          .expect(202);
      }
      // ... an attempt at seq 3 recorded its entry and crashed before saving ...
      await orphanEntry(profileId, 3, 'Cy');
    } finally {
      await app.startWorker();
    }
    // ... and the worker applies seq 2 and refuses seq 3: its entry must not appear.
    await complete(profileId);
    const updates = await request(app.http)
      .get(`${base()}/${profileId}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    expect(updates.body.Updates[0]).toMatchObject({ Sequence: 3, Status: 'Failed' });
    const standard = await entries(`${profileId}/History/StandardFields`);
    expect(standard.map((entry) => entry.CustomerName.FirstName)).toEqual(['Ann', 'Bea']);
    const fields = await entries(`${profileId}/History/CustomFields`);
    expect(fields.map((entry) => entry.CustomFields[0].Value)).toEqual(['2026-01-01']);
  });

  it('never shows a write that is not applied yet, and agrees with GET once it is', async () => {
    const profileId = await create({ CustomerName: { FirstName: 'Ann', LastName: 'Lee' } });
    const worker = app.workers[0];
    await app.stopWorker(worker);
    try {
      await request(app.http)
        .post(`${base()}/${profileId}`)
        .set('Authorization', auth)
        .send({
          CustomerName: { FirstName: 'Zoe' },
          CustomFields: [{ Name: 'Tier', Value: 'New' }],
        })
        .expect(202);
      // What a worker that crashed (or lost the race) between recording and saving seq 2
      // leaves behind: an entry above the profile's appliedSeq.
      await orphanEntry(profileId, 2, 'Ghost');
      const pending = await get(profileId).expect(200);
      expect(pending.body.UpdateStatus).toBe('Pending Update');
      const standard = await entries(`${profileId}/History/StandardFields`);
      expect(standard.map((entry) => entry.CustomerName.FirstName)).toEqual(['Ann']);
      expect(await entries(`${profileId}/History/CustomFields`)).toEqual([]);
    } finally {
      await app.startWorker();
    }
    const profile = await complete(profileId);
    // The applied write's entry replaced the orphan of the same _id.
    const standard = await entries(`${profileId}/History/StandardFields`);
    expect(standard.map((entry) => entry.CustomerName.FirstName)).toEqual(['Ann', 'Zoe']);
    const last = standard[standard.length - 1];
    for (const field of [
      'ProfileId',
      'IsActive',
      'RegistrationConfirmed',
      'CustomerType',
      'PreserveConsents',
      'PreservePreferences',
      'CustomerName',
      'DefaultLocale',
      'ReasonCode',
      'Edited',
    ]) {
      expect({ [field]: last[field] }).toEqual({ [field]: profile[field] });
    }
    expect((await entries(`${profileId}/History/CustomFields`))[0].CustomFields).toEqual(
      profile.CustomFields,
    );
  });

  it('needs history read permission, and shows only what the user group may see', async () => {
    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(tenant.clientId, 'Profile readers', [
      { area: 'profiles', access: 'read' },
    ]);
    await admin.addUser({ clientId: tenant.clientId, userId: 'reader', group: 'Profile readers' });
    const readerAuth = await fetchBearer(app, tenant, 'reader');
    const denied = await history(`${id}/History/StandardFields`, readerAuth).expect(403);
    expect(denied.body.Message).toMatch(/history/);

    await admin.defineUserGroup(
      tenant.clientId,
      'Scoped historians',
      [
        { area: 'history', access: 'read' },
        { area: 'consents', access: 'read' },
        { area: 'preferences', access: 'read' },
      ],
      { customFields: ['tier'], consentTypes: ['TERMS'], programs: [P1F1.ProgramId as string] },
    );
    await admin.addUser({
      clientId: tenant.clientId,
      userId: 'scoped',
      group: 'Scoped historians',
    });
    const scopedAuth = await fetchBearer(app, tenant, 'scoped');
    const fields = (await history(`${id}/History/CustomFields`, scopedAuth).expect(200)).body;
    expect(fields.map((entry: Entry) => entry.CustomFields[0].Name)).toEqual(['Tier', 'Tier']);
    const consents = (await history(`${id}/History/Consents`, scopedAuth).expect(200)).body;
    expect(consents.map((entry: Entry) => entry.Consents[0].ConsentType)).toEqual([
      'Terms',
      'Terms',
    ]);
    const preferences = (await history(`${id}/History/Preferences`, scopedAuth).expect(200)).body;
    expect(preferences.map((entry: Entry) => entry.ProfilePreferences[0].FilterId)).toEqual([
      P1F1.FilterId,
      P1F2.FilterId,
    ]);
  });
});
