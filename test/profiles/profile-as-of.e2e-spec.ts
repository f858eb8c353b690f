import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { TenantAdminService } from '@app/auth';
import { createTestTenant, fetchBearer, TestTenant } from '../harness/session';
import { eventually, startTestApp, TestApp } from '../harness/test-app';

type Body = Record<string, any>;

/**
 * GET /{clientId}/Profile/{profileId}?asOf=... (and by alternate id): the profile as it
 * stood at an instant, rebuilt from its history. A sequence of writes is made, the profile
 * is read after each has been applied, and every asOf answer (at each write's acceptance
 * time and between writes) must equal the GET recorded then, except what
 * docs/profile-data-api.md lists as not rebuilt: Groups and ProfileTags (left out),
 * AlternateIds (the current ones), and the Edited.ModifiedDate/ModifiedBy and
 * LastModifiedDate of elements a write restated without changing them.
 */
describe('Profile as of a past time', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  const base = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}/Profile`;
  const crmId = `CRM-${randomBytes(4).toString('hex')}`;

  const get = (path: string, authorization = auth) =>
    request(app.http).get(path).set('Authorization', authorization);
  const asOf = (profileId: number, instant: string, authorization = auth, t = tenant) =>
    get(`${base(t)}/${profileId}?asOf=${encodeURIComponent(instant)}`, authorization);
  const complete = (profileId: number) =>
    eventually(async () => {
      const res = await get(`${base()}/${profileId}`);
      return res.body.UpdateStatus === 'Complete' ? (res.body as Body) : undefined;
    });
  /** The acceptance time of the profile's newest write (what Edited.ModifiedDate shows). */
  const lastWriteTime = async (profileId: number): Promise<string> => {
    const res = await get(`${base()}/${profileId}/Updates`).expect(200);
    const [newest] = res.body.Updates as { SubmittedUtcTime: string; Status: string }[];
    expect(newest.Status).toBe('Complete');
    return newest.SubmittedUtcTime;
  };

  /** One write applied: when it was accepted, and the profile GET showed right after. */
  interface Step {
    name: string;
    at: string;
    profile: Body;
    /**
     * Every stamp rebuilt exactly: no write so far restated an item unchanged (a PUT, a
     * PATCH, or a merge naming an email only to reach its preferences or consents).
     */
    exactStamps: boolean;
  }
  const steps: Step[] = [];
  let id: number;

  async function applied(name: string, exactStamps: boolean): Promise<void> {
    const profile = await complete(id);
    steps.push({ name, at: await lastWriteTime(id), profile, exactStamps });
  }
  async function write(method: 'post' | 'put', body: object): Promise<void> {
    await request(app.http)
      [method](`${base()}/${id}`)
      .set('Authorization', auth)
      .send(body)
      .expect(202);
  }

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    await configureTestTenant(app, other);
    auth = await tenant.bearer();

    // 1. create
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
        DefaultLocale: 'en-us',
        CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
        Consents: [
          { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 },
          { ConsentType: 'Marketing', ConsentVersion: '1.0', ConsentStatus: 1 },
        ],
        ProfilePreferences: [testPreference(programs.newsletter.solicit)],
        Emails: [
          {
            EmailAddress: 'ann@example.com',
            EmailAddressType: 'Personal',
            Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
            EmailPreferences: [testPreference(programs.newsletter.email)],
          },
        ],
        PhoneNumbers: [{ PhoneNumber: '+1 555 010 2030', PhoneType: 'Mobile' }],
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: crmId }],
        Groups: [{ GroupType: 'Household', GroupName: 'Lee' }],
        ProfileTags: [{ Name: 'vip' }],
      })
      .expect(202);
    id = created.body.ProfileId as number;
    await applied('create', true);

    // 2. merge: custom fields (one changed, one added)
    await write('post', {
      CustomFields: [
        { Name: 'Tier', Value: 'Platinum' },
        { Name: 'c1', Value: 'first' },
      ],
    });
    await applied('merge custom fields', true);

    // 3. merge: preferences (the email's frequency and attribute, the profile's opted out)
    await write('post', {
      ProfilePreferences: [testPreference(programs.newsletter.solicit, { PreferenceType: 2 })],
      Emails: [
        {
          EmailAddress: 'ann@example.com',
          EmailPreferences: [
            testPreference(programs.newsletter.email, {
              FrequencyId: 'Monthly',
              PreferenceAttributes: [{ Key: 'Topic', Value: 'News' }],
            }),
          ],
        },
      ],
    });
    await applied('merge preferences', false);

    // 4. merge: consents (Marketing granted again in another locale, the email's revoked)
    await write('post', {
      Consents: [{ ConsentType: 'Marketing', ConsentStatus: 1, Locale: 'fr-ca' }],
      Emails: [
        { EmailAddress: 'ann@example.com', Consents: [{ ConsentType: 'Email', ConsentStatus: 3 }] },
      ],
    });
    await applied('merge consents', false);

    // 5. merge: an email added, with its consent and preference; the first one made default
    // (a contact element changed after its preferences and consents were: they stay)
    await write('post', {
      Emails: [
        { EmailAddress: 'ann@example.com', IsDefault: true },
        {
          EmailAddress: 'work@example.com',
          EmailAddressType: 'Personal',
          Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
          EmailPreferences: [testPreference(programs.newsletter.email)],
        },
      ],
    });
    await applied('merge email added', false);

    // 6. PATCH: that email removed, the first name changed (stored as an overwrite)
    const current = steps[steps.length - 1].profile;
    const work = (current.Emails as Body[]).findIndex(
      (email) => email.EmailAddress === 'work@example.com',
    );
    await request(app.http)
      .patch(`${base()}/${id}`)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json-patch+json')
      .send(
        JSON.stringify([
          { op: 'remove', path: `/Emails/${work}` },
          { op: 'replace', path: '/CustomerName/FirstName', value: 'Anne' },
        ]),
      )
      .expect(200);
    await applied('patch email removed', false);

    // 7. merge: a consent revoked
    await write('post', { Consents: [{ ConsentType: 'Terms', ConsentStatus: 3 }] });
    await applied('merge consent revoked', false);

    // 8. PUT: the profile restated, the phone and custom field c1 left out
    const restated = steps[steps.length - 1].profile;
    await write('put', {
      CustomerType: 'Customer',
      CustomerName: restated.CustomerName,
      DefaultLocale: 'en-us',
      CustomFields: [{ Name: 'Tier', Value: 'Platinum' }],
      Consents: restated.Consents.map(withoutStamps),
      ProfilePreferences: restated.ProfilePreferences.map(withoutStamps),
      Emails: restated.Emails.map(withoutStamps),
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: crmId }],
      Groups: [{ GroupType: 'Household', GroupName: 'Lee' }],
      ProfileTags: [{ Name: 'vip' }],
    });
    await applied('put', false);
    expect(steps).toHaveLength(8);
  }, 120_000);
  afterAll(() => app?.close());

  /** An element of a GET as a write restates it (stamps and computed flags left out). */
  function withoutStamps(element: Body): Body {
    const result: Body = {};
    for (const [field, value] of Object.entries(element)) {
      if (['Edited', 'LastModifiedDate', 'Expired', 'UpdatedVersionPending'].includes(field))
        continue;
      result[field] = Array.isArray(value)
        ? value.map((item) => (item && typeof item === 'object' ? withoutStamps(item) : item))
        : value;
    }
    return result;
  }

  /** What asOf rebuilds of a recorded GET: Groups and ProfileTags are not in history. */
  function rebuildable(profile: Body, exactStamps: boolean): Body {
    const { Groups: _groups, ProfileTags: _tags, ...rest } = profile;
    if (exactStamps) return rest;
    // Stamps of elements (not of the profile itself) a PATCH or PUT restated unchanged.
    const strip = (value: unknown, top: boolean): unknown => {
      if (Array.isArray(value)) return value.map((item) => strip(item, false));
      if (value === null || typeof value !== 'object') return value;
      const result: Body = {};
      for (const [field, inner] of Object.entries(value)) {
        if (!top && field === 'LastModifiedDate') continue;
        if (!top && field === 'Edited') {
          const { ModifiedDate: _date, ModifiedBy: _by, ...created } = inner as Body;
          result[field] = created;
          continue;
        }
        result[field] = strip(inner, false);
      }
      return result;
    };
    return strip(rest, true) as Body;
  }

  const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
  const between = (a: string, b: string) =>
    new Date((Date.parse(a) + Date.parse(b)) / 2).toISOString();

  it('answers, at each write and between writes, the GET recorded then', async () => {
    expect(new Set(steps.map((step) => step.at)).size).toBe(steps.length);
    // AlternateIds are not in history: every answer shows the current ones.
    const { AlternateIds } = (await get(`${base()}/${id}`).expect(200)).body as Body;
    for (const [k, step] of steps.entries()) {
      const next = steps[k + 1]?.at;
      const instants = next
        ? [step.at, between(step.at, next), later(next, -1)]
        : [step.at, later(step.at, 1), new Date().toISOString()];
      for (const instant of instants) {
        const res = await asOf(id, instant).expect(200);
        expect({ step: step.name, instant, body: rebuildable(res.body, step.exactStamps) }).toEqual(
          {
            step: step.name,
            instant,
            body: rebuildable({ ...step.profile, AlternateIds }, step.exactStamps),
          },
        );
        expect(res.body).not.toHaveProperty('Groups');
        expect(res.body).not.toHaveProperty('ProfileTags');
      }
    }
  });

  it('shows what each write changed (the comparison is not vacuous)', async () => {
    const at = async (k: number) => (await asOf(id, steps[k].at).expect(200)).body as Body;
    const tier = (profile: Body) =>
      (profile.CustomFields as Body[]).map((field) => [field.Name, field.Value]);
    expect(tier(await at(0))).toEqual([['Tier', 'Gold']]);
    expect(tier(await at(1))).toEqual([
      ['Tier', 'Platinum'],
      ['c1', 'first'],
    ]);
    const emails = (profile: Body) => (profile.Emails as Body[]).map((e) => e.EmailAddress);
    expect(emails(await at(4))).toEqual(['ann@example.com', 'work@example.com']);
    expect(emails(await at(5))).toEqual(['ann@example.com']);
    const terms = (profile: Body) =>
      (profile.Consents as Body[]).find((c) => c.ConsentType === 'Terms')?.ConsentStatus;
    expect(terms(await at(5))).toBe(1);
    expect(terms(await at(6))).toBe(3);
    expect((await at(6)).PhoneNumbers).toHaveLength(1);
    expect((await at(7)).PhoneNumbers).toEqual([]);
    // Stamps date each change: the Tier custom field changed by write 2, shown so until the PUT.
    const tierEdited = (profile: Body) => (profile.CustomFields as Body[])[0].Edited;
    expect(tierEdited(await at(4)).ModifiedDate).toBe(steps[1].at);
    expect((await at(4)).Edited.ModifiedDate).toBe(steps[4].at);
    // The email named by write 3 only to reach its preference: GET shows it restamped,
    // history dates it by its last own change (its creation).
    const annEdited = (profile: Body) => (profile.Emails as Body[])[0].Edited;
    expect(annEdited(steps[2].profile).ModifiedDate).toBe(steps[2].at);
    expect(annEdited(await at(2)).ModifiedDate).toBe(steps[0].at);
    expect((await at(2)).Emails[0].EmailPreferences[0].LastModifiedDate).toBe(steps[2].at);
  });

  it('answers the same by alternate id, and through the implied view', async () => {
    for (const step of [steps[0], steps[4]]) {
      const byId = await asOf(id, step.at).expect(200);
      const byPair = await get(
        `${base()}/AlternateId?alternateIdType=crm&alternateId=${crmId.toLowerCase()}&asOf=${encodeURIComponent(step.at)}`,
      ).expect(200);
      expect(byPair.body).toEqual(byId.body);
    }
    const now = new Date().toISOString();
    const implied = await get(`${base()}/${id}?implied=true&asOf=${encodeURIComponent(now)}`);
    const current = await get(`${base()}/${id}?implied=true`).expect(200);
    expect(rebuildable(implied.body, false)).toEqual(rebuildable(current.body, false));
  });

  it('answers 404 naming the earliest instant before the creation', async () => {
    const res = await asOf(id, later(steps[0].at, -1)).expect(404);
    expect(res.body.Message).toBe(
      `Profile ${id} did not exist as of ${later(steps[0].at, -1)}: the earliest instant available is ${steps[0].at} (its creation)`,
    );
    await get(
      `${base()}/AlternateId?alternateIdType=CRM&alternateId=${crmId}&asOf=2000-01-01T00:00:00Z`,
    ).expect(404);
  });

  it('answers 400 naming asOf and the value for a malformed, repeated or future instant', async () => {
    for (const value of ['yesterday', '2026-01-31', '2026-02-30T00:00:00Z', '']) {
      const res = await asOf(id, value).expect(400);
      expect(res.body.Message).toContain(`Invalid asOf (value ${JSON.stringify(value)})`);
    }
    const future = later(new Date().toISOString(), 3_600_000);
    const res = await asOf(id, future).expect(400);
    expect(res.body.Message).toContain(`Invalid asOf (value "${future}"): later than now`);
    await get(`${base()}/${id}?asOf=${steps[0].at}&asOf=${steps[1].at}`).expect(400);
  });

  it("answers 404 as GET does for a deleted, unknown or other client's profile", async () => {
    const created = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' })
      .expect(202);
    const gone = created.body.ProfileId as number;
    await complete(gone);
    const alive = await lastWriteTime(gone);
    await asOf(gone, alive).expect(200);
    await request(app.http).delete(`${base()}/${gone}`).set('Authorization', auth).expect(204);
    const deleted = await asOf(gone, alive).expect(404);
    const plain = await get(`${base()}/${gone}`).expect(404);
    expect(deleted.body).toEqual(plain.body);

    // Another client naming this client's profile: 404 exactly like a profile it never had.
    const otherAuth = await other.bearer();
    const foreign = await asOf(id, steps[0].at, otherAuth, other).expect(404);
    const unknown = await asOf(999_999_999, steps[0].at, otherAuth, other).expect(404);
    expect(foreign.body.Message).toBe(`Profile ${id} was not found`);
    expect(unknown.body.Message).toBe('Profile 999999999 was not found');
    expect(JSON.stringify(foreign.body)).not.toContain('ann@example.com');
  });

  it('needs history read permission, and shows what the user group may see as GET does', async () => {
    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(tenant.clientId, 'Present only', [
      { area: 'profiles', access: 'read' },
    ]);
    await admin.addUser({ clientId: tenant.clientId, userId: 'present', group: 'Present only' });
    const presentAuth = await fetchBearer(app, tenant, 'present');
    await get(`${base()}/${id}`, presentAuth).expect(200);
    const denied = await asOf(id, steps[0].at, presentAuth).expect(403);
    expect(denied.body.Message).toMatch(/history/);

    await admin.defineUserGroup(
      tenant.clientId,
      'Scoped past',
      [
        { area: 'profiles', access: 'read' },
        { area: 'history', access: 'read' },
        { area: 'consents', access: 'read' },
        { area: 'preferences', access: 'read' },
      ],
      { customFields: ['tier'], consentTypes: ['TERMS'] },
    );
    await admin.addUser({ clientId: tenant.clientId, userId: 'scopedpast', group: 'Scoped past' });
    const scopedAuth = await fetchBearer(app, tenant, 'scopedpast');
    const now = (await get(`${base()}/${id}`, scopedAuth).expect(200)).body as Body;
    const rebuilt = (await asOf(id, new Date().toISOString(), scopedAuth).expect(200)).body as Body;
    expect(rebuildable(rebuilt, false)).toEqual(rebuildable(now, false));
    const early = (await asOf(id, steps[1].at, scopedAuth).expect(200)).body as Body;
    expect((early.CustomFields as Body[]).map((field) => field.Name)).toEqual(['Tier']);
    expect((early.Consents as Body[]).map((consent) => consent.ConsentType)).toEqual(['Terms']);
  });

  it('says Pending Update when a write accepted by the instant is not applied yet', async () => {
    const last = steps[steps.length - 1];
    await app.stopWorker(app.workers[0]);
    try {
      await write('post', { DefaultLocale: 'fr-ca' });
      const accepted = await get(`${base()}/${id}/Updates`).expect(200);
      const pendingAt = (accepted.body.Updates as { SubmittedUtcTime: string }[])[0]
        .SubmittedUtcTime;
      const before = await asOf(id, later(pendingAt, -1)).expect(200);
      expect(before.body.UpdateStatus).toBe('Complete');
      const after = await asOf(id, pendingAt).expect(200);
      expect(after.body.UpdateStatus).toBe('Pending Update');
      // Its content is still the last applied state: the pending write is not in history.
      const { UpdateStatus: _status, ...content } = after.body as Body;
      const { UpdateStatus: _recorded, ...recorded } = rebuildable(
        { ...last.profile, AlternateIds: after.body.AlternateIds },
        false,
      );
      expect(rebuildable(content, false)).toEqual(recorded);
      expect(content.DefaultLocale).toBe('en-us');
    } finally {
      await app.startWorker();
    }
    expect((await complete(id)).DefaultLocale).toBe('fr-ca');
  });

  it('carries the ETag of its own bytes: If-None-Match answers 304', async () => {
    const first = await asOf(id, steps[2].at).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const current = await get(`${base()}/${id}`).expect(200);
    expect(current.headers.etag).not.toBe(etag);
    await asOf(id, steps[2].at).set('If-None-Match', etag).expect(304);
  });
});
