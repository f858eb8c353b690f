import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { EVENTS_QUEUE } from '@app/events';
import { type FairItem, JobQueue, JobQueues, JobRunner, JOBS_QUEUE } from '@app/shared';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

interface Delivery {
  path: string;
  body: { EventId?: string; EventType?: string; ProfileId?: number };
}

/** A local receiver: answers handshakes, records and accepts (204) every delivery. */
async function startReceiver() {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as Delivery['body'] & { Type?: string; Challenge?: string };
      if (body.Type === 'SubscriptionValidation') {
        return res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ Challenge: body.Challenge }));
      }
      deliveries.push({ path: req.url ?? '', body });
      return res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name: string) => `http://127.0.0.1:${port}/${name}/hook`,
    to: (name: string) => deliveries.filter((delivery) => delivery.path.startsWith(`/${name}/`)),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Event delivery lifted into a worker of its own (apps/events-worker, issue 42;
 * docs/scaling.md, "Lifted apps"): the events queue is served by the events worker alone,
 * the worker (EVENTS_DELIVERY=lifted) applies the writes and queues their deliveries, and
 * event jobs queued in the `jobs` queue before the events queue existed are moved over.
 * The events' suites run again in this topology (the jest project e2e-lifted-events).
 */
describe('The lifted events worker', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let names = 0;
  const v4 = () => `/Profiles/v4/${tenant.clientId}`;

  beforeAll(async () => {
    app = await startTestApp({
      workers: 1,
      env: { EVENTS_ALLOW_PRIVATE_TARGETS: 'true', EVENTS_DELIVERY: 'lifted' },
    });
    await app.startEventsWorker();
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    receiver = await startReceiver();
  });
  afterEach(async () => {
    if (!app.eventsWorker) await app.startEventsWorker();
  });
  afterAll(async () => {
    await receiver?.close();
    await app?.close();
  });

  /** An Active subscription to profile.created, validated (by the events worker). */
  async function subscribe(hook: string): Promise<string> {
    const res = await request(app.http)
      .post(`${v4()}/Events/Subscriptions`)
      .set('Authorization', auth)
      .send({
        Name: hook,
        State: 'Active',
        Url: receiver.url(hook),
        Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
      });
    expect([res.status, res.body.Message]).toEqual([201, undefined]);
    const id = res.body.SubscriptionId as string;
    await eventually(async () => {
      const got = await request(app.http)
        .get(`${v4()}/Events/Subscriptions/${id}`)
        .set('Authorization', auth);
      return got.body.ValidationStatus === 'Validated' ? true : undefined;
    });
    return id;
  }

  /** A new profile, once the worker applied it. */
  async function appliedProfile(): Promise<number> {
    const res = await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer' });
    expect([res.status, res.body.Message]).toEqual([202, undefined]);
    const id = res.body.ProfileId as number;
    await eventually(async () => {
      const got = await request(app.http).get(`${v4()}/Profile/${id}`).set('Authorization', auth);
      return got.status === 200 ? true : undefined;
    });
    return id;
  }

  /** The items waiting in a queue's fair queue (read through the api's queues). */
  const waiting = (queue: string): Promise<FairItem[]> =>
    app.api.get(JobQueues).line(queue).fair.waiting();

  /** The deliveries of (subscription, profile) waiting in `queue`, once there are some. */
  const queuedDeliveries = (queue: string, subscriptionId: string, profileId: number) =>
    eventually(async () => {
      const items = (await waiting(queue)).filter(({ payload }) => {
        const delivery = payload as { subscriptionId?: string; profileId?: number };
        return delivery.subscriptionId === subscriptionId && delivery.profileId === profileId;
      });
      return items.length ? items : undefined;
    });

  const unsubscribe = async (subscriptionId: string) =>
    expect(
      (
        await request(app.http)
          .delete(`${v4()}/Events/Subscriptions/${subscriptionId}`)
          .set('Authorization', auth)
      ).status,
    ).toBe(204);

  it('serves the events queue alone, and the worker leaves it', () => {
    expect(app.workers[0].get(JobRunner, { strict: false }).servedQueues).toEqual([JOBS_QUEUE]);
    expect(app.eventsWorker!.get(JobRunner, { strict: false }).servedQueues).toEqual([
      EVENTS_QUEUE,
    ]);
  });

  it('delivers what the worker queued; without the events worker the delivery waits', async () => {
    const hook = `h${names++}`;
    const subscriptionId = await subscribe(hook);
    await app.stopEventsWorker();
    const id = await appliedProfile();
    // Applied by the worker, which queued the delivery (right after the save) in the events
    // queue, whose only server is stopped: nothing was delivered.
    const queued = await queuedDeliveries(EVENTS_QUEUE, subscriptionId, id);
    expect(queued.map((item) => item.job)).toEqual(['event-delivery']);
    expect(receiver.to(hook)).toEqual([]);
    await app.startEventsWorker();
    const [delivery] = await eventually(async () =>
      receiver.to(hook).length ? receiver.to(hook) : undefined,
    );
    expect(delivery.body).toMatchObject({
      EventId: `${id}-1-0`,
      EventType: 'profile.created',
      ProfileId: id,
    });
    await unsubscribe(subscriptionId);
  });

  it('moves a delivery queued in the jobs queue before the upgrade to the events queue', async () => {
    const hook = `h${names++}`;
    const subscriptionId = await subscribe(hook);
    await app.stopEventsWorker();
    const id = await appliedProfile();
    // What an older version queued: the delivery as an item of the jobs queue's fair queue
    // (the one this version queued taken out).
    const events = app.api.get(JobQueues).line(EVENTS_QUEUE).fair;
    for (const item of await queuedDeliveries(EVENTS_QUEUE, subscriptionId, id)) {
      await events.remove(item);
    }
    expect(await waiting(EVENTS_QUEUE)).toEqual([]);
    const old: FairItem = {
      id: `old-${id}`,
      job: 'event-delivery',
      tenant: tenant.clientId,
      lane: 'interactive',
      payload: { clientId: tenant.clientId, subscriptionId, profileId: id },
    };
    await app.api.get(JobQueues).line(JOBS_QUEUE).fair.push(old);
    await app.api.get(JobQueue).addTurns(1, JOBS_QUEUE);
    // The worker takes it from the jobs queue and hands it to the events queue...
    const moved = await queuedDeliveries(EVENTS_QUEUE, subscriptionId, id);
    expect(moved.map((item) => item.job)).toEqual(['event-delivery']);
    expect(await waiting(JOBS_QUEUE)).toEqual([]);
    // ...where the events worker delivers it.
    await app.startEventsWorker();
    const [delivery] = await eventually(async () =>
      receiver.to(hook).length ? receiver.to(hook) : undefined,
    );
    expect(delivery.body).toMatchObject({ EventId: `${id}-1-0`, ProfileId: id });
    await unsubscribe(subscriptionId);
  });
});
