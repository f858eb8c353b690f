import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { CRASH_POINTS, CrashPoints, JOBS_QUEUE, leaseKey, RedisService } from '@app/shared';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

type Json = Record<string, any>;

interface Delivery {
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: Json;
}

/**
 * A local endpoint (127.0.0.1; the suite allows private targets). Every request's path is
 * `/<name>/...`: a handshake is answered with its challenge; a delivery is recorded, then
 * answered by the name's mode: ok (204), fail (500), or flaky (500 for the first
 * `failures[name]` deliveries, then 200).
 */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  const failures: Record<string, number> = {};
  const modes: Record<string, 'ok' | 'fail' | 'flaky'> = {};
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as Json;
      if (body.Type === 'SubscriptionValidation') {
        return res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ Challenge: body.Challenge }));
      }
      const name = (req.url ?? '').split('/')[1];
      deliveries.push({
        path: req.url ?? '',
        headers: req.headers as Record<string, string>,
        raw,
        body,
      });
      const mode = modes[name] ?? 'ok';
      if (mode === 'fail') return res.writeHead(500).end('down');
      if (mode === 'flaky' && (failures[name] ?? 0) > 0) {
        failures[name]--;
        return res.writeHead(503).end('later');
      }
      return res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    deliveries,
    failures,
    modes,
    url: (name: string) => `http://127.0.0.1:${port}/${name}/hook`,
    to: (name: string) => deliveries.filter((delivery) => delivery.path.startsWith(`/${name}/`)),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Deliveries of events to subscriptions (docs/events.md, "Deliveries"): signed as Standard
 * Webhooks (verified with its library), narrowed by the selections, in the order of a
 * profile's writes, retried, dead-lettered and redelivered, a subscription paused after
 * dead letters in a row, and a worker killed between the save and the delivery.
 */
