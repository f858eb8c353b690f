import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/** Subscriptions a client may hold in this suite (EVENTS_MAX_SUBSCRIPTIONS). */
const LIMIT = 5;
/** EVENTS_HANDSHAKE_TIMEOUT_MS of this suite: the slow endpoints below answer within it. */
const HANDSHAKE_TIMEOUT_MS = 1500;

interface Handshake {
  path: string;
  type: string | undefined;
  body: { Type?: string; SubscriptionId?: string; Challenge?: string };
}

/**
 * A local endpoint for handshakes (bound to 127.0.0.1, so the suite allows private
 * targets). What it answers depends on the first path segment:
 * echo-json: 200 {"Challenge": ...}; echo-text: 200 with the challenge as text; wrong: 200
 * with another challenge; fail: 500; slow-ok: the challenge after 1 s; late-wrong: a wrong
 * one after 1.2 s; hang: nothing; toggle: the challenge once `toggleOk` is set, else 403.
 */
async function startReceiver() {
  const received: Handshake[] = [];
  const state = { toggleOk: false };
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(text) as Handshake['body'];
      received.push({ path: req.url ?? '', type: req.headers['content-type'], body });
      const challenge = body.Challenge ?? '';
      const json = (value: unknown) =>
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
      switch ((req.url ?? '').split('/')[1]) {
        case 'echo-json':
          return json({ Challenge: challenge });
        case 'echo-text':
          return res.writeHead(200, { 'Content-Type': 'text/plain' }).end(challenge);
        case 'wrong':
          return json({ Challenge: '0'.repeat(32) });
        case 'fail':
          return res.writeHead(500).end('broken');
        case 'slow-ok':
          return setTimeout(() => json({ Challenge: challenge }), 1000);
        case 'late-wrong':
          return setTimeout(() => json({ Challenge: 'f'.repeat(32) }), 1200);
        case 'hang':
          return undefined;
        case 'toggle':
          return state.toggleOk ? json({ Challenge: challenge }) : res.writeHead(403).end();
        default:
          return res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    state,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

interface Subscription {
  SubscriptionId: string;
  Name: string;
  Url: string;
  State: string;
  IsActive: boolean;
  ValidationStatus: 'Pending' | 'Validated' | 'Failed';
  ValidationFailure: string | null;
  ValidatedAt: string | null;
  Created: string;
  Modified: string;
  Secret?: string;
  [field: string]: unknown;
}

/**
 * Event subscriptions (docs/events.md, "Subscriptions"), against the real engine, Redis and
 * one worker: create and its defaults, the handshake (passing, failing, run again, an old
 * answer after a new Url), list, get, update, deletion both ways, secret rotation, 400s,
 * 409s, the limit under concurrent creates, tenants and permissions.
 */
describe('Event subscriptions', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  let receiver: Receiver;
  let n = 0;
  const base = (clientId = tenant.clientId) => `/Profiles/v4/${clientId}/Events/Subscriptions`;
  /** A path of the receiver no other subscription uses. */
  const unique = (mode: string) => receiver.url(`/${mode}/${n++}`);

  const body = (url: string, extra: object = {}) => ({
    Name: 'CRM sync',
    Url: url,
    Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
    ...extra,
  });
  const create = (payload: object, authorization = auth, clientId = tenant.clientId) =>
    request(app.http).post(base(clientId)).set('Authorization', authorization).send(payload);
  const get = (id: string, authorization = auth, clientId = tenant.clientId) =>
    request(app.http)
      .get(`${base(clientId)}/${id}`)
      .set('Authorization', authorization);
  const put = (id: string, payload: object, authorization = auth, clientId = tenant.clientId) =>
    request(app.http)
      .put(`${base(clientId)}/${id}`)
      .set('Authorization', authorization)
      .send(payload);
  const remove = (id: string, authorization = auth, clientId = tenant.clientId) =>
    request(app.http)
      .delete(`${base(clientId)}/${id}`)
      .set('Authorization', authorization);
  const list = async (authorization = auth, clientId = tenant.clientId) => {
    const res = await request(app.http).get(base(clientId)).set('Authorization', authorization);
    expect(res.status).toBe(200);
    return (res.body as { Subscriptions: Subscription[] }).Subscriptions;
  };
  const created = async (payload: object): Promise<Subscription> => {
    const res = await create(payload);
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Subscription;
  };
  /** The subscription once its handshake ended (Validated or Failed). */
  const settled = (id: string) =>
    eventually(async () => {
      const res = await get(id);
      const sub = res.body as Subscription;
      return sub.ValidationStatus === 'Pending' ? undefined : sub;
    });
  const stored = async () =>
    (await app.api
      .get<Connection>(getConnectionToken())
      .collection('event_subscriptions')
      .findOne({ _id: tenant.clientId as never })) as {
      subscriptions: {
        subscriptionId: string;
        secret: string;
        previousSecret: string | null;
        previousSecretUntil: Date | null;
      }[];
    } | null;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 1,
      env: {
        EVENTS_ALLOW_PRIVATE_TARGETS: 'true',
        EVENTS_MAX_SUBSCRIPTIONS: String(LIMIT),
        EVENTS_HANDSHAKE_RETRY_DELAYS_MS: '50,50,50',
        EVENTS_HANDSHAKE_TIMEOUT_MS: String(HANDSHAKE_TIMEOUT_MS),
      },
    });
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    auth = await tenant.bearer();
    ({ programs } = await configureTestTenant(app, tenant));
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  let first: Subscription;

  it('creates a subscription: 201, its defaults, its secret once, then the handshake validates it', async () => {
    const url = unique('echo-json');
    const res = await create(body(url));
    expect(res.status).toBe(201);
    first = res.body as Subscription;
    expect(res.headers.location).toBe(
      `/Profiles/v4/${tenant.clientId}/Events/Subscriptions/${first.SubscriptionId}`,
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
    const [handshake] = receiver.received.filter((r) => r.path === new URL(url).pathname);
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
    expect(await list(await other.bearer(), other.clientId)).toEqual([]);
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
            Filters: [programs.offers.email.FilterId],
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
          Filters: [programs.offers.email.FilterId],
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
    expect(receiver.received.some((r) => r.path === new URL(url).pathname)).toBe(true);
    expect((await stored())?.subscriptions[0].secret).toBe(first.Secret);
    first = { ...validated, Secret: first.Secret };
  });

  it('rotates the secret: a new one answered once, the previous one kept for 24 hours', async () => {
    const before = Date.now();
    const res = await request(app.http)
      .post(`${base()}/${first.SubscriptionId}/Secret`)
      .set('Authorization', auth);
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

  it('records a failed handshake with its reason after every attempt', async () => {
    const wrong = await created(body(unique('wrong')));
    const failing = await created(body(unique('fail')));
    const [w, f] = await Promise.all([
      settled(wrong.SubscriptionId),
      settled(failing.SubscriptionId),
    ]);
    expect(w).toMatchObject({
      ValidationStatus: 'Failed',
      ValidationFailure: 'the endpoint answered a wrong challenge (4 attempts)',
      ValidatedAt: null,
    });
    expect(f).toMatchObject({
      ValidationStatus: 'Failed',
      ValidationFailure: 'the endpoint answered HTTP 500 (4 attempts)',
    });
    // The first attempt and one retry per delay (3), each with a fresh challenge.
    const sent = receiver.received.filter((r) => r.path === new URL(wrong.Url).pathname);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((r) => r.body.Challenge)).size).toBe(4);
    for (const sub of [wrong, failing]) expect((await remove(sub.SubscriptionId)).status).toBe(204);
  });

  it('records a timeout as the reason', async () => {
    const hanging = await created(body(unique('hang')));
    const result = await eventually(async () => {
      const sub = (await get(hanging.SubscriptionId)).body as Subscription;
      return sub.ValidationStatus === 'Pending' ? undefined : sub;
    }, 30_000);
    expect(result.ValidationFailure).toBe(
      `timed out after ${HANDSHAKE_TIMEOUT_MS} ms (4 attempts)`,
    );
    expect((await remove(hanging.SubscriptionId)).status).toBe(204);
  });

  it('runs the handshake again on Validate', async () => {
    const sub = await created(body(unique('toggle')));
    expect((await settled(sub.SubscriptionId)).ValidationFailure).toBe(
      'the endpoint answered HTTP 403 (4 attempts)',
    );
    receiver.state.toggleOk = true;
    const res = await request(app.http)
      .post(`${base()}/${sub.SubscriptionId}/Validate`)
      .set('Authorization', auth);
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(
      `/Profiles/v4/${tenant.clientId}/Events/Subscriptions/${sub.SubscriptionId}`,
    );
    expect(res.body).toMatchObject({ ValidationStatus: 'Pending', ValidationFailure: null });
    expect(res.body).not.toHaveProperty('Secret');
    expect(await settled(sub.SubscriptionId)).toMatchObject({
      ValidationStatus: 'Validated',
      ValidationFailure: null,
    });
    expect((await remove(sub.SubscriptionId)).status).toBe(204);
  });

  it('never takes the answer of the old Url once the Url changed', async () => {
    const slow = await created(body(unique('slow-ok')));
    // The handshake of the first Url is in flight (answers right, after 1 s)...
    await eventually(async () =>
      receiver.received.some((r) => r.path === new URL(slow.Url).pathname) ? true : undefined,
    );
    // ...when the Url changes to one that answers wrong.
    const url = unique('late-wrong');
    expect((await put(slow.SubscriptionId, body(url))).status).toBe(200);
    const seen = new Set<string>();
    const end = await eventually(async () => {
      const sub = (await get(slow.SubscriptionId)).body as Subscription;
      seen.add(sub.ValidationStatus);
      return sub.ValidationStatus === 'Failed' ? sub : undefined;
    }, 30_000);
    expect(end.ValidationFailure).toBe('the endpoint answered a wrong challenge (4 attempts)');
    expect([...seen]).not.toContain('Validated');
    expect((await remove(slow.SubscriptionId)).status).toBe(204);
  });

  it('deletes with DELETE: 204, then 404', async () => {
    const sub = await created(body(unique('echo-json')));
    expect((await remove(sub.SubscriptionId)).status).toBe(204);
    expect((await get(sub.SubscriptionId)).status).toBe(404);
    expect((await remove(sub.SubscriptionId)).status).toBe(404);
    expect((await list()).map((s) => s.SubscriptionId)).toEqual([first.SubscriptionId]);
  });

  it("answers 404 for another client's subscription, as for an unknown one", async () => {
    const otherAuth = await other.bearer();
    const id = first.SubscriptionId;
    const asOther = [
      await get(id, otherAuth, other.clientId),
      await put(id, body(unique('echo-json')), otherAuth, other.clientId),
      await put(id, body(first.Url, { IsActive: false }), otherAuth, other.clientId),
      await remove(id, otherAuth, other.clientId),
      await request(app.http)
        .post(`${base(other.clientId)}/${id}/Secret`)
        .set('Authorization', otherAuth),
      await request(app.http)
        .post(`${base(other.clientId)}/${id}/Validate`)
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
    expect((await get(id, auth, other.clientId)).status).toBe(404);
    expect((await get(id)).status).toBe(200);
  });

  it('answers 409 past EVENTS_MAX_SUBSCRIPTIONS, also to concurrent creates', async () => {
    const limited = await createTestTenant(app);
    const limitedAuth = await limited.bearer();
    const payload = (i: number) => body(receiver.url(`/echo-json/limit-${limited.clientId}-${i}`));
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
    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(tenant.clientId, 'Profile desk', [
      { area: 'profiles', access: 'write' },
    ]);
    await admin.defineUserGroup(tenant.clientId, 'Event viewers', [
      { area: 'events', access: 'read' },
    ]);
    await admin.addUser({ clientId: tenant.clientId, userId: 'desk', group: 'Profile desk' });
    await admin.addUser({ clientId: tenant.clientId, userId: 'watcher', group: 'Event viewers' });
    const desk = tenant.signed({ userId: 'desk' });
    const watcher = tenant.signed({ userId: 'watcher' });
    const id = first.SubscriptionId;

    expect((await request(app.http).get(base()).set('Authorization', desk)).status).toBe(403);
    expect((await get(id, desk)).status).toBe(403);
    expect((await create(body(unique('echo-json')), desk)).status).toBe(403);

    expect((await get(id, watcher)).status).toBe(200);
    expect((await list(watcher)).length).toBe(1);
    expect((await create(body(unique('echo-json')), watcher)).status).toBe(403);
    expect((await put(id, body(first.Url), watcher)).status).toBe(403);
    expect((await remove(id, watcher)).status).toBe(403);
    expect(
      (await request(app.http).post(`${base()}/${id}/Secret`).set('Authorization', watcher)).status,
    ).toBe(403);
    expect(
      (await request(app.http).post(`${base()}/${id}/Validate`).set('Authorization', watcher))
        .status,
    ).toBe(403);
    // Nothing changed.
    expect((await list()).map((s) => s.SubscriptionId)).toEqual([id]);
  });
});
