import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { Clock, CRASH_POINTS, CrashPoints, leaseKey, RedisService } from '@app/shared';
import { configureTestTenant, testPreference, type TestPrograms } from '../harness/configuration';
import { createTestTenant, fetchBearer, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

type Json = Record<string, any>;

/**
 * A profile's events (docs/events.md): recorded by the worker with each applied write,
 * retrieved by GET /{clientId}/Profile/{profileId}/Events; the same after a worker's crash
 * between recording and save, bounded to 15 days, and as the caller's user group may see.
 */
describe('Profile events', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  const base = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}/Profile`;

  const get = (profileId: number) =>
    request(app.http).get(`${base()}/${profileId}`).set('Authorization', auth);
  const complete = (profileId: number) =>
    eventually(async () => {
      const res = await get(profileId);
      return res.body.UpdateStatus === 'Complete' ? (res.body as Json) : undefined;
    });
  const events = (profileId: number, query = '', authorization = auth, t = tenant) =>
    request(app.http)
      .get(`${base(t)}/${profileId}/Events${query}`)
      .set('Authorization', authorization);
  const eventTypes = async (profileId: number, query = '') =>
    ((await events(profileId, query).expect(200)).body.Events as Json[]).map((e) => e.EventType);

  async function create(body: object): Promise<number> {
    const res = await request(app.http)
      .post(base())
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', ...body })
      .expect(202);
    await complete(res.body.ProfileId);
    return res.body.ProfileId as number;
  }

  async function merge(profileId: number, body: object): Promise<void> {
    const res = await request(app.http)
      .post(`${base()}/${profileId}`)
      .set('Authorization', auth)
      .send(body);
    expect([res.status, res.body.Message]).toEqual([202, undefined]);
    await complete(profileId);
  }

  const stored = (collection: string, _id: string) =>
    app.api
      .get<Connection>(getConnectionToken())
      .collection(collection)
      .findOne({ _id } as object);

  beforeAll(async () => {
    app = await startTestApp({ workers: 1 });
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
  });
  afterEach(async () => {
    if (app.workers.length === 0) await app.startWorker();
    for (const nest of [app.api, ...app.workers]) nest.get(Clock, { strict: false }).reset();
  });
  afterAll(() => app.close());

  it('a create and a merge: their events in write order, with Data, PreviousData and stable ids', async () => {
    const id = await create({
      CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: `E-${Date.now()}` }],
      Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
      Emails: [
        {
          EmailAddress: `ann-${Date.now()}@example.com`,
          EmailAddressType: 'Personal',
          EmailPreferences: [testPreference(programs.newsletter.email)],
        },
      ],
    });
    expect(await eventTypes(id)).toEqual([
      'profile.created',
      'consent.added',
      'preference.added',
      'contacts.alternateid.added',
    ]);

    await merge(id, {
      CustomerName: { FirstName: 'Anne', LastName: 'Lee' },
      Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 3 }],
    });
    const page = (await events(id).expect(200)).body;
    expect(page).toMatchObject({
      Count: 7,
      HasMore: false,
      Limit: 100,
      Offset: 1,
      TotalResults: 7,
    });
    expect(page.Events.map((e: Json) => [e.EventId, e.EventType])).toEqual([
      [`${id}-1-0`, 'profile.created'],
      [`${id}-1-1`, 'consent.added'],
      [`${id}-1-2`, 'preference.added'],
      [`${id}-1-3`, 'contacts.alternateid.added'],
      [`${id}-2-0`, 'profile.updated'],
      [`${id}-2-1`, 'standardfield.firstname.updated'],
      [`${id}-2-2`, 'consent.updated'],
    ]);
    const [created, , preference] = page.Events as Json[];
    // The profile in the GET shape (ProfileId, no stored-only fields).
    expect(created.Data).toMatchObject({ ProfileId: id, CustomerName: { FirstName: 'Ann' } });
    expect(created.Data.Emails[0].EmailPreferences[0].FilterId).toBe(
      programs.newsletter.email.FilterId,
    );
    expect(created.PreviousData).toBeUndefined();
    expect(preference.Contact).toMatchObject({ Type: 'Email' });
    const updated = page.Events[4] as Json;
    expect(updated.Data.CustomerName.FirstName).toBe('Anne');
    expect(updated.PreviousData.CustomerName.FirstName).toBe('Ann');
    expect(page.Events[6]).toMatchObject({
      Data: { ConsentType: 'Terms', ConsentStatus: 3 },
      PreviousData: { ConsentStatus: 1 },
      Sequence: 2,
    });
    expect(typeof updated.OccurredAt).toBe('string');

    // Filters and paging.
    expect(await eventTypes(id, '?EventType=consent.updated,consent.added')).toEqual([
      'consent.added',
      'consent.updated',
    ]);
    const second = (await events(id, '?limit=2&offset=3').expect(200)).body;
    expect(second).toMatchObject({ Count: 2, HasMore: true, Offset: 3, TotalResults: 7 });
    expect(second.Events.map((e: Json) => e.EventId)).toEqual([`${id}-1-2`, `${id}-1-3`]);
    const after = (ms: number) => encodeURIComponent(new Date(Date.now() + ms).toISOString());
    expect(await eventTypes(id, `?StartAt=${after(60_000)}&EndAt=${after(120_000)}`)).toEqual([]);
  });

  it("refuses bad queries naming field and value; unknown and other tenants' profiles are 404", async () => {
    const id = await create({});
    const bad = await events(id, '?StartAt=yesterday').expect(400);
    expect(bad.body.Message).toContain('StartAt');
    expect(bad.body.Message).toContain('"yesterday"');
    const type = await events(id, '?EventType=consent.withdrawn').expect(400);
    expect(type.body.Message).toContain('"consent.withdrawn"');
    expect((await events(id, '?SourceGroupIds=1').expect(400)).body.Message).toContain(
      'SourceGroupIds',
    );
    await events(2_000_000_000).expect(404);
    // Another tenant's caller asking for this profile id under its own client: not found.
    const otherAuth = await other.bearer();
    await events(id, '', otherAuth, other).expect(404);
    // ... and under this tenant's path: the client is not theirs.
    await events(id, '', otherAuth).expect(404);
  });

  it('needs events read permission, and shows only what the user group may see', async () => {
    const id = await create({
      Consents: [
        { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 },
        { ConsentType: 'Mail', ConsentVersion: '1.0', ConsentStatus: 1 },
      ],
    });
    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(tenant.clientId, 'Profile readers only', [
      { area: 'profiles', access: 'read' },
    ]);
    await admin.addUser({
      clientId: tenant.clientId,
      userId: 'no-events',
      group: 'Profile readers only',
    });
    const denied = await events(id, '', await fetchBearer(app, tenant, 'no-events')).expect(403);
    expect(denied.body.Message).toMatch(/events/);

    await admin.defineUserGroup(
      tenant.clientId,
      'Terms watchers',
      [
        { area: 'events', access: 'read' },
        { area: 'consents', access: 'read' },
      ],
      { consentTypes: ['terms'] },
    );
    await admin.addUser({
      clientId: tenant.clientId,
      userId: 'terms-watcher',
      group: 'Terms watchers',
    });
    const scoped = (
      await events(id, '', await fetchBearer(app, tenant, 'terms-watcher')).expect(200)
    ).body.Events as Json[];
    const consents = scoped.filter((e) => e.EventType === 'consent.added');
    expect(consents.map((e) => e.Data.ConsentType)).toEqual(['Terms']);
    const created = scoped.find((e) => e.EventType === 'profile.created')!;
    expect(created.Data.Consents.map((c: Json) => c.ConsentType)).toEqual(['Terms']);
  });

  it('a system write is an event too: the do-not-contact mark of a listed email', async () => {
    const email = `dnc-${Date.now()}@example.com`;
    const list = await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/DoNotContactLists`)
      .set('Authorization', auth)
      .send({ Name: `Complaints ${email}`, ListType: 'Email' })
      .expect(201);
    await request(app.http)
      .post(`/Profiles/v4/${tenant.clientId}/DoNotContactLists/${list.body.ListId}/Entries`)
      .set('Authorization', auth)
      .send({ Entries: [{ Value: email, Reason_Code: 'Complaint' }] })
      .expect(200);
    // The create's apply queues the mark behind it: a second write, by the system.
    const id = await create({ Emails: [{ EmailAddress: email, EmailAddressType: 'Personal' }] });
    const marked = await eventually(async () => {
      const page = (await events(id, '?EventType=preference.added').expect(200)).body;
      return page.Count ? (page.Events as Json[]) : undefined;
    });
    expect(marked[0]).toMatchObject({
      Sequence: 2,
      Contact: { Type: 'Email', Fields: { EmailAddress: email } },
      Data: { FilterId: programs.dnc.email.FilterId },
    });
    expect(marked[0].UserId).toMatch(/^system/);
  });

  it('a delete: the profile keeps only its profile.deleted event, and its other event documents go', async () => {
    const id = await create({ CustomerName: { FirstName: 'Gone' } });
    await merge(id, { CustomerName: { FirstName: 'Going' } });
    await request(app.http).delete(`${base()}/${id}`).set('Authorization', auth).expect(204);
    const page = await eventually(async () => {
      const res = await events(id).expect(200);
      return res.body.Events.some((e: Json) => e.EventType === 'profile.deleted')
        ? res.body
        : undefined;
    });
    expect(page.Events).toEqual([
      expect.objectContaining({
        EventId: `${id}-3-0`,
        EventType: 'profile.deleted',
        Data: { ProfileId: id },
      }),
    ]);
    expect(await stored('profile_events', `${tenant.clientId}|${id}|e1`)).toBeNull();
    expect(await stored('profile_events', `${tenant.clientId}|${id}|e2`)).toBeNull();
  });

  it("a worker dying after recording a write's events, before the save: the next one records them once", async () => {
    const id = await create({ CustomerName: { FirstName: 'A' } });
    const [worker] = app.workers;
    const reached = worker.get(CrashPoints, { strict: false }).arm(CRASH_POINTS.applyAfterHistory);
    await request(app.http)
      .post(`${base()}/${id}`)
      .set('Authorization', auth)
      .send({ CustomerName: { FirstName: 'B' } })
      .expect(202);
    await reached;
    await app.killWorker(worker);
    // Recorded, not saved: not readable yet.
    expect(await eventTypes(id)).toEqual(['profile.created']);
    await app.api
      .get(RedisService)
      .client.del(leaseKey(app.settings.queuePrefix, `profile:${tenant.clientId}|${id}`));
    await app.startWorker();
    await eventually(async () =>
      (await get(id)).body.CustomerName?.FirstName === 'B' ? true : undefined,
    );
    const page = (await events(id).expect(200)).body.Events as Json[];
    expect(page.map((e) => e.EventId)).toEqual([`${id}-1-0`, `${id}-2-0`, `${id}-2-1`]);
    expect(page[2]).toMatchObject({
      EventType: 'standardfield.firstname.updated',
      Data: { FirstName: 'B' },
      PreviousData: { FirstName: 'A' },
    });
  }, 60_000);

  it('events are kept 15 days: older ones are not shown, and the next write removes their documents', async () => {
    const id = await create({ CustomerName: { FirstName: 'Old' } });
    const clocks = () =>
      [app.api, ...app.workers].map((nest) => nest.get(Clock, { strict: false }));
    for (const clock of clocks()) clock.advance(16 * 24 * 60 * 60 * 1000);
    expect(await eventTypes(id)).toEqual([]);
    // A StartAt before the window is moved up to it, not refused.
    expect(await eventTypes(id, '?StartAt=2020-01-01T00:00:00Z')).toEqual([]);
    await merge(id, { CustomerName: { FirstName: 'New' } });
    // The worker's clock says 16 days later: write 1's events are past the window.
    expect(await stored('profile_events', `${tenant.clientId}|${id}|e1`)).toBeNull();
    const doc = await app.api
      .get<Connection>(getConnectionToken())
      .collection('profiles')
      .findOne({ _id: `${tenant.clientId}|${id}` } as object);
    expect((doc!.eventLog as { seq: number }[]).map(({ seq }) => seq)).not.toContain(1);
  });
});
