import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { createTestTenant } from '../harness/session';
import { LIMIT, type Subscription, useSubscriptionSuite } from './subscription-helpers';

/**
 * Event subscriptions (docs/events.md, "Subscriptions"), against the real engine, Redis and
 * one worker: create and its defaults, the handshake that validates it, list, get, update,
 * deletion both ways, secret rotation, 400s, 409s, the limit under concurrent creates,
 * tenants and permissions. The handshakes that fail or are run again:
 * event-subscription-handshakes.e2e-spec.ts.
 */
describe('Event subscriptions', () => {
  const suite = useSubscriptionSuite();
  const { base, unique, body, create, get, put, remove, list, created, settled, stored } = suite;

  let first: Subscription;

  it('creates a subscription: 201, its defaults, its secret once, then the handshake validates it', async () => {
    const url = unique('echo-json');
    const res = await create(body(url));
    expect(res.status).toBe(201);
    first = res.body as Subscription;
    expect(res.headers.location).toBe(
      `/Profiles/v4/${suite.tenant.clientId}/Events/Subscriptions/${first.SubscriptionId}`,
    );
    expect(first).toEqual({
      SubscriptionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      Name: 'CRM sync',
      Description: null,
      LocaleID: null,
      Url: url,
      Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
      State: 'Paused',
      IsActive: true,
      ExcludeData: false,
      DeliverPausedEvents: false,
      AlternateIdType: null,
      DeliveryFormat: 'Standard',
      ValidationStatus: 'Pending',
      ValidationFailure: null,
      ValidatedAt: null,
      Created: expect.any(String),
      Modified: first.Created,
      PausedReason: null,
      Secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });

    const validated = await settled(first.SubscriptionId);
    expect(validated.ValidationStatus).toBe('Validated');
    expect(validated.ValidationFailure).toBeNull();
    expect(Date.parse(validated.ValidatedAt!)).toBeGreaterThanOrEqual(Date.parse(first.Created));
    // The handshake the endpoint got.
    const [handshake] = suite.receiver.received.filter((r) => r.path === new URL(url).pathname);
    expect(handshake.type).toBe('application/json');
    expect(handshake.body).toEqual({
      Type: 'SubscriptionValidation',
      SubscriptionId: first.SubscriptionId,
      Challenge: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    // The secret is never shown again.
    expect(validated).not.toHaveProperty('Secret');
    expect(JSON.stringify(validated)).not.toContain(first.Secret!);
    // Stored by the client's id, secret included (deliveries sign with it).
    const doc = await stored();
    expect(doc?.subscriptions.map((s) => s.secret)).toEqual([first.Secret]);
  });

  it('lists the subscriptions of the client, without secrets', async () => {
    const all = await list();
    expect(all.map((s) => s.SubscriptionId)).toEqual([first.SubscriptionId]);
    expect(all[0]).not.toHaveProperty('Secret');
    expect(all[0].ValidationStatus).toBe('Validated');
    expect(await list(await suite.other.bearer(), suite.other.clientId)).toEqual([]);
  });

  it('takes every field of the body, names in their configured spelling', async () => {
    const sub = await created(
      body(unique('echo-text'), {
        Description: 'All consent changes',
        LocaleID: 'en-us',
        State: 'Active',
        ExcludeData: true,
        DeliverPausedEvents: true,
        AlternateIdType: 'crm',
        Subscriptions: [
          {
            Entity: 'Consent',
            EventType: '*',
            ConsentTypes: ['marketing', 'Terms'],
            Filters: [suite.programs.offers.email.FilterId],
            Groups: ['VIP'],
          },
          { Entity: 'Contacts', EventType: 'contacts.email.updated', ContactTypes: ['Email'] },
          { Entity: 'CustomField', EventType: 'customfield.updated', CustomFields: ['tier'] },
          { Entity: 'Preference', EventType: 'preference.added', Filters: ['AllFilters'] },
        ],
      }),
    );
    expect(sub).toMatchObject({
      Description: 'All consent changes',
      LocaleID: 'en-us',
      State: 'Active',
      ExcludeData: true,
      DeliverPausedEvents: true,
      AlternateIdType: 'CRM',
      Subscriptions: [
        {
          Entity: 'Consent',
          EventType: '*',
          ConsentTypes: ['Marketing', 'Terms'],
          Filters: [suite.programs.offers.email.FilterId],
          Groups: ['VIP'],
        },
        { Entity: 'Contacts', EventType: 'contacts.email.updated', ContactTypes: ['Email'] },
        { Entity: 'CustomField', EventType: 'customfield.updated', CustomFields: ['Tier'] },
        { Entity: 'Preference', EventType: 'preference.added', Filters: ['AllFilters'] },
      ],
    });
    // The text answer passes the handshake too.
    expect((await settled(sub.SubscriptionId)).ValidationStatus).toBe('Validated');
    expect((await remove(sub.SubscriptionId)).status).toBe(204);
  });

  it('updates with PUT: the whole body; a new Url is validated again, the secret stays', async () => {
    const same = await put(
      first.SubscriptionId,
      body(first.Url, { Name: 'Renamed', State: 'Active', ExcludeData: true }),
    );
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({
      SubscriptionId: first.SubscriptionId,
      Name: 'Renamed',
      State: 'Active',
      ExcludeData: true,
      Created: first.Created,
      // Same Url: the handshake's outcome stays.
      ValidationStatus: 'Validated',
    });
    expect(same.body).not.toHaveProperty('Secret');
    expect(Date.parse((same.body as Subscription).Modified)).toBeGreaterThanOrEqual(
      Date.parse(first.Modified),
    );
    expect((await get(first.SubscriptionId)).body).toMatchObject({ Name: 'Renamed' });

    // Absent optional fields take their defaults (State Paused, ExcludeData false).
    const url = unique('echo-text');
    const moved = await put(first.SubscriptionId, body(url));
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      Url: url,
      State: 'Paused',
      ExcludeData: false,
      ValidationStatus: 'Pending',
      ValidatedAt: null,
    });
    const validated = await settled(first.SubscriptionId);
    expect(validated.ValidationStatus).toBe('Validated');
    expect(suite.receiver.received.some((r) => r.path === new URL(url).pathname)).toBe(true);
    expect((await stored())?.subscriptions[0].secret).toBe(first.Secret);
    first = { ...validated, Secret: first.Secret };
  });

  it('rotates the secret: a new one answered once, the previous one kept for 24 hours', async () => {
    const before = Date.now();
    const res = await request(suite.app.http)
      .post(`${base()}/${first.SubscriptionId}/Secret`)
      .set('Authorization', suite.auth);
    expect(res.status).toBe(200);
    const rotated = res.body as Subscription;
    expect(rotated.SubscriptionId).toBe(first.SubscriptionId);
    expect(rotated.Secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.Secret).not.toBe(first.Secret);
    expect((await get(first.SubscriptionId)).body).not.toHaveProperty('Secret');
    const kept = (await stored())!.subscriptions.find(
      (s) => s.subscriptionId === first.SubscriptionId,
    )!;
    expect(kept.secret).toBe(rotated.Secret);
    expect(kept.previousSecret).toBe(first.Secret);
    const until = new Date(kept.previousSecretUntil!).getTime();
    expect(until).toBeGreaterThanOrEqual(before + 24 * 3600_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 24 * 3600_000 + 1000);
  });

  it('refuses bad bodies with 400 naming the field and the value, and changes nothing', async () => {
    const cases: [object, string][] = [
      [
        body(unique('echo-json'), {
          Subscriptions: [{ Entity: 'Consent', EventType: '*', ConsentTypes: ['NoSuchConsent'] }],
        }),
        'Invalid Subscriptions[0].ConsentTypes (value "NoSuchConsent"): not a consent type of the account',
      ],
      [
        body(unique('echo-json'), {
          Subscriptions: [{ Entity: 'Profile', EventType: 'consent.added' }],
        }),
        'Invalid Subscriptions[0].EventType (value "consent.added"): not an event type of Entity "Profile"',
      ],
      [{ ...body(unique('echo-json')), Colour: 'blue' }, 'Unknown field Colour'],
      [
        body('ftp://127.0.0.1/in'),
        'Invalid Url (value "ftp://127.0.0.1/in"): must be an https or http URL (not ftp)',
      ],
      [
        body('https://user:pw@hooks.example.com/in'),
        'Invalid Url (value "https://user:pw@hooks.example.com/in"): must not carry credentials',
      ],
      [body('not a url'), 'Invalid Url (value "not a url")'],
      [body(unique('echo-json'), { IsActive: false }), 'Invalid IsActive (value false)'],
      [
        body(unique('echo-json'), { AlternateIdType: 'Passport' }),
        'Invalid AlternateIdType (value "Passport"): not an active alternate id type',
      ],
      [
        body(unique('echo-json'), {
          Subscriptions: [{ Entity: 'Preference', EventType: '*', Filters: ['999999'] }],
        }),
        'Invalid Subscriptions[0].Filters (value "999999"): not a FilterId of the account',
      ],
      [
        body(unique('echo-json'), {
          Subscriptions: [{ Entity: 'CustomField', EventType: '*', CustomFields: ['Nope'] }],
        }),
        'Invalid Subscriptions[0].CustomFields (value "Nope"): not a custom field of the account',
      ],
      [
        body(unique('echo-json'), {
          Subscriptions: [{ Entity: 'Profile', EventType: '*', ConsentTypes: ['Terms'] }],
        }),
        'Invalid Subscriptions[0].ConsentTypes (value ["Terms"]): only Consent subscriptions take ConsentTypes',
      ],
      [
        body(unique('echo-json'), {
          Subscriptions: [
            { Entity: 'Consent', EventType: '*', ConsentTypes: ['AllConsents', 'Terms'] },
          ],
        }),
        'AllConsents must stand alone',
      ],
      [
        body(unique('echo-json'), {
          Subscriptions: [
            { Entity: 'Profile', EventType: 'profile.deleted' },
            { Entity: 'Profile', EventType: '*' },
          ],
        }),
        'Invalid Subscriptions[1] (Entity "Profile", EventType "*"): covers events of Subscriptions[0]',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await create(payload);
      expect({ status: res.status, message: (res.body as { Message: string }).Message }).toEqual({
        status: 400,
        message: expect.stringContaining(message),
      });
    }
    // An update is checked alike, and changes nothing either.
    const res = await put(first.SubscriptionId, body('ftp://127.0.0.1/x'));
    expect(res.status).toBe(400);
    expect((await list()).map((s) => [s.SubscriptionId, s.Url])).toEqual([
      [first.SubscriptionId, first.Url],
    ]);
  });

  it('answers 409 for a Url already subscribed to the same event (compared normalised)', async () => {
    const url = first.Url;
    const upper = url.replace('http://127.0.0.1', 'HTTP://127.0.0.1') + '/';
    for (const payload of [
      body(url),
      body(upper),
      body(url, { Subscriptions: [{ Entity: 'Profile', EventType: '*' }] }),
    ]) {
      const res = await create(payload);
      expect(res.status).toBe(409);
      expect((res.body as { Message: string }).Message).toContain(`Url "${url}"`);
      expect((res.body as { Message: string }).Message).toContain('profile.created');
    }
    // Another event at the same Url is fine; an update onto an overlap is not.
    const second = await created(
      body(url, { Subscriptions: [{ Entity: 'Profile', EventType: 'profile.deleted' }] }),
    );
    const res = await put(
      second.SubscriptionId,
      body(upper, { Subscriptions: [{ Entity: 'Profile', EventType: '*' }] }),
    );
    expect(res.status).toBe(409);
    expect((res.body as { Message: string }).Message).toContain(first.SubscriptionId);
    expect((await get(second.SubscriptionId)).body).toMatchObject({
      Subscriptions: [{ Entity: 'Profile', EventType: 'profile.deleted' }],
    });
    // IsActive false on update deletes it: 200 with IsActive false, then 404.
    const gone = await put(second.SubscriptionId, body(url, { IsActive: false }));
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({
      SubscriptionId: second.SubscriptionId,
      IsActive: false,
      Subscriptions: [{ Entity: 'Profile', EventType: 'profile.deleted' }],
    });
    expect((await get(second.SubscriptionId)).status).toBe(404);
    expect((await put(second.SubscriptionId, body(url, { IsActive: false }))).status).toBe(404);
  });

  it('deletes with DELETE: 204, then 404', async () => {
    const sub = await created(body(unique('echo-json')));
    expect((await remove(sub.SubscriptionId)).status).toBe(204);
    expect((await get(sub.SubscriptionId)).status).toBe(404);
    expect((await remove(sub.SubscriptionId)).status).toBe(404);
    expect((await list()).map((s) => s.SubscriptionId)).toEqual([first.SubscriptionId]);
  });

  it("answers 404 for another client's subscription, as for an unknown one", async () => {
    const otherAuth = await suite.other.bearer();
    const id = first.SubscriptionId;
    const asOther = [
      await get(id, otherAuth, suite.other.clientId),
      await put(id, body(unique('echo-json')), otherAuth, suite.other.clientId),
      await put(id, body(first.Url, { IsActive: false }), otherAuth, suite.other.clientId),
      await remove(id, otherAuth, suite.other.clientId),
      await request(suite.app.http)
        .post(`${base(suite.other.clientId)}/${id}/Secret`)
        .set('Authorization', otherAuth),
      await request(suite.app.http)
        .post(`${base(suite.other.clientId)}/${id}/Validate`)
        .set('Authorization', otherAuth),
    ];
    const unknown = await get('no-such-subscription');
    expect(unknown.status).toBe(404);
    for (const res of asOther) {
      expect(res.status).toBe(404);
      expect((res.body as { Message: string }).Message).toBe(
        (unknown.body as { Message: string }).Message.replace('no-such-subscription', id),
      );
    }
    // Nor through the other client's path with this tenant's credentials.
    expect((await get(id, suite.auth, suite.other.clientId)).status).toBe(404);
    expect((await get(id)).status).toBe(200);
  });

  it('answers 409 past EVENTS_MAX_SUBSCRIPTIONS, also to concurrent creates', async () => {
    const limited = await createTestTenant(suite.app);
    const limitedAuth = await limited.bearer();
    const payload = (i: number) =>
      body(suite.receiver.url(`/echo-json/limit-${limited.clientId}-${i}`));
    // More creates at once than the limit leaves room for: exactly LIMIT pass.
    const results = await Promise.all(
      Array.from({ length: LIMIT + 3 }, (_, i) =>
        create(payload(i), limitedAuth, limited.clientId),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(3).fill(409)]);
    const refused = results.find((r) => r.status === 409)!;
    expect((refused.body as { Message: string }).Message).toContain(
      `EVENTS_MAX_SUBSCRIPTIONS ${LIMIT}`,
    );
    const held = await list(limitedAuth, limited.clientId);
    expect(held).toHaveLength(LIMIT);
    // Room again after a deletion.
    expect((await remove(held[0].SubscriptionId, limitedAuth, limited.clientId)).status).toBe(204);
    expect((await create(payload(100), limitedAuth, limited.clientId)).status).toBe(201);
    expect((await create(payload(101), limitedAuth, limited.clientId)).status).toBe(409);
  });

  it('needs the events permission: read for GETs, write for changes (403)', async () => {
    const admin = suite.app.api.get(TenantAdminService);
    await admin.defineUserGroup(suite.tenant.clientId, 'Profile desk', [
      { area: 'profiles', access: 'write' },
    ]);
    await admin.defineUserGroup(suite.tenant.clientId, 'Event viewers', [
      { area: 'events', access: 'read' },
    ]);
    await admin.addUser({ clientId: suite.tenant.clientId, userId: 'desk', group: 'Profile desk' });
    await admin.addUser({
      clientId: suite.tenant.clientId,
      userId: 'watcher',
      group: 'Event viewers',
    });
    const desk = suite.tenant.signed({ userId: 'desk' });
    const watcher = suite.tenant.signed({ userId: 'watcher' });
    const id = first.SubscriptionId;

    expect((await request(suite.app.http).get(base()).set('Authorization', desk)).status).toBe(403);
    expect((await get(id, desk)).status).toBe(403);
    expect((await create(body(unique('echo-json')), desk)).status).toBe(403);

    expect((await get(id, watcher)).status).toBe(200);
    expect((await list(watcher)).length).toBe(1);
    expect((await create(body(unique('echo-json')), watcher)).status).toBe(403);
    expect((await put(id, body(first.Url), watcher)).status).toBe(403);
    expect((await remove(id, watcher)).status).toBe(403);
    expect(
      (await request(suite.app.http).post(`${base()}/${id}/Secret`).set('Authorization', watcher))
        .status,
    ).toBe(403);
    expect(
      (await request(suite.app.http).post(`${base()}/${id}/Validate`).set('Authorization', watcher))
        .status,
    ).toBe(403);
    // Nothing changed.
    expect((await list()).map((s) => s.SubscriptionId)).toEqual([id]);
  });
});
