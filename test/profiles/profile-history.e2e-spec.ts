import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, fetchBearer, TestTenant } from '../harness/session';
import { type Entry, useHistorySuite } from './history-helpers';

/**
 * Historical retrieval: GET /{clientId}/Profile/{profileId}/History/<category> and
 * /{clientId}/Profile/AlternateId/History/<category>?alternateIdType=&alternateId=.
 * History is written by the worker with the write itself, so it always agrees with the
 * profile as GET shows it. Here: one profile written three times, read by every category and
 * address, and the routes' 400s, 404s and permissions. What a deleted, refused or not yet
 * applied write leaves: profile-history-writes.e2e-spec.ts.
 */
describe('Profile history', () => {
  const suite = useHistorySuite();
  const { base, complete, history, entries, create } = suite;
  let other: TestTenant;
  const crmId = `CRM-${randomBytes(4).toString('hex')}`;
  const loyaltyId = `L-${randomBytes(4).toString('hex')}`;
  let id: number;
  let writeTimes: string[];

  async function write(method: 'post' | 'put', profileId: number, body: object): Promise<void> {
    await request(suite.app.http)
      [method](`${base()}/${profileId}`)
      .set('Authorization', suite.auth)
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
    other = await createTestTenant(suite.app);
    await configureTestTenant(suite.app, other);
    const res = await request(suite.app.http)
      .post(`/Profiles/v4/${suite.tenant.clientId}/Programs`)
      .set('Authorization', suite.auth)
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
    Object.assign(P2E1, suite.programs.newsletter.email);

    id = await create(createBody);
    await write('post', id, mergeBody);
    await write('put', id, overwriteBody);
    const updates = await request(suite.app.http)
      .get(`${base()}/${id}/Updates`)
      .set('Authorization', suite.auth)
      .expect(200);
    writeTimes = (updates.body.Updates as { SubmittedUtcTime: string; Status: string }[])
      .map((update) => {
        expect(update.Status).toBe('Complete');
        return update.SubmittedUtcTime;
      })
      .reverse();
    expect(writeTimes).toHaveLength(3);
  });

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
            CreatedBy: suite.tenant.userId,
            ModifiedDate: writeTimes[0],
            ModifiedBy: suite.tenant.userId,
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

  it('answers 404 for an unknown profile and for another suite.tenant', async () => {
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

  it('needs history read permission, and shows only what the user group may see', async () => {
    const admin = suite.app.api.get(TenantAdminService);
    await admin.defineUserGroup(suite.tenant.clientId, 'Profile readers', [
      { area: 'profiles', access: 'read' },
    ]);
    await admin.addUser({
      clientId: suite.tenant.clientId,
      userId: 'reader',
      group: 'Profile readers',
    });
    const readerAuth = await fetchBearer(suite.app, suite.tenant, 'reader');
    const denied = await history(`${id}/History/StandardFields`, readerAuth).expect(403);
    expect(denied.body.Message).toMatch(/history/);

    await admin.defineUserGroup(
      suite.tenant.clientId,
      'Scoped historians',
      [
        { area: 'history', access: 'read' },
        { area: 'consents', access: 'read' },
        { area: 'preferences', access: 'read' },
      ],
      { customFields: ['tier'], consentTypes: ['TERMS'], programs: [P1F1.ProgramId as string] },
    );
    await admin.addUser({
      clientId: suite.tenant.clientId,
      userId: 'scoped',
      group: 'Scoped historians',
    });
    const scopedAuth = await fetchBearer(suite.app, suite.tenant, 'scoped');
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
