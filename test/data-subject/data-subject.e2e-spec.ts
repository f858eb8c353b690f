import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { TenantAdminService } from '@app/auth';
import { CRASH_POINTS, CrashPoints, leaseKey, redirectLogs, RedisService } from '@app/shared';
import { configureTestTenant, type TestPrograms, testPreference } from '../harness/configuration';
import { createTestTenant, fetchBearer, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

type Json = Record<string, any>;

/** A person with identifiers no other test data holds. */
function person() {
  const tag = randomBytes(4).toString('hex');
  const digits = String(Math.floor(10000 + Math.random() * 89999));
  return {
    email: `Zed.Erasure.${tag}@Example.org`,
    phone: `+1 (555) 01${digits}`,
    phoneDigits: `155501${digits}`,
    firstName: `Quintessa${tag}`,
    lastName: `Vandersloot${tag}`,
    crm: `CRM-${tag}`,
  };
}
type Person = ReturnType<typeof person>;

/** What must not be found anywhere once the person is erased (compared lower-cased). */
function needles(who: Person): string[] {
  return [who.email, who.phone, who.phoneDigits, who.firstName, who.lastName].map((text) =>
    text.toLowerCase(),
  );
}

/** A webhook receiver that answers handshakes and fails every delivery (dead letters). */
async function startFailingReceiver() {
  let deliveries = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as Json;
      if (body.Type === 'SubscriptionValidation')
        return res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ Challenge: body.Challenge }));
      deliveries++;
      return res.writeHead(500).end('down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries: () => deliveries,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Data-subject requests (docs/data-subject.md): the export of everything held on a
 * profile, and its erasure, after which no collection of the database, no Redis key or
 * value and no line the api and the worker logged holds the person's email, phone or
 * name; the erasure waits behind earlier writes, survives a worker's crash, and leaves a
 * tombstone without personal data whose hashes flag the same person later.
 */
describe('Data-subject requests', () => {
  const written: string[] = [];
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let auth: string;
  let programs: TestPrograms;
  let receiver: Awaited<ReturnType<typeof startFailingReceiver>>;
  let subscriptionId: string;
  const v4 = (t: TestTenant = tenant) => `/Profiles/v4/${t.clientId}`;

  const get = (id: number, authorization = auth) =>
    request(app.http).get(`${v4()}/Profile/${id}`).set('Authorization', authorization);
  const complete = (id: number, ready: (profile: Json) => boolean = () => true) =>
    eventually(async () => {
      const res = await get(id);
      return res.status === 200 && res.body.UpdateStatus === 'Complete' && ready(res.body)
        ? (res.body as Json)
        : undefined;
    });
  const erase = (id: number, body: Json = { ReasonCode: 'GDPR-ART17', Note: 'Ticket 4711' }) =>
    request(app.http).post(`${v4()}/Profile/${id}/Erasure`).set('Authorization', auth).send(body);
  const erased = (id: number) =>
    eventually(async () => {
      const res = await request(app.http)
        .get(`${v4()}/Profile/${id}/Erasure`)
        .set('Authorization', auth);
      return res.status === 200 ? (res.body as Json) : undefined;
    });
  const check = (body: Json) =>
    request(app.http)
      .post(`${v4()}/ErasedIdentifiers/Check`)
      .set('Authorization', auth)
      .send(body)
      .expect(200);
  const exportOf = (id: number, authorization = auth, t: TestTenant = tenant) =>
    request(app.http)
      .get(`${v4(t)}/Profile/${id}/Export`)
      .set('Authorization', authorization)
      .buffer(true)
      .parse((res, done) => {
        let raw = '';
        res.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        res.on('end', () => done(null, raw));
      });

  async function create(who: Person, extra: Json = {}): Promise<number> {
    const res = await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send({
        CustomerType: 'Customer',
        CustomerName: { FirstName: who.firstName, LastName: who.lastName },
        Emails: [{ EmailAddress: who.email, EmailAddressType: 'Personal' }],
        PhoneNumbers: [{ PhoneNumber: who.phone, PhoneType: 'Mobile' }],
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: who.crm }],
        ...extra,
      });
    expect([res.status, res.body.Message]).toEqual([202, undefined]);
    const id = res.body.ProfileId as number;
    await complete(id);
    return id;
  }

  /** Every document of every collection of the suite's database, as text. */
  async function databaseText(): Promise<Map<string, string>> {
    const connection = app.api.get<Connection>(getConnectionToken());
    const db = connection.db!;
    const found = new Map<string, string>();
    for (const { name } of await db.listCollections().toArray()) {
      const docs = await db.collection(name).find({}).toArray();
      found.set(name, JSON.stringify(docs));
    }
    return found;
  }

  /**
   * Every Redis key and its content, whatever its type, as text; but for the keys of the other
   * test files' apps, which share the run's Redis: each has a `QUEUE_PREFIX` of its own
   * (`test-<id>`, test-app.ts), and late in a full run they are hundreds of thousands, read
   * one by one (the suite then took 100 s and once timed out). A key outside every test app's
   * prefix is still read.
   */
  async function redisText(): Promise<string[]> {
    const client = app.api.get(RedisService).client;
    const own = `${app.settings.queuePrefix}:`;
    const othersApp = (key: string) => /^test-[0-9a-f]{12}:/.test(key) && !key.startsWith(own);
    const texts: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys.filter((found) => !othersApp(found))) {
        const type = await client.type(key);
        let content: unknown;
        if (type === 'string') content = await client.getBuffer(key).then((b) => b?.toString());
        else if (type === 'hash') content = await client.hgetall(key);
        else if (type === 'set') content = await client.smembers(key);
        else if (type === 'zset') content = await client.zrange(key, 0, -1, 'WITHSCORES');
        else if (type === 'list') content = await client.lrange(key, 0, -1);
        else if (type === 'stream') content = await client.xrange(key, '-', '+');
        else content = `(${type})`;
        texts.push(`${key} ${JSON.stringify(content)}`);
      }
    } while (cursor !== '0');
    return texts;
  }

  /** Where any of the person's identifiers is still found: collections, Redis, log lines. */
  async function traces(who: Person): Promise<string[]> {
    const wanted = needles(who);
    const hits: string[] = [];
    const holds = (text: string) => {
      const lower = text.toLowerCase();
      return wanted.filter((needle) => lower.includes(needle));
    };
    for (const [collection, text] of await databaseText()) {
      const found = holds(text);
      if (found.length) hits.push(`collection ${collection}: ${found.join(', ')}`);
    }
    for (const entry of await redisText()) {
      const found = holds(entry);
      if (found.length) hits.push(`redis ${entry.slice(0, 200)}: ${found.join(', ')}`);
    }
    for (const line of written.join('').split('\n')) {
      const found = holds(line);
      if (found.length) hits.push(`log ${line.slice(0, 200)}: ${found.join(', ')}`);
    }
    return hits;
  }

  beforeAll(async () => {
    // Both processes' logs, at the most verbose level, captured for the whole suite.
    redirectLogs(
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written.push(chunk.toString());
          done();
        },
      }),
    );
    app = await startTestApp({
      env: {
        LOG_LEVEL: 'verbose',
        EVENTS_ALLOW_PRIVATE_TARGETS: 'true',
        EVENTS_HANDSHAKE_RETRY_DELAYS_MS: '100',
        EVENTS_DELIVERY_RETRY_DELAYS_MS: '100',
        EVENTS_PAUSE_AFTER_DEAD_LETTERS: '0',
        STALLED_JOB_CHECK_MS: '500',
      },
    });
    tenant = await createTestTenant(app);
    other = await createTestTenant(app);
    ({ programs } = await configureTestTenant(app, tenant));
    auth = await tenant.bearer();
    receiver = await startFailingReceiver();
    const res = await request(app.http)
      .post(`${v4()}/Events/Subscriptions`)
      .set('Authorization', auth)
      .send({
        Name: 'failing hook',
        State: 'Active',
        Url: receiver.url,
        Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
      });
    expect([res.status, res.body.Message]).toEqual([201, undefined]);
    subscriptionId = res.body.SubscriptionId;
    await eventually(async () => {
      const got = await request(app.http)
        .get(`${v4()}/Events/Subscriptions/${subscriptionId}`)
        .set('Authorization', auth);
      return got.body.ValidationStatus === 'Validated' ? true : undefined;
    });
  });

  afterEach(async () => {
    for (const process of [app.api, ...app.workers]) process.get(CrashPoints).disarmAll();
    if (app.workers.length === 0) await app.startWorker();
  });

  afterAll(async () => {
    await receiver?.close();
    await app?.close();
    redirectLogs(undefined);
  });

  it('exports everything held on the person, and after the erasure no collection, Redis key or log line holds them', async () => {
    const who = person();
    // Seeded through every path that stores data.
    const id = await create(who, {
      Consents: [{ ConsentType: 'Marketing', ConsentStatus: 1 }],
      ProfilePreferences: [testPreference(programs.newsletter.solicit)],
    });
    await request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({ CustomFields: [{ Name: 'Tier', Value: 'Gold' }], DefaultLocale: 'en-us' })
      .expect(202);
    await complete(id, (p) => p.DefaultLocale === 'en-us');
    // A preference change and a consent change.
    await request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({
        Consents: [{ ConsentType: 'Marketing', ConsentStatus: 3 }],
        ProfilePreferences: [testPreference(programs.newsletter.solicit, { PreferenceType: 2 })],
      })
      .expect(202);
    await complete(id, (p) => p.Consents?.[0]?.ConsentStatus === 3);
    // An overwrite, then a PATCH whose answer (the whole profile) Redis keeps under its
    // Idempotency-Key.
    const current = await complete(id);
    await request(app.http)
      .put(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({ ...current, ReasonCode: 'put' })
      .expect(202);
    await complete(id, (p) => p.ReasonCode === 'put');
    const patched = await request(app.http)
      .patch(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .set('Idempotency-Key', `patch-${id}`)
      .set('Content-Type', 'application/json-patch+json')
      .send(JSON.stringify([{ op: 'replace', path: '/ReasonCode', value: 'patched' }]));
    expect([patched.status, patched.body.Message]).toEqual([200, undefined]);
    expect(patched.body.Emails[0].EmailAddress).toBe(who.email);
    // The profile.created delivery fails every attempt: a dead letter with its data.
    await eventually(async () => {
      const res = await request(app.http)
        .get(`${v4()}/Events/Subscriptions/${subscriptionId}/DeadLetters`)
        .set('Authorization', auth);
      return (res.body.DeadLetters ?? []).some((letter: Json) => letter.ProfileId === id)
        ? true
        : undefined;
    });

    // The export: one JSON download with everything.
    const exported = await exportOf(id).expect(200);
    expect(exported.headers['content-type']).toMatch(/^application\/json/);
    expect(exported.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="profile-${id}-.*\\.json"$`),
    );
    const body = JSON.parse(exported.body as string) as Json;
    expect(body).toMatchObject({ ClientId: tenant.clientId, ProfileId: id });
    expect(body.Profile.Emails[0].EmailAddress).toBe(who.email);
    expect(body.Profile.ReasonCode).toBe('patched');
    expect(body.StoredData.CustomerName.FirstName).toBe(who.firstName);
    // Every history entry, in (seq, n) order, up to the last applied write.
    const order = body.History.map((entry: Json) => [entry.seq, entry.n]);
    expect(order).toEqual(
      [...order].sort((a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1]),
    );
    expect(body.History.every((entry: Json) => entry.seq <= body.AppliedSequence)).toBe(true);
    const categories = new Set(body.History.map((entry: Json) => entry.category));
    for (const category of ['standard', 'contact', 'customField'])
      expect(categories).toContain(category);
    let viaRoutes = 0;
    for (const part of [
      'StandardFields',
      'CustomFields',
      'ContactElements',
      'Preferences',
      'Consents',
    ]) {
      const res = await request(app.http)
        .get(`${v4()}/Profile/${id}/History/${part}`)
        .set('Authorization', auth)
        .expect(200);
      viaRoutes += (res.body as Json[]).length;
    }
    expect(body.History.length).toBeGreaterThanOrEqual(viaRoutes);
    // Every kept event, the five writes' (create, 2 merges, put, patch).
    expect(body.Events.map((event: Json) => event.type)).toContain('profile.created');
    expect(new Set(body.Events.map((event: Json) => event.seq)).size).toBe(5);
    expect(body.Writes.map((write: Json) => write.Operation)).toEqual([
      'create',
      'merge',
      'merge',
      'overwrite',
      'patch',
    ]);
    expect(body.Writes[0].Body.Emails[0].EmailAddress).toBe(who.email);
    // Before the erasure, every kind of store holds the person: the scan finds them.
    const before = await traces(who);
    expect(before.some((hit) => hit.startsWith('collection profiles'))).toBe(true);
    expect(before.some((hit) => hit.startsWith('collection event_dead_letters'))).toBe(true);
    expect(before.some((hit) => hit.startsWith('redis'))).toBe(true);

    const accepted = await erase(id).expect(202);
    expect(accepted.body).toMatchObject({ ProfileId: id, UpdateStatus: 'Pending Update' });
    expect(accepted.headers.location).toMatch(new RegExp(`/Profile/${id}/Erasure$`));
    const tombstone = await erased(id);
    expect(tombstone).toMatchObject({
      ProfileId: id,
      RequestedBy: tenant.userId,
      ReasonCode: 'GDPR-ART17',
      Note: 'Ticket 4711',
      IdentifiersHashed: 4,
    });
    await get(id).expect(404);
    await exportOf(id).expect(404);
    await erase(id).expect(404);

    expect(await traces(who)).toEqual([]);
    // The profile's id stays taken: the next profile gets another one.
    const next = await create(person());
    expect(next).toBeGreaterThan(id);
  });

  it('applies the erasure after the writes accepted before it; a write accepted after it fails and keeps no body', async () => {
    const who = person();
    const id = await create(who);
    const worker = app.workers[0];
    await app.stopWorker(worker);
    const late = `late.${randomBytes(3).toString('hex')}@example.org`;
    const after = `after.${randomBytes(3).toString('hex')}@example.org`;
    await request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({ Emails: [{ EmailAddress: late, EmailAddressType: 'Personal' }] })
      .expect(202);
    await erase(id).expect(202);
    await request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({ Emails: [{ EmailAddress: after, EmailAddressType: 'Personal' }] })
      .expect(202);
    const updates = (
      await request(app.http)
        .get(`${v4()}/Profile/${id}/Updates`)
        .set('Authorization', auth)
        .expect(200)
    ).body.Updates as Json[];
    expect(updates.slice(0, 3).map((u) => [u.Operation, u.Status])).toEqual([
      ['merge', 'Pending Update'],
      ['erase', 'Pending Update'],
      ['merge', 'Pending Update'],
    ]);
    await app.startWorker();
    await erased(id);
    // The merge before it was applied first: its email is among the hashed identifiers.
    const found = await check({ Emails: [late.toUpperCase(), after, who.email] });
    expect(found.body.Checked).toBe(3);
    expect(found.body.Matches.map((m: Json) => [m.Kind, m.Value, m.ProfileIds])).toEqual([
      ['Email', late.toUpperCase(), [id]],
      ['Email', who.email, [id]],
    ]);
    // The write after it failed, and its body went with it.
    await eventually(async () => {
      const db = app.api.get<Connection>(getConnectionToken()).db!;
      const left = JSON.stringify(await db.collection('profile_writes').find({}).toArray());
      return !left.includes(after) && left.includes('The profile was deleted') ? true : undefined;
    });
    expect((await traces({ ...who, email: after })).filter((hit) => hit.includes(after))).toEqual(
      [],
    );
  });

  it('leaves a tombstone without personal data that flags the same person created again', async () => {
    const who = person();
    const id = await create(who);
    await erase(id, { ReasonCode: 'DSR-1' }).expect(202);
    await erased(id);
    const db = app.api.get<Connection>(getConnectionToken()).db!;
    const tombstone = await db
      .collection('profile_erasures')
      .findOne({ _id: `${tenant.clientId}|${id}` } as object);
    expect(tombstone).toMatchObject({
      profileId: id,
      requestedBy: tenant.userId,
      reasonCode: 'DSR-1',
    });
    expect(tombstone!.identifiers).toHaveLength(4);
    for (const { hash } of tombstone!.identifiers as Json[]) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const stored = JSON.stringify(tombstone).toLowerCase();
    for (const needle of [...needles(who), who.crm.toLowerCase()])
      expect(stored).not.toContain(needle);

    // The same person comes back (another spelling): the check finds every identifier.
    const again = await create({ ...who, email: who.email.toUpperCase() });
    expect(again).not.toBe(id);
    const found = await check({
      Emails: [` ${who.email.toLowerCase()} `],
      PhoneNumbers: [who.phoneDigits],
      AlternateIds: [{ AlternateIdType: 'crm', AlternateId: who.crm }],
      Names: [{ FirstName: who.firstName.toUpperCase(), LastName: who.lastName }],
    });
    expect(found.body.Matches.map((m: Json) => [m.Kind, m.ProfileIds])).toEqual([
      ['Email', [id]],
      ['PhoneNumber', [id]],
      ['AlternateId', [id]],
      ['Name', [id]],
    ]);
    expect((await check({ Emails: ['nobody@example.org'] })).body).toEqual({
      Checked: 1,
      Matches: [],
    });
    // Another client's erasures are not its own.
    const otherAuth = await other.bearer();
    const theirs = await request(app.http)
      .post(`${v4(other)}/ErasedIdentifiers/Check`)
      .set('Authorization', otherAuth)
      .send({ Emails: [who.email] })
      .expect(200);
    expect(theirs.body).toEqual({ Checked: 1, Matches: [] });
  });

  it('completes an erasure whose worker died before the save', async () => {
    const who = person();
    const id = await create(who);
    const first = app.workers[0];
    const reached = first.get(CrashPoints).arm(CRASH_POINTS.applyAfterHistory);
    await erase(id).expect(202);
    await reached;
    await app.killWorker(first);
    // The lease of the dead worker lapses; a new worker takes the erasure up again.
    await app.api
      .get(RedisService)
      .client.del(leaseKey(app.settings.queuePrefix, `profile:${tenant.clientId}|${id}`));
    await app.startWorker();
    expect((await erased(id)).ProfileId).toBe(id);
    await get(id).expect(404);
    expect((await traces(who)).filter((hit) => !hit.startsWith('log'))).toEqual([]);
  });

  it('refuses a bad erasure body with a 400 naming the field, changing nothing', async () => {
    const who = person();
    const id = await create(who);
    const missing = await erase(id, {}).expect(400);
    expect(missing.body.Message).toMatch(/ReasonCode/);
    const free = await erase(id, { ReasonCode: 'the customer asked' }).expect(400);
    expect(free.body.Message).toMatch(/ReasonCode/);
    const unknown = await erase(id, { ReasonCode: 'A', Email: 'x' }).expect(400);
    expect(unknown.body.Message).toMatch(/Email/);
    const long = await erase(id, { ReasonCode: 'A', Note: 'n'.repeat(201) }).expect(400);
    expect(long.body.Message).toMatch(/Note/);
    expect((await get(id).expect(200)).body.Emails[0].EmailAddress).toBe(who.email);
    const updates = await request(app.http)
      .get(`${v4()}/Profile/${id}/Updates`)
      .set('Authorization', auth)
      .expect(200);
    expect(updates.body.Updates.map((u: Json) => u.Operation)).toEqual(['create']);
  });

  it("answers 404 for unknown profiles and another client's, and 403 without the permissions", async () => {
    const id = await create(person());
    await erase(99_999).expect(404);
    await exportOf(99_999).expect(404);
    await request(app.http)
      .get(`${v4()}/Profile/${id}/Erasure`)
      .set('Authorization', auth)
      .expect(404);
    // Another client sees no profile of this one, not even that it exists.
    const otherAuth = await other.bearer();
    await exportOf(id, otherAuth, other).expect(404);
    await request(app.http)
      .post(`${v4(other)}/Profile/${id}/Erasure`)
      .set('Authorization', otherAuth)
      .send({ ReasonCode: 'X' })
      .expect(404);

    const admin = app.api.get(TenantAdminService);
    await admin.defineUserGroup(tenant.clientId, 'Profile readers', [
      { area: 'profiles', access: 'read' },
      { area: 'consents', access: 'read' },
      { area: 'preferences', access: 'read' },
    ]);
    await admin.defineUserGroup(tenant.clientId, 'Auditors', [
      { area: 'profiles', access: 'read' },
      { area: 'consents', access: 'read' },
      { area: 'preferences', access: 'read' },
      { area: 'history', access: 'read' },
      { area: 'events', access: 'read' },
    ]);
    await admin.addUser({ clientId: tenant.clientId, userId: 'reader', group: 'Profile readers' });
    await admin.addUser({ clientId: tenant.clientId, userId: 'auditor', group: 'Auditors' });
    const reader = await fetchBearer(app, tenant, 'reader');
    const auditor = await fetchBearer(app, tenant, 'auditor');
    const refused = await exportOf(id, reader).expect(403);
    expect(JSON.parse(refused.body as string).Message).toMatch(/history and events/);
    // Read on every area it shows is enough to export; erasing takes profiles write.
    expect(JSON.parse((await exportOf(id, auditor).expect(200)).body as string).ProfileId).toBe(id);
    await request(app.http)
      .post(`${v4()}/Profile/${id}/Erasure`)
      .set('Authorization', auditor)
      .send({ ReasonCode: 'X' })
      .expect(403);
    await get(id).expect(200);
  });
});
