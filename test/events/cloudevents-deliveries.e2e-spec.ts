import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CloudEvent, HTTP } from 'cloudevents';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { configureTestTenant } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

type Json = Record<string, any>;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
}

/**
 * A local endpoint on 127.0.0.1 (the suite allows private targets): answers a handshake with
 * its challenge, records every other request; `/<name>/...` answering 500 while
 * failing[name] is set.
 */
async function startReceiver() {
  const received: Received[] = [];
  const failing = new Set<string>();
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
      received.push({ path: req.url ?? '', headers: req.headers, raw });
      return failing.has(name) ? res.writeHead(500).end('down') : res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    failing,
    url: (name: string) => `http://127.0.0.1:${port}/${name}/hook`,
    to: (name: string) => received.filter((one) => one.path.startsWith(`/${name}/`)),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Parses a delivery as a receiver would: the official CloudEvents SDK, structured mode. */
function toCloudEvent(delivery: Received): CloudEvent<Json> {
  const parsed = HTTP.toEvent<Json>({ headers: delivery.headers, body: delivery.raw });
  return (Array.isArray(parsed) ? parsed[0] : parsed) as CloudEvent<Json>;
}

/**
 * CloudEvents deliveries (docs/events.md, "CloudEvents"): a subscription with DeliveryFormat
 * CloudEvents receives CloudEvents 1.0 events in structured mode, which the official SDK
 * parses, still signed as Standard Webhooks (verified with its library); the default stays
 * the plain JSON body; a retried or redelivered event keeps its id and its format.
 */
describe('CloudEvents deliveries', () => {
  let app: TestApp;
  let tenant: TestTenant;
  let auth: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
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

  async function createProfile(body: Json): Promise<number> {
    const res = await request(app.http)
      .post(`${v4()}/Profile`)
      .set('Authorization', auth)
      .send({ CustomerType: 'Customer', ...body });
    expect([res.status, res.body.Message]).toEqual([202, undefined]);
    return res.body.ProfileId as number;
  }

  beforeAll(async () => {
    app = await startTestApp({
      workers: 1,
      env: {
        EVENTS_ALLOW_PRIVATE_TARGETS: 'true',
        EVENTS_HANDSHAKE_RETRY_DELAYS_MS: '100',
        EVENTS_DELIVERY_RETRY_DELAYS_MS: '200',
      },
    });
    tenant = await createTestTenant(app);
    await configureTestTenant(app, tenant);
    auth = await tenant.bearer();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  it('stores DeliveryFormat (default Standard), shows it on GET, changes it on PUT, refuses another value', async () => {
    const standard = await subscribe({
      Url: receiver.url('fmt'),
      Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
    });
    expect(standard.DeliveryFormat).toBe('Standard');
    const body = {
      Name: 'hook',
      State: 'Active',
      Url: receiver.url('fmt'),
      Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
      DeliveryFormat: 'CloudEvents',
    };
    const put = await request(app.http)
      .put(`${v4()}/Events/Subscriptions/${standard.SubscriptionId}`)
      .set('Authorization', auth)
      .send(body)
      .expect(200);
    expect(put.body.DeliveryFormat).toBe('CloudEvents');
    const got = await request(app.http)
      .get(`${v4()}/Events/Subscriptions/${standard.SubscriptionId}`)
      .set('Authorization', auth)
      .expect(200);
    expect(got.body.DeliveryFormat).toBe('CloudEvents');
    const bad = await request(app.http)
      .post(`${v4()}/Events/Subscriptions`)
      .set('Authorization', auth)
      .send({ ...body, Url: receiver.url('fmt-bad'), DeliveryFormat: 'cloud' })
      .expect(400);
    expect(bad.body.Message).toContain('DeliveryFormat');
  });

  it('delivers CloudEvents 1.0 in structured mode that the SDK parses, signed as Standard Webhooks; the default stays plain JSON', async () => {
    const selection = [{ Entity: 'Consent', EventType: '*', ConsentTypes: ['Terms'] }];
    const cloud = await subscribe({
      Url: receiver.url('ce'),
      Subscriptions: selection,
      DeliveryFormat: 'CloudEvents',
    });
    const plain = await subscribe({ Url: receiver.url('plain'), Subscriptions: selection });
    const id = await createProfile({
      Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
    });
    const [delivery] = await eventually(async () =>
      receiver.to('ce').length >= 1 ? receiver.to('ce') : undefined,
    );
    const [plainDelivery] = await eventually(async () =>
      receiver.to('plain').length >= 1 ? receiver.to('plain') : undefined,
    );

    expect(delivery.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
    const event = toCloudEvent(delivery);
    expect(event.validate()).toBe(true);
    expect({
      specversion: event.specversion,
      id: event.id,
      source: event.source,
      type: event.type,
      subject: event.subject,
      datacontenttype: event.datacontenttype,
    }).toEqual({
      specversion: '1.0',
      id: `${id}-1-1`,
      source: `urn:pcp:client:${tenant.clientId}`,
      type: 'com.pcp.consent.added',
      subject: String(id),
      datacontenttype: 'application/json',
    });
    expect(event.data).toMatchObject({
      SubscriptionId: cloud.SubscriptionId,
      EventId: `${id}-1-1`,
      EventType: 'consent.added',
      ProfileId: id,
      Data: { ConsentType: 'Terms' },
    });
    expect(Date.parse(event.time!)).toBe(Date.parse(event.data!.OccurredAt as string));
    // Standard Webhooks over the exact body: webhook-id is the CloudEvent's id.
    expect(delivery.headers['webhook-id']).toBe(event.id);
    expect(
      new Webhook(cloud.Secret).verify(delivery.raw, delivery.headers as Record<string, string>),
    ).toEqual(JSON.parse(delivery.raw));

    // The default subscription: the same event as plain JSON, its data the CloudEvent's data.
    expect(plainDelivery.headers['content-type']).toBe('application/json');
    const plainBody = new Webhook(plain.Secret).verify(
      plainDelivery.raw,
      plainDelivery.headers as Record<string, string>,
    ) as Json;
    expect(plainBody).toEqual({ ...event.data, SubscriptionId: plain.SubscriptionId });
    expect(plainBody.specversion).toBeUndefined();
  });

  it('keeps the id and the format across retries and a dead letter redelivery', async () => {
    receiver.failing.add('retry');
    const sub = await subscribe({
      Url: receiver.url('retry'),
      Subscriptions: [{ Entity: 'StandardField', EventType: 'standardfield.firstname.updated' }],
      DeliveryFormat: 'CloudEvents',
    });
    const id = await createProfile({ CustomerName: { FirstName: 'Ann' } });
    await request(app.http)
      .post(`${v4()}/Profile/${id}`)
      .set('Authorization', auth)
      .send({ CustomerName: { FirstName: 'Bo' } })
      .expect(202);
    // The first attempt and its one retry fail: a dead letter, kept with its content type.
    const letters = await eventually(async () => {
      const res = await request(app.http)
        .get(`${v4()}/Events/Subscriptions/${sub.SubscriptionId}/DeadLetters`)
        .set('Authorization', auth);
      return res.body.Count >= 1 ? (res.body.DeadLetters as Json[]) : undefined;
    });
    expect(letters[0]).toMatchObject({
      ContentType: 'application/cloudevents+json; charset=utf-8',
      Body: { specversion: '1.0', type: 'com.pcp.standardfield.firstname.updated' },
    });
    receiver.failing.delete('retry');
    await request(app.http)
      .post(
        `${v4()}/Events/Subscriptions/${sub.SubscriptionId}/DeadLetters/${letters[0].EventId}/Redeliver`,
      )
      .set('Authorization', auth)
      .expect(202);
    const attempts = await eventually(async () =>
      receiver.to('retry').length >= 3 ? receiver.to('retry') : undefined,
    );
    const events = attempts.map(toCloudEvent);
    expect(new Set(events.map((one) => one.id))).toEqual(new Set([letters[0].EventId]));
    expect(attempts.map((one) => one.headers['webhook-id'])).toEqual(events.map((one) => one.id));
    for (const attempt of attempts) {
      expect(attempt.headers['content-type']).toBe('application/cloudevents+json; charset=utf-8');
      expect(
        new Webhook(sub.Secret).verify(attempt.raw, attempt.headers as Record<string, string>),
      ).toMatchObject({ id: letters[0].EventId });
    }
  });
});
