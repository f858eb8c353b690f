import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, fetchBearer, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

interface Group {
  GroupType: string;
  GroupName: string;
  IsPrimary?: boolean;
  IsActive?: boolean;
  Edited?: { ModifiedDate: string; ModifiedBy: string; CreateDate: string; CreatedBy: string };
}

describe('Groups: rename and group-profile searches', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  const base = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}`;

  async function create(body: object, t: TestTenant = tenant): Promise<number> {
    const res = await request(app.http)
      .post(`${base(t)}/Profile`)
      .set('Authorization', await t.bearer())
      .send({ CustomerType: 'Customer', ...body })
      .expect(202);
    return res.body.ProfileId as number;
  }

  /** The profile once every accepted write is applied. */
  async function applied(profileId: number, t: TestTenant = tenant): Promise<any> {
    return eventually(async () => {
      const res = await request(app.http)
        .get(`${base(t)}/Profile/${profileId}`)
        .set('Authorization', await t.bearer());
      return res.status === 200 && res.body.UpdateStatus === 'Complete' ? res.body : undefined;
    });
  }

  async function createAll(bodies: object[], t: TestTenant = tenant): Promise<number[]> {
    const ids: number[] = [];
    for (const body of bodies) ids.push(await create(body, t));
    for (const id of ids) await applied(id, t);
    return ids;
  }

  const household = (GroupName: string, extra: Partial<Group> = {}): Group => ({
    GroupType: 'Household',
    GroupName,
    ...extra,
  });

  async function groupsOf(profileId: number, t: TestTenant = tenant): Promise<Group[]> {
    return ((await applied(profileId, t)).Groups ?? []) as Group[];
  }

  function rename(groupType: string, body: object, t: TestTenant = tenant): request.Test {
    return request(app.http)
      .post(`${base(t)}/Groups/${encodeURIComponent(groupType)}/Rename`)
      .set('Authorization', auth)
      .send(body);
  }

  function groupSearch(path: string, t: TestTenant = tenant, authorization = auth): request.Test {
    return request(app.http)
      .get(`${base(t)}/Profile/GroupProfiles/${path}`)
      .set('Authorization', authorization);
  }

  async function members(path: string, t: TestTenant = tenant): Promise<number[]> {
    const res = await groupSearch(path, t, await t.bearer()).expect(200);
    expect(Array.isArray(res.body)).toBe(true);
    return (res.body as { ProfileId: number }[]).map((p) => p.ProfileId);
  }

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    await configureTestTenant(app, other);
    auth = await tenant.bearer();
    // A second group type, to show that group types are kept apart.
    const res = await request(app.http)
      .post(`${base()}/GroupTypes`)
      .set('Authorization', auth)
      .send({
        GroupTypes: [{ TypeName: 'Team', LocalizedFields: [{ Locale: 'en-us', Name: 'Team' }] }],
      });
    expect(res.status).toBe(201);
  });
  afterAll(() => app.close());

  describe('rename group', () => {
    it('renames the group on every member, keeping IsPrimary and IsActive and stamping Edited', async () => {
      const [head, member, inactive, outsider] = await createAll([
        { Groups: [household('Smith', { IsPrimary: true })] },
        { Groups: [household('smith ', { IsPrimary: false }), household('Other')] },
        { Groups: [household('SMITH', { IsActive: false })] },
        { Groups: [household('Other'), { GroupType: 'Team', GroupName: 'Smith' }] },
      ]);
      const before = (await groupsOf(head))[0];

      const res = await rename('household', {
        OldGroupName: 'SMITH',
        NewGroupName: 'Smith-Jones',
      }).expect(200);
      expect(res.body).toEqual({
        GroupType: 'household',
        OldGroupName: 'SMITH',
        NewGroupName: 'Smith-Jones',
        ProfilesQueued: 3,
      });

      const [headGroup] = await groupsOf(head);
      expect(headGroup).toMatchObject({
        GroupType: 'Household',
        GroupName: 'Smith-Jones',
        IsPrimary: true,
        IsActive: true,
      });
      expect(headGroup.Edited!.ModifiedBy).toBe(tenant.userId);
      expect(headGroup.Edited!.CreateDate).toBe(before.Edited!.CreateDate);
      expect(Date.parse(headGroup.Edited!.ModifiedDate)).toBeGreaterThan(
        Date.parse(before.Edited!.ModifiedDate),
      );
      expect((await groupsOf(member)).map((g) => [g.GroupName, g.IsPrimary])).toEqual([
        ['Smith-Jones', false],
        ['Other', false],
      ]);
      // An inactive membership is renamed too (still not shown), so it cannot come back
      // under the old name.
      expect(await groupsOf(inactive)).toEqual([]);
      expect((await groupsOf(outsider)).map((g) => `${g.GroupType}/${g.GroupName}`).sort()).toEqual(
        ['Household/Other', 'Team/Smith'],
      );

      expect(await members('Group?groupType=Household&groupName=Smith')).toEqual([]);
      expect(await members('Group?groupType=Household&groupName=smith-jones')).toEqual([
        head,
        member,
      ]);
      // The old group is gone: renaming it again finds nothing.
      await rename('Household', { OldGroupName: 'Smith', NewGroupName: 'X' }).expect(404);
    });

    it('refuses to rename onto an existing group unless AllowMerge is true, changing nothing', async () => {
      const [red, blue, both] = await createAll([
        { Groups: [household('Red', { IsPrimary: true })] },
        { Groups: [household('Blue', { IsPrimary: true })] },
        {
          Groups: [household('Red', { IsPrimary: true }), household('Blue', { IsPrimary: false })],
        },
      ]);
      for (const body of [
        { OldGroupName: 'Red', NewGroupName: 'BLUE' },
        { OldGroupName: 'Red', NewGroupName: 'Blue', AllowMerge: false },
      ]) {
        const res = await rename('Household', body).expect(400);
        expect(res.body.Message).toContain(body.NewGroupName);
        expect(res.body.Message).toContain('AllowMerge must be true');
      }
      expect(await members('Group?groupType=Household&groupName=Red')).toEqual([red, both]);
      expect(await members('Group?groupType=Household&groupName=Blue')).toEqual([blue, both]);
      const updates = await request(app.http)
        .get(`${base()}/Profile/${red}/Updates`)
        .set('Authorization', auth)
        .expect(200);
      expect(updates.body.Updates).toHaveLength(1);

      const res = await rename('Household', {
        OldGroupName: 'red',
        NewGroupName: 'Blue',
        AllowMerge: true,
      }).expect(200);
      expect(res.body.ProfilesQueued).toBe(2);
      expect(await groupsOf(red)).toMatchObject([
        { GroupName: 'Blue', IsPrimary: true, IsActive: true },
      ]);
      // In both groups: one membership is left, primary because the old one was.
      expect(await groupsOf(both)).toMatchObject([
        { GroupName: 'Blue', IsPrimary: true, IsActive: true },
      ]);
      expect(await groupsOf(blue)).toMatchObject([{ GroupName: 'Blue', IsPrimary: true }]);
      expect(await members('Group?groupType=Household&groupName=Red')).toEqual([]);
      expect(await members('Group?groupType=Household&groupName=Blue')).toEqual([red, blue, both]);
    });

    it('queues the renames: pending until applied; a membership added by a later write keeps the old name', async () => {
      const [queued] = await createAll([{ Groups: [household('Queued', { IsPrimary: true })] }]);
      const [late] = await createAll([{ Groups: [] }]);
      const [worker] = app.workers;
      await app.stopWorker(worker);
      try {
        const res = await rename('Household', {
          OldGroupName: 'Queued',
          NewGroupName: 'Renamed',
        }).expect(200);
        expect(res.body.ProfilesQueued).toBe(1);
        const pending = await request(app.http)
          .get(`${base()}/Profile/${queued}`)
          .set('Authorization', auth)
          .expect(200);
        expect(pending.body.UpdateStatus).toBe('Pending Update');
        expect(pending.body.Groups).toMatchObject([{ GroupName: 'Queued' }]);
        // Accepted after the rename: not renamed.
        await request(app.http)
          .post(`${base()}/Profile/${late}`)
          .set('Authorization', auth)
          .send({ Groups: [household('Queued')] })
          .expect(202);
      } finally {
        await app.startWorker();
      }
      expect(await groupsOf(queued)).toMatchObject([{ GroupName: 'Renamed' }]);
      expect(await groupsOf(late)).toMatchObject([{ GroupName: 'Queued' }]);
    });

    it('answers 404 for an unknown group type or a group without active members', async () => {
      await createAll([{ Groups: [household('Lonely', { IsActive: false })] }]);
      let res = await rename('Nope', { OldGroupName: 'A', NewGroupName: 'B' }).expect(404);
      expect(res.body.Message).toContain('Nope');
      res = await rename('Household', { OldGroupName: 'Nobody', NewGroupName: 'B' }).expect(404);
      expect(res.body.Message).toContain('Nobody');
      res = await rename('Household', { OldGroupName: 'Lonely', NewGroupName: 'B' }).expect(404);
      expect(res.body.Message).toContain('Lonely');
    });

    it('answers 400 for a bad body, naming the field, and for the same group twice', async () => {
      const [id] = await createAll([{ Groups: [household('Same')] }]);
      const cases: [object, string][] = [
        [{ OldGroupName: 'Same' }, 'NewGroupName'],
        [{ NewGroupName: 'X' }, 'OldGroupName'],
        [{ OldGroupName: 'Same', NewGroupName: '' }, 'NewGroupName'],
        [{ OldGroupName: 'Same', NewGroupName: '   ' }, 'NewGroupName'],
        [{ OldGroupName: 'Same', NewGroupName: 'x'.repeat(101) }, 'NewGroupName'],
        [{ OldGroupName: 'Same', NewGroupName: 7 }, 'NewGroupName'],
        [{ OldGroupName: 'Same', NewGroupName: 'X', AllowMerge: 'yes' }, 'AllowMerge'],
        [{ OldGroupName: 'Same', NewGroupName: 'X', Extra: 1 }, 'Extra'],
        [{ OldGroupName: 'Same', NewGroupName: ' SAME ' }, 'NewGroupName'],
      ];
      for (const [body, field] of cases) {
        const res = await rename('Household', body).expect(400);
        expect(res.body.Message).toContain(field);
      }
      expect(await groupsOf(id)).toMatchObject([{ GroupName: 'Same' }]);
      await rename('Household', { OldGroupName: 'Same', NewGroupName: 'x'.repeat(100) }).expect(
        200,
      );
    });

    it('needs profiles write', async () => {
      const admin = app.api.get(TenantAdminService);
      await admin.defineUserGroup(tenant.clientId, 'Profile readers', [
        { area: 'profiles', access: 'read' },
      ]);
      await admin.addUser({
        clientId: tenant.clientId,
        userId: 'reader',
        group: 'Profile readers',
      });
      const reader = await fetchBearer(app, tenant, 'reader');
      const [id] = await createAll([{ Groups: [household('Readable', { IsPrimary: true })] }]);
      await request(app.http)
        .post(`${base()}/Groups/Household/Rename`)
        .set('Authorization', reader)
        .send({ OldGroupName: 'Readable', NewGroupName: 'X' })
        .expect(403);
      const res = await groupSearch(`${id}?groupType=Household`, tenant, reader).expect(200);
      expect(res.body.map((p: { ProfileId: number }) => p.ProfileId)).toEqual([id]);
    });

    it("leaves another tenant's groups untouched, and does not see them", async () => {
      const [mine] = await createAll([{ Groups: [household('Shared')] }]);
      const [theirs] = await createAll([{ Groups: [household('Shared')] }], other);
      const [theirsOnly] = await createAll([{ Groups: [household('Theirs')] }], other);
      await rename('Household', { OldGroupName: 'Shared', NewGroupName: 'Mine' }).expect(200);
      expect(await groupsOf(mine)).toMatchObject([{ GroupName: 'Mine' }]);
      expect(await groupsOf(theirs, other)).toMatchObject([{ GroupName: 'Shared' }]);
      await rename('Household', { OldGroupName: 'Theirs', NewGroupName: 'X' }).expect(404);
      expect(await members('Group?groupType=Household&groupName=Theirs')).toEqual([]);
      expect(await members('Group?groupType=Household&groupName=Theirs', other)).toEqual([
        theirsOnly,
      ]);
    });
  });

  describe('group-profile searches', () => {
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      [ids.head, ids.member, ids.betaMember, ids.inactiveProfile, ids.noPrimary, ids.teammate] =
        await createAll([
          {
            Groups: [
              household('Alpha', { IsPrimary: true }),
              household('Beta', { IsPrimary: true }),
              { GroupType: 'Team', GroupName: 'T1', IsPrimary: true },
            ],
            AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'G-Head' }],
            Emails: [{ EmailAddress: 'Head@Example.com', EmailAddressType: 'Personal' }],
            PhoneNumbers: [{ PhoneNumber: '+1 (555) 200-0001', PhoneType: 'Mobile' }],
          },
          { Groups: [household('alpha', { IsPrimary: false })] },
          {
            Groups: [household('Beta'), household('Alpha', { IsActive: false })],
          },
          { IsActive: false, Groups: [household('Alpha')] },
          {
            Groups: [household('Gamma', { IsPrimary: false })],
            AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'G-NoPrimary' }],
            Emails: [{ EmailAddress: 'noprimary@example.com' }],
          },
          { Groups: [{ GroupType: 'Team', GroupName: 'T1' }] },
        ]);
      // The same group in another tenant is invisible here.
      await createAll([{ Groups: [household('Alpha', { IsPrimary: true })] }], other);
    });

    it('by profile id: members of the groups the profile heads, narrowed by groupName', async () => {
      expect(await members(`${ids.head}?groupType=Household`)).toEqual([
        ids.head,
        ids.member,
        ids.betaMember,
      ]);
      expect(await members(`${ids.head}?groupType=HOUSEHOLD&groupName=alpha`)).toEqual([
        ids.head,
        ids.member,
      ]);
      expect(await members(`${ids.head}?groupType=Team`)).toEqual([ids.head, ids.teammate]);
      expect(await members(`${ids.head}?groupType=Household&groupName=Nope`)).toEqual([]);
      // A member that is not primary heads nothing.
      expect(await members(`${ids.member}?groupType=Household`)).toEqual([]);
      expect(await members(`${ids.noPrimary}?groupType=Household`)).toEqual([]);
      let res = await groupSearch('99999?groupType=Household').expect(404);
      expect(res.body.Message).toContain('99999');
      res = await groupSearch(`${ids.head}`).expect(400);
      expect(res.body.Message).toContain('groupType');
      res = await groupSearch('abc?groupType=Household').expect(400);
      expect(res.body.Message).toContain('profileId');
    });

    it('returns the same content as GET profile', async () => {
      const res = await groupSearch(`${ids.head}?groupType=Household&groupName=Alpha`).expect(200);
      const head = await request(app.http)
        .get(`${base()}/Profile/${ids.head}`)
        .set('Authorization', auth)
        .expect(200);
      const member = await request(app.http)
        .get(`${base()}/Profile/${ids.member}`)
        .set('Authorization', auth)
        .expect(200);
      expect(res.body).toEqual([head.body, member.body]);
    });

    it('applies implied to the answer', async () => {
      const { newsletter, dnc } = programs;
      const [id] = await createAll([
        {
          Groups: [household('Implied', { IsPrimary: true })],
          Emails: [
            {
              EmailAddress: 'implied@example.com',
              EmailPreferences: [
                testPreference(newsletter.email, { MatchType: 'Expressed' }),
                testPreference(dnc.email, { MatchType: 'Implied' }),
              ],
            },
          ],
        },
      ]);
      const shown = async (query: string) => {
        const res = await groupSearch(`${id}?groupType=Household${query}`).expect(200);
        return (res.body[0].Emails[0].EmailPreferences as { ProgramId: string }[]).map(
          (p) => p.ProgramId,
        );
      };
      expect(await shown('')).toEqual([newsletter.email.ProgramId]);
      expect(await shown('&implied=true')).toEqual([
        newsletter.email.ProgramId,
        dnc.email.ProgramId,
      ]);
    });

    it('by alternate id (case-insensitive)', async () => {
      expect(
        await members(
          'AlternateId?alternateIdType=crm&alternateId=g-head&groupType=Household&groupName=Beta',
        ),
      ).toEqual([ids.head, ids.betaMember]);
      expect(
        await members(
          'AlternateId?alternateIdType=CRM&alternateId=G-NoPrimary&groupType=Household',
        ),
      ).toEqual([]);
      let res = await groupSearch(
        'AlternateId?alternateIdType=CRM&alternateId=G-Unknown&groupType=Household',
      ).expect(404);
      expect(res.body.Message).toContain('G-Unknown');
      res = await groupSearch('AlternateId?alternateIdType=CRM&groupType=Household').expect(400);
      expect(res.body.Message).toContain('alternateId');
    });

    it('by phone number (digits, optional type)', async () => {
      expect(
        await members('Phone?phoneNumber=15552000001&groupType=Household&groupName=Alpha'),
      ).toEqual([ids.head, ids.member]);
      expect(
        await members('Phone?phoneNumber=15552000001&phoneType=mobile&groupType=Team'),
      ).toEqual([ids.head, ids.teammate]);
      expect(
        await members('Phone?phoneNumber=15552000001&phoneType=Home&groupType=Household'),
      ).toEqual([]);
      expect(await members('Phone?phoneNumber=15559999999&groupType=Household')).toEqual([]);
      let res = await groupSearch('Phone?phoneNumber=abc&groupType=Household').expect(400);
      expect(res.body.Message).toContain('phoneNumber');
      res = await groupSearch('Phone?phoneNumber=15552000001').expect(400);
      expect(res.body.Message).toContain('groupType');
    });

    it('by email address (optional type), with implied and includeConsentHistory validated', async () => {
      const all = [ids.head, ids.member, ids.betaMember];
      expect(
        await members('Email?emailAddress=HEAD@example.com&emailType=personal&groupType=Household'),
      ).toEqual(all);
      expect(
        await members(
          'Email?emailAddress=head@example.com&groupType=Household&implied=true&includeConsentHistory=false',
        ),
      ).toEqual(all);
      expect(
        await members('Email?emailAddress=head@example.com&emailType=Work&groupType=Household'),
      ).toEqual([]);
      expect(await members('Email?emailAddress=noprimary@example.com&groupType=Household')).toEqual(
        [],
      );
      expect(await members('Email?emailAddress=nobody@example.com&groupType=Household')).toEqual(
        [],
      );
      let res = await groupSearch('Email?groupType=Household').expect(400);
      expect(res.body.Message).toContain('emailAddress');
      res = await groupSearch(
        'Email?emailAddress=head@example.com&groupType=Household&implied=maybe',
      ).expect(400);
      expect(res.body.Message).toContain('implied');
      res = await groupSearch(
        'Email?emailAddress=head@example.com&groupType=Household&includeConsentHistory=1',
      ).expect(400);
      expect(res.body.Message).toContain('includeConsentHistory');
    });

    it('by group type and name: every active member, primary or not', async () => {
      expect(await members('Group?groupType=household&groupName=ALPHA')).toEqual([
        ids.head,
        ids.member,
      ]);
      expect(await members('Group?groupType=Household&groupName=Gamma')).toEqual([ids.noPrimary]);
      expect(await members('Group?groupType=Team&groupName=Alpha')).toEqual([]);
      let res = await groupSearch('Group?groupType=Household').expect(400);
      expect(res.body.Message).toContain('groupName');
      res = await groupSearch('Group?groupName=Alpha').expect(400);
      expect(res.body.Message).toContain('groupType');
    });

    it('is not taken for a profile id, and GET profile still works beside it', async () => {
      const res = await request(app.http)
        .get(`${base()}/Profile/${ids.head}`)
        .set('Authorization', auth)
        .expect(200);
      expect(res.body.ProfileId).toBe(ids.head);
      const group = await groupSearch('Group?groupType=Team&groupName=T1').expect(200);
      expect(group.body.map((p: { ProfileId: number }) => p.ProfileId)).toEqual([
        ids.head,
        ids.teammate,
      ]);
    });

    it('answers 403 when more than 50 profiles are members, 200 with 50', async () => {
      const head = await create({ Groups: [household('Big', { IsPrimary: true })] });
      const created = [head];
      for (let i = 0; i < 49; i++) created.push(await create({ Groups: [household('Big')] }));
      for (const id of created) await applied(id);
      let res = await groupSearch('Group?groupType=Household&groupName=Big').expect(200);
      expect(res.body).toHaveLength(50);
      await createAll([{ Groups: [household('big')] }]);
      res = await groupSearch('Group?groupType=Household&groupName=Big').expect(403);
      expect(res.body.Message).toMatch(/more than 50/i);
      res = await groupSearch(`${head}?groupType=Household`).expect(403);
      expect(res.body.Message).toMatch(/more than 50/i);
    });
  });
});
