import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import {
  configureTestTenant,
  type TestFilter,
  type TestPrograms,
  testPreference,
} from '../harness/configuration';
import { createTestTenant, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

type Entry = Record<string, any>;

/*
 * Archive preferences: PUT /{clientId}/Profile/Preferences/{profileId}/Archive (compatibility
 * notes §2). Archived preferences are inactive: never returned by retrievals or searches,
 * kept in the preference history with IsActive false and the reason as $Reason_Code.
 */
describe('Archive preferences', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  /** Filter id → a readable name ("news.email"), for the lists the tests compare. */
  let filterName: Map<string, string>;
  const base = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}/Profile`;

  const archive = (profileId: number | string, body: object, authorization = auth) =>
    request(app.http)
      .put(`${base()}/Preferences/${profileId}/Archive`)
      .set('Authorization', authorization)
      .send(body);

  const get = async (profileId: number, authorization = auth): Promise<Entry> =>
    (await request(app.http).get(`${base()}/${profileId}`).set('Authorization', authorization))
      .body as Entry;

  const complete = (profileId: number) =>
    eventually(async () => {
      const profile = await get(profileId);
      return profile.UpdateStatus === 'Complete' ? profile : undefined;
    });

  /** The profile: two emails, a phone, an address, each with preferences, and one of its own. */
  const profileBody = () => {
    const offer = testPreference(programs.offers.email, {
      ConsentAssociations: [{ ConsentType: 'Marketing', ConsentVersion: '1.0' }],
    });
    return {
      CustomerType: 'Customer',
      Consents: [{ ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 }],
      ProfilePreferences: [testPreference(programs.newsletter.solicit)],
      Emails: [
        {
          EmailAddress: 'ann@example.com',
          EmailAddressType: 'Personal',
          EmailPreferences: [
            testPreference(programs.newsletter.email, {
              PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }],
            }),
            offer,
          ],
        },
        {
          EmailAddress: 'bob@example.com',
          EmailAddressType: 'Personal',
          EmailPreferences: [testPreference(programs.newsletter.email), offer],
        },
      ],
      PhoneNumbers: [
        {
          PhoneNumber: '+1 (555) 010-2030',
          PhoneType: 'Mobile',
          PhonePreferences: [
            testPreference(programs.newsletter.sms),
            testPreference(programs.newsletter.phone),
          ],
        },
      ],
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '1 Main Street',
          PostalCode: 'AB1 2CD',
          City: 'Springfield',
          AddressPreferences: [testPreference(programs.newsletter.mail)],
        },
      ],
    };
  };

  const ALL = [
    'profile:news.solicit',
    'ann@example.com:news.email',
    'ann@example.com:offers.email',
    'bob@example.com:news.email',
    'bob@example.com:offers.email',
    '+1 (555) 010-2030:news.sms',
    '+1 (555) 010-2030:news.phone',
    'Home:news.mail',
  ];
  const without = (...gone: string[]) => {
    for (const name of gone) expect(ALL).toContain(name);
    return ALL.filter((name) => !gone.includes(name)).sort();
  };

  async function created(body: object = profileBody()): Promise<number> {
    const res = await request(app.http).post(base()).set('Authorization', auth).send(body);
    expect(res.status).toBe(202);
    const profileId = res.body.ProfileId as number;
    const profile = await complete(profileId);
    expect(activeIn(profile)).toEqual([...ALL].sort());
    return profileId;
  }

  /** "<where>:<filter name>" of every preference a profile (as GET returns it) shows. */
  function activeIn(profile: Entry): string[] {
    const names: string[] = [];
    const add = (where: string, preferences: Entry[] | undefined) =>
      (preferences ?? []).forEach((p) => names.push(`${where}:${filterName.get(p.FilterId)}`));
    add('profile', profile.ProfilePreferences);
    for (const email of profile.Emails ?? []) add(email.EmailAddress, email.EmailPreferences);
    for (const phone of profile.PhoneNumbers ?? []) add(phone.PhoneNumber, phone.PhonePreferences);
    for (const address of profile.Addresses ?? [])
      add(address.AddressType, address.AddressPreferences);
    return names.sort();
  }

  const active = async (profileId: number) => activeIn(await get(profileId));

  /** The preference history entries of a profile, flattened: where, filter, the preference. */
  async function preferenceHistory(profileId: number): Promise<Entry[]> {
    const res = await request(app.http)
      .get(`${base()}/${profileId}/History/Preferences`)
      .set('Authorization', auth)
      .expect(200);
    return (res.body as Entry[]).map((entry) => {
      const element = entry.Emails?.[0] ?? entry.PhoneNumbers?.[0] ?? entry.Addresses?.[0];
      const preference =
        entry.ProfilePreferences?.[0] ??
        element?.EmailPreferences?.[0] ??
        element?.PhonePreferences?.[0] ??
        element?.AddressPreferences?.[0];
      const where = element
        ? (element.EmailAddress ?? element.PhoneNumber ?? element.AddressType)
        : 'profile';
      return { name: `${where}:${filterName.get(preference.FilterId)}`, preference };
    });
  }

  /** History entries that show an archival: the preference inactive. */
  const archivals = async (profileId: number) =>
    (await preferenceHistory(profileId)).filter((entry) => entry.preference.IsActive === false);

  const reasonOf = (preference: Entry) =>
    (preference.PreferenceAttributes as { Key: string; Value: string }[]).find(
      (attribute) => attribute.Key === '$Reason_Code',
    )?.Value;

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    await configureTestTenant(app, other);
    auth = await tenant.bearer();
    const names: [string, TestFilter][] = [
      ['news.email', programs.newsletter.email],
      ['news.sms', programs.newsletter.sms],
      ['news.phone', programs.newsletter.phone],
      ['news.mail', programs.newsletter.mail],
      ['news.solicit', programs.newsletter.solicit],
      ['offers.email', programs.offers.email],
    ];
    filterName = new Map(names.map(([name, filter]) => [filter.FilterId, name]));
  });
  afterAll(() => app?.close());

  // What each kind of item selects (type, value, FilterId, addresses by key, profile
  // preferences, GlobalDeactivate) is in libs/preferences/src/domain/preference-archive.spec.ts;
  // here one selection through the api (a body as clients send it, PhoneNumberNumeric too).
  describe('scope rules', () => {
    it('type, value and FilterId archive only that filter (phones compare by digits)', async () => {
      const id = await created();
      await archive(id, {
        PhoneNumbers: [
          {
            PhoneType: 'Mobile',
            PhoneNumber: '1.555.010.2030',
            PhoneNumberNumeric: 1,
            FilterId: programs.newsletter.sms.FilterId,
          },
        ],
        Emails: [
          {
            EmailAddressType: 'Personal',
            EmailAddress: 'bob@example.com',
            FilterId: programs.offers.email.FilterId,
          },
        ],
      }).expect(204);
      expect(await active(id)).toEqual(
        without('+1 (555) 010-2030:news.sms', 'bob@example.com:offers.email'),
      );
    });
  });

  describe('what an archived preference becomes', () => {
    it("is kept in history inactive, stamped with the archival time, the item's Reason_Code before the top-level one", async () => {
      const id = await created();
      const before = (await preferenceHistory(id)).length;
      await archive(id, {
        Reason_Code: 'TOP',
        Emails: [
          {
            EmailAddress: 'ann@example.com',
            FilterId: programs.newsletter.email.FilterId,
            Reason_Code: 'ITEM',
          },
        ],
        PhoneNumbers: [{ PhoneType: 'Mobile', FilterId: programs.newsletter.phone.FilterId }],
      }).expect(204);
      const updates = await request(app.http)
        .get(`${base()}/${id}/Updates`)
        .set('Authorization', auth)
        .expect(200);
      const [write] = updates.body.Updates as Entry[];
      expect(write).toMatchObject({ Operation: 'archive-preferences', Status: 'Complete' });

      const history = await preferenceHistory(id);
      expect(history).toHaveLength(before + 2);
      const archived = await archivals(id);
      expect(archived.map((entry) => entry.name)).toEqual([
        'ann@example.com:news.email',
        '+1 (555) 010-2030:news.phone',
      ]);
      const [email, phone] = archived.map((entry) => entry.preference);
      expect(email).toMatchObject({
        ...programs.newsletter.email,
        IsActive: false,
        LastModifiedDate: write.SubmittedUtcTime,
        PreferenceAttributes: [
          { Key: 'Topic', Value: 'News' },
          { Key: '$Reason_Code', Value: 'ITEM' },
        ],
      });
      expect(reasonOf(phone)).toBe('TOP');
      expect(phone.LastModifiedDate).toBe(write.SubmittedUtcTime);
    });

    it('is no longer returned by searches', async () => {
      const id = await created();
      const search = (query: string) =>
        request(app.http)
          .get(`${base()}/${query}`)
          .set('Authorization', auth)
          .expect(200)
          .then((res) => res.body as Entry[]);
      const topic = 'Preference/Attributes?attributes[0].Key=Topic&attributes[0].Value=News';
      expect((await search(topic)).map((profile) => profile.ProfileId)).toContain(id);

      await archive(id, {
        Emails: [{ EmailAddress: 'ann@example.com', Reason_Code: 'MOVED' }],
      }).expect(204);
      expect((await search(topic)).map((profile) => profile.ProfileId)).not.toContain(id);
      const reason =
        'Preference/Attributes?attributes[0].Key=$Reason_Code&attributes[0].Value=MOVED';
      expect(await search(reason)).toEqual([]);
      const byEmail = (await search('Email?emailAddress=ann@example.com')).find(
        (profile) => profile.ProfileId === id,
      )!;
      expect(activeIn(byEmail)).toEqual(
        without('ann@example.com:news.email', 'ann@example.com:offers.email'),
      );
    });

    // A later archival leaves an archived preference alone (preference-archive.spec.ts); an
    // overwrite brings it back like a merge (apply-profile-write.spec.ts).
    it('comes back when a later merge names it, without its archival reason', async () => {
      const id = await created();
      await archive(id, { GlobalDeactivate: true, Reason_Code: 'GONE' }).expect(204);
      const body = profileBody() as { Emails: object[] };
      await request(app.http)
        .post(`${base()}/${id}`)
        .set('Authorization', auth)
        .send({ Emails: [body.Emails[0]] })
        .expect(202);
      const profile = await complete(id);
      const restated = profile.Emails[0].EmailPreferences;
      expect(restated.length).toBeGreaterThan(0);
      for (const preference of restated)
        expect(preference.PreferenceAttributes).not.toContainEqual(
          expect.objectContaining({ Key: '$Reason_Code' }),
        );
      // What the merge did not name stays archived.
      expect(profile.ProfilePreferences).toEqual([]);
    });
  });

  describe('refusals', () => {
    it('answers 404 for an unknown profile', async () => {
      const res = await archive(999999, { GlobalDeactivate: true });
      expect(res.status).toBe(404);
      expect(res.body.Message).toMatch(/999999/);
    });

    it('answers 400 for a bad body or profile id, and changes nothing', async () => {
      const id = await created();
      // Bodies that archive nothing, or items that select nothing, are refused case by case
      // in preference-archive.spec.ts (archiveRequestProblems); one here, with the DTO's own.
      const cases: [object, RegExp][] = [
        [{}, /Nothing to archive/],
        [{ GlobalDeactivate: true, Reasons: 'X' }, /Unknown field Reasons/],
        [
          { Emails: [{ EmailAddress: 'ann@example.com', IsActive: false }] },
          /Unknown field Emails\[0\]\.IsActive/,
        ],
        [{ GlobalDeactivate: 'yes' }, /GlobalDeactivate/],
        [{ PhoneNumbers: [{ PhoneNumber: '  ' }] }, /PhoneNumbers\[0\]\.PhoneNumber/],
        [{ ProfilePreferences: [{ FilterId: 7 }] }, /ProfilePreferences\[0\]\.FilterId/],
        [{ Emails: { EmailAddress: 'ann@example.com' } }, /Emails/],
      ];
      for (const [body, message] of cases) {
        const res = await archive(id, body);
        expect([res.status, res.body.Message]).toEqual([400, expect.stringMatching(message)]);
      }
      const badId = await archive('abc', { GlobalDeactivate: true });
      expect(badId.status).toBe(400);
      expect(badId.body.Message).toMatch(/profileId/);
      expect(await active(id)).toEqual([...ALL].sort());
      expect(await archivals(id)).toEqual([]);
    });

    it("keeps tenants apart: another client's credentials or path never reach the profile (404)", async () => {
      const id = await created();
      const otherAuth = await other.bearer();
      const cross = await archive(id, { GlobalDeactivate: true }, otherAuth);
      expect(cross.status).toBe(404);
      const ownPath = await request(app.http)
        .put(`${base(other)}/Preferences/${id}/Archive`)
        .set('Authorization', otherAuth)
        .send({ GlobalDeactivate: true });
      expect(ownPath.status).toBe(404);
      expect(await active(id)).toEqual([...ALL].sort());
    });
  });

  describe('permissions', () => {
    let readOnly: string;
    let desk: string;

    beforeAll(async () => {
      const admin = app.api.get(TenantAdminService);
      await admin.defineUserGroup(tenant.clientId, 'Preference readers', [
        { area: 'profiles', access: 'write' },
        { area: 'preferences', access: 'read' },
      ]);
      await admin.defineUserGroup(
        tenant.clientId,
        'Newsletter desk',
        (['profiles', 'preferences', 'consents', 'history'] as const).map((area) => ({
          area,
          access: 'write' as const,
        })),
        { programs: [programs.newsletter.email.ProgramId] },
      );
      await admin.addUser({
        clientId: tenant.clientId,
        userId: 'reader',
        group: 'Preference readers',
      });
      await admin.addUser({ clientId: tenant.clientId, userId: 'desk', group: 'Newsletter desk' });
      readOnly = tenant.signed({ userId: 'reader' });
      desk = tenant.signed({ userId: 'desk' });
    });

    it('answers 403 without write access to preferences, and changes nothing', async () => {
      const id = await created();
      const res = await archive(id, { GlobalDeactivate: true }, readOnly);
      expect(res.status).toBe(403);
      expect(await active(id)).toEqual([...ALL].sort());
    });

    it("archives only preferences of programs the caller's user group may see", async () => {
      const id = await created();
      await archive(id, { GlobalDeactivate: true }, desk).expect(204);
      expect(await active(id)).toEqual([
        'ann@example.com:offers.email',
        'bob@example.com:offers.email',
      ]);
    });

    it('answers 403 when an item names a program outside the user group', async () => {
      const id = await created();
      const res = await archive(
        id,
        { ProfilePreferences: [{ ProgramId: programs.offers.email.ProgramId }] },
        desk,
      );
      expect(res.status).toBe(403);
      expect(res.body.Message).toMatch(/ProfilePreferences\[0\]\.ProgramId/);
      expect(await active(id)).toEqual([...ALL].sort());
    });
  });
});

// An api of its own, started once the first one is closed (one live api per file).
describe('Archive preferences when the worker is slow', () => {
  let slow: TestApp;
  afterAll(() => slow?.close());

  it('answers 202 once the wait bound passes, and the queued archival applies later', async () => {
    slow = await startTestApp({ env: { SYNC_WRITE_TIMEOUT_MS: '300' } });
    const owner = await createTestTenant(slow);
    const { programs: own } = await configureTestTenant(slow, owner);
    const ownAuth = await owner.bearer();
    const path = `/Profiles/v4/${owner.clientId}/Profile`;
    const res = await request(slow.http)
      .post(path)
      .set('Authorization', ownAuth)
      .send({
        CustomerType: 'Customer',
        ProfilePreferences: [testPreference(own.newsletter.solicit)],
      })
      .expect(202);
    const id = res.body.ProfileId as number;
    const profile = () =>
      request(slow.http)
        .get(`${path}/${id}`)
        .set('Authorization', ownAuth)
        .then((r) => r.body as Entry);
    await eventually(async () =>
      (await profile()).ProfilePreferences?.length === 1 ? true : undefined,
    );

    await slow.stopWorker(slow.workers[0]);
    await request(slow.http)
      .put(`${path}/Preferences/${id}/Archive`)
      .set('Authorization', ownAuth)
      .send({ GlobalDeactivate: true })
      .expect(202);
    expect((await profile()).ProfilePreferences).toHaveLength(1);

    await slow.startWorker();
    await eventually(async () => {
      const now = await profile();
      return now.UpdateStatus === 'Complete' && now.ProfilePreferences.length === 0
        ? true
        : undefined;
    });
  });
});