describe('Event deliveries', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let names = 0;
  const v4 = () => `/Profiles/v4/${tenant.clientId}`;

  async function subscribe(body: Json): Promise<Json> {
    const res = await request(app.http)
      .post(`${v4()}/Events/Subscriptions`)
      .set('Authorization', auth)
      .send({ Name: 'hook', State: 'Active', ...body });
    expect([res.status, res.body.Message]).toEqual([201, undefined]);
    await eventually(async () => {
      const got = await request(app.http)
        .get(`${v4()}/Events/Subscriptions/${res.body.SubscriptionId}`)
        .set('Authorization', auth);
      return got.body.ValidationStatus === 'Validated' ? true : undefined;
    });
    return res.body as Json;
  }

  const subscription = async (id: string) =>
    (await request(app.http).get(`${v4()}/Events/Subscriptions/${id}`).set('Authorization', auth))
      .body as Json;

  async function createProfile(body: Json): Promise<number> {
    const res = await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', ...body });
    expect([res.status, res.body.Message]).toEqual([202, undefined]);
    return res.body.ProfileId as number;
  }

  const merge = (profileId: number, body: Json) =>
    request(app.http).post(`${v4()}/Profile/${profileId}`).set('Authorization', auth).send(body);

  const name = () => `n${names++}`;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 1,
      env: {
        EVENTS_ALLOW_PRIVATE_TARGETS: 'true',
        EVENTS_HANDSHAKE_RETRY_DELAYS_MS: '100',
        EVENTS_DELIVERY_RETRY_DELAYS_MS: '200,300',
        EVENTS_PAUSE_AFTER_DEAD_LETTERS: '2',
        // A dead worker's job is taken up 0.5 s after its lock lapses (the crash test).
        STALLED_JOB_CHECK_MS: '500',
      },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    if (app.workers.length === 0) await app.startWorker();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  it('delivers what the selections take, signed as Standard Webhooks, in write order', async () => {
    const hook = name();
    const sub = await subscribe({
      Url: receiver.url(hook),
      Subscriptions: [
        { Entity: 'Profile', EventType: 'profile.created' },
        { Entity: 'Consent', EventType: '*', ConsentTypes: ['Terms'] },
      ],
    });
    const id = await createProfile({
      Consents: [
        { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 },
        { ConsentType: 'Mail', ConsentVersion: '1.0', ConsentStatus: 1 },
      ],
    });
    const received = await eventually(async () =>
      receiver.to(hook).length >= 2 ? receiver.to(hook) : undefined,
    );
    expect(received.map((d) => [d.body.EventId, d.body.EventType])).toEqual([
      [`${id}-1-0`, 'profile.created'],
      [`${id}-1-1`, 'consent.added'],
    ]);
    expect(received[1].body).toMatchObject({
      SubscriptionId: sub.SubscriptionId,
      ProfileId: id,
      Data: { ConsentType: 'Terms' },
    });
    for (const delivery of received) {
      expect(delivery.headers['webhook-id']).toBe(delivery.body.EventId);
      expect(new Webhook(sub.Secret).verify(delivery.raw, delivery.headers)).toEqual(delivery.body);
    }
    // Mail is not among the selection's consent types; and nothing else came.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.to(hook)).toHaveLength(2);

    // Many writes of one profile at once: received in the order of its writes.
    const fields = await subscribe({
      Url: receiver.url(`${hook}-names`),
      Subscriptions: [{ Entity: 'StandardField', EventType: 'standardfield.firstname.updated' }],
      ExcludeData: true,
    });
    const writes = await Promise.all(
      Array.from({ length: 8 }, (_, k) => merge(id, { CustomerName: { FirstName: `N${k}` } })),
    );
    expect(writes.map((res) => res.status)).toEqual(writes.map(() => 202));
    const names8 = await eventually(async () =>
      receiver.to(`${hook}-names`).length >= 8 ? receiver.to(`${hook}-names`) : undefined,
    );
    const sequences = names8.map((d) => d.body.Sequence as number);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(8);
    // ExcludeData: no Data, no PreviousData.
    expect(names8[0].body.Data).toBeUndefined();
    expect(names8[0].body.PreviousData).toBeUndefined();
    expect(fields.SubscriptionId).toBeDefined();
  });

  it('names the profile by its AlternateIdType, and sends nothing of before it was subscribed', async () => {
    const hook = name();
    const before = await createProfile({
      AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: `${hook}-before` }],
    });
    await eventually(async () => {
      const res = await request(app.http)
        .get(`${v4()}/Profile/${before}`)
        .set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });
    await subscribe({
      Url: receiver.url(hook),
      Subscriptions: [{ Entity: 'Profile', EventType: '*' }],
      AlternateIdType: 'CRM',
    });
    expect((await merge(before, { CustomerType: 'Prospect' })).status).toBe(202);
    const [delivery] = await eventually(async () =>
      receiver.to(hook).length ? receiver.to(hook) : undefined,
    );
    expect(delivery.body).toMatchObject({
      EventType: 'profile.updated',
      AlternateIdType: 'CRM',
      AlternateId: `${hook}-before`,
      Data: { CustomerType: 'Prospect' },
    });
    expect(delivery.body.ProfileId).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Its profile.created (before the subscription) was not sent.
    expect(receiver.to(hook).map((d) => d.body.EventType)).toEqual(['profile.updated']);
  });

  it('delivers profile.merged with both ids when one profile absorbs another', async () => {
    const hook = name();
    const survivor = await createProfile({ CustomerName: { FirstName: 'Sur' } });
    const absorbed = await createProfile({ CustomerName: { FirstName: 'Ab' } });
    for (const id of [survivor, absorbed])
      await eventually(async () => {
        const res = await request(app.http).get(`${v4()}/Profile/${id}`).set('Authorization', auth);
        return res.body.UpdateStatus === 'Complete' ? true : undefined;
      });
    await subscribe({
      Url: receiver.url(hook),
      Subscriptions: [{ Entity: 'Profile', EventType: 'profile.merged' }],
    });
    const merged = await request(app.http)
      .post(`${v4()}/Profile/${survivor}/Merge`)
      .set('Authorization', auth)
      .send({ AbsorbedProfileId: absorbed, ReasonCode: 'SamePerson' });
    expect([merged.status, merged.body.Message]).toEqual([202, undefined]);
    const [delivery] = await eventually(async () =>
      receiver.to(hook).length ? receiver.to(hook) : undefined,
    );
    expect(delivery.body).toMatchObject({
      EventType: 'profile.merged',
      ProfileId: survivor,
      Data: { ProfileId: survivor, AbsorbedProfileId: absorbed, ReasonCode: 'SamePerson' },
    });
  });

  it("retries a failed delivery, holding the profile's later events behind it", async () => {
    const hook = name();
    receiver.modes[hook] = 'flaky';
    receiver.failures[hook] = 2;
    await subscribe({
      Url: receiver.url(hook),
      Subscriptions: [{ Entity: 'Profile', EventType: '*' }],
    });
    const id = await createProfile({});
    expect((await merge(id, { CustomerType: 'Prospect' })).status).toBe(202);
    const delivered = await eventually(async () => {
      const all = receiver.to(hook);
      return all.length >= 4 ? all : undefined;
    });
    // Two failed attempts at profile.created, then it, then profile.updated: in order.
    expect(delivered.map((d) => d.body.EventType)).toEqual([
      'profile.created',
      'profile.created',
      'profile.created',
      'profile.updated',
    ]);
    expect(new Set(delivered.slice(0, 3).map((d) => d.headers['webhook-id'])).size).toBe(1);
  });

  it('dead-letters after the last attempt, pauses the subscription after two in a row, and redelivers', async () => {
    const hook = name();
    receiver.modes[hook] = 'fail';
    const sub = await subscribe({
      Url: receiver.url(hook),
      Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
    });
    const first = await createProfile({});
    const second = await createProfile({});
    const paused = await eventually(async () => {
      const current = await subscription(sub.SubscriptionId);
      return current.State === 'Paused' ? current : undefined;
    });
    expect(paused.PausedReason).toMatch(/2 deliveries in a row failed every attempt/);
    expect(paused.PausedReason).toMatch(/HTTP 500/);
    const letters = (
      await request(app.http)
        .get(`${v4()}/Events/Subscriptions/${sub.SubscriptionId}/DeadLetters`)
        .set('Authorization', auth)
        .expect(200)
    ).body;
    expect(letters.Count).toBe(2);
    expect(letters.DeadLetters.map((letter: Json) => letter.ProfileId).sort()).toEqual(
      [first, second].sort(),
    );
    expect(letters.DeadLetters[0]).toMatchObject({
      EventType: 'profile.created',
      Attempts: 3,
      LastError: 'the endpoint answered HTTP 500',
    });
    // 3 attempts each (the first and one per delay).
    expect(receiver.to(hook)).toHaveLength(6);

    // The endpoint is fixed: a redelivery takes the dead letter out.
    receiver.modes[hook] = 'ok';
    const eventId = letters.DeadLetters[0].EventId as string;
    await request(app.http)
      .post(`${v4()}/Events/Subscriptions/${sub.SubscriptionId}/DeadLetters/${eventId}/Redeliver`)
      .set('Authorization', auth)
      .expect(202);
    await eventually(async () => {
      const left = (
        await request(app.http)
          .get(`${v4()}/Events/Subscriptions/${sub.SubscriptionId}/DeadLetters`)
          .set('Authorization', auth)
      ).body;
      return left.Count === 1 ? true : undefined;
    });
    const redelivered = receiver.to(hook).at(-1)!;
    expect(redelivered.body.EventId).toBe(eventId);
    expect(new Webhook(sub.Secret).verify(redelivered.raw, redelivered.headers)).toBeTruthy();
    await request(app.http)
      .post(`${v4()}/Events/Subscriptions/${sub.SubscriptionId}/DeadLetters/${eventId}/Redeliver`)
      .set('Authorization', auth)
      .expect(404);
  });

  it('a paused subscription gets its paused period on resumption with DeliverPausedEvents, and only then', async () => {
    const [replaying, skipping] = [name(), name()];
    const body = (hook: string, DeliverPausedEvents: boolean) => ({
      Url: receiver.url(hook),
      Subscriptions: [{ Entity: 'StandardField', EventType: 'standardfield.firstname.updated' }],
      DeliverPausedEvents,
    });
    const subs = [await subscribe(body(replaying, true)), await subscribe(body(skipping, false))];
    const id = await createProfile({ CustomerName: { FirstName: 'Start' } });
    const put = (sub: Json, hook: string, State: string, flag: boolean) =>
      request(app.http)
        .put(`${v4()}/Events/Subscriptions/${sub.SubscriptionId}`)
        .set('Authorization', auth)
        .send({ Name: 'hook', State, ...body(hook, flag) })
        .expect(200);
    await put(subs[0], replaying, 'Paused', true);
    await put(subs[1], skipping, 'Paused', false);
    expect((await merge(id, { CustomerName: { FirstName: 'While paused' } })).status).toBe(202);
    await eventually(async () => {
      const res = await request(app.http).get(`${v4()}/Profile/${id}`).set('Authorization', auth);
      return res.body.CustomerName?.FirstName === 'While paused' ? true : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.to(replaying)).toHaveLength(0);
    await put(subs[0], replaying, 'Active', true);
    await put(subs[1], skipping, 'Active', false);
    const [replayed] = await eventually(async () =>
      receiver.to(replaying).length ? receiver.to(replaying) : undefined,
    );
    expect(replayed.body).toMatchObject({ Data: { FirstName: 'While paused' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.to(replaying)).toHaveLength(1);
    expect(receiver.to(skipping)).toHaveLength(0);
  });

  it('a worker killed after the save, before the delivery: the event arrives once', async () => {
    const hook = name();
    await subscribe({
      Url: receiver.url(hook),
      Subscriptions: [{ Entity: 'StandardField', EventType: 'standardfield.lastname.updated' }],
    });
    const id = await createProfile({ CustomerName: { LastName: 'Before' } });
    await eventually(async () => {
      const res = await request(app.http).get(`${v4()}/Profile/${id}`).set('Authorization', auth);
      return res.body.UpdateStatus === 'Complete' ? true : undefined;
    });
    const [worker] = app.workers;
    const reached = worker
      .get(CrashPoints, { strict: false })
      .arm(CRASH_POINTS.applyAfterSave, { everyFlow: true });
    expect((await merge(id, { CustomerName: { LastName: 'After' } })).status).toBe(202);
    await reached;
    await app.killWorker(worker);
    expect(receiver.to(hook)).toHaveLength(0);
    await app.api
      .get(RedisService)
      .client.del(leaseKey(app.settings.queuePrefix, `profile:${tenant.clientId}|${id}`));
    await app.startWorker();
    // The process died: its job's lock lapses (here at once: the test's worker was closed,
    // not killed, and would keep renewing it), and the next worker takes the job up as
    // stalled. It finds the write saved and tells the delivery trigger then.
    const queue = app.api.get<Queue>(getQueueToken(JOBS_QUEUE));
    for (const job of await queue.getActive()) {
      await app.api.get(RedisService).client.del(queue.toKey(`${job.id}:lock`));
    }
    const [delivery] = await eventually(async () =>
      receiver.to(hook).length ? receiver.to(hook) : undefined,
    );
    expect(delivery.body).toMatchObject({
      EventType: 'standardfield.lastname.updated',
      Data: { LastName: 'After' },
      PreviousData: { LastName: 'Before' },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.to(hook)).toHaveLength(1);
  }, 60_000);
});
