import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { configureTestTenant, type TestPrograms } from '../harness/configuration';
import { createTestTenant, type TestTenant } from '../harness/session';
import { eventually, startTestApp, type TestApp } from '../harness/test-app';

/** Subscriptions a client may hold in these suites (EVENTS_MAX_SUBSCRIPTIONS). */
export const LIMIT = 5;
/** EVENTS_HANDSHAKE_TIMEOUT_MS of these suites: the slow endpoints below answer within it. */
export const HANDSHAKE_TIMEOUT_MS = 1500;

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
export async function startReceiver() {
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

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export interface Subscription {
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

/** An event-subscriptions suite's app, its tenants and the handshake receiver. */
interface SubscriptionState {
  app: TestApp;
  tenant: TestTenant;
  /** A second tenant, for the tests of another client's subscriptions. */
  other: TestTenant;
  auth: string;
  programs: TestPrograms;
  receiver: Receiver;
}

/** A suite's state and the requests its tests make. */
export interface SubscriptionSuite extends SubscriptionState, SubscriptionRequests {}

type SubscriptionRequests = ReturnType<typeof subscriptionRequests>;

/**
 * Registers the set-up of a suite of event subscriptions (docs/events.md, "Subscriptions"):
 * an app with one worker (private targets allowed, LIMIT subscriptions, short handshake
 * retries), a configured tenant, another tenant and a local receiver of handshakes. The
 * fields are set once the suite's beforeAll has run.
 */
export function useSubscriptionSuite(): SubscriptionSuite {
  const suite = {} as SubscriptionSuite;
  beforeAll(async () => {
    suite.app = await startTestApp({
      workers: 1,
      env: {
        EVENTS_ALLOW_PRIVATE_TARGETS: 'true',
        EVENTS_MAX_SUBSCRIPTIONS: String(LIMIT),
        EVENTS_HANDSHAKE_RETRY_DELAYS_MS: '50,50,50',
        EVENTS_HANDSHAKE_TIMEOUT_MS: String(HANDSHAKE_TIMEOUT_MS),
      },
    });
    suite.tenant = await createTestTenant(suite.app);
    suite.other = await createTestTenant(suite.app);
    suite.auth = await suite.tenant.bearer();
    ({ programs: suite.programs } = await configureTestTenant(suite.app, suite.tenant));
    suite.receiver = await startReceiver();
  });

  afterAll(async () => {
    await suite.receiver?.close();
    await suite.app?.close();
  });
  return Object.assign(suite, subscriptionRequests(suite));
}

/** The requests of the suite's tests, as the tenant's administrator unless told. */
function subscriptionRequests(suite: SubscriptionState) {
  let n = 0;
  const base = (clientId = suite.tenant.clientId) =>
    `/Profiles/v4/${clientId}/Events/Subscriptions`;
  /** A path of the receiver no other subscription uses. */
  const unique = (mode: string) => suite.receiver.url(`/${mode}/${n++}`);

  const body = (url: string, extra: object = {}) => ({
    Name: 'CRM sync',
    Url: url,
    Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
    ...extra,
  });
  const create = (payload: object, authorization = suite.auth, clientId = suite.tenant.clientId) =>
    request(suite.app.http).post(base(clientId)).set('Authorization', authorization).send(payload);
  const get = (id: string, authorization = suite.auth, clientId = suite.tenant.clientId) =>
    request(suite.app.http)
      .get(`${base(clientId)}/${id}`)
      .set('Authorization', authorization);
  const put = (
    id: string,
    payload: object,
    authorization = suite.auth,
    clientId = suite.tenant.clientId,
  ) =>
    request(suite.app.http)
      .put(`${base(clientId)}/${id}`)
      .set('Authorization', authorization)
      .send(payload);
  const remove = (id: string, authorization = suite.auth, clientId = suite.tenant.clientId) =>
    request(suite.app.http)
      .delete(`${base(clientId)}/${id}`)
      .set('Authorization', authorization);
  const list = async (authorization = suite.auth, clientId = suite.tenant.clientId) => {
    const res = await request(suite.app.http)
      .get(base(clientId))
      .set('Authorization', authorization);
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
    (await suite.app.api
      .get<Connection>(getConnectionToken())
      .collection('event_subscriptions')
      .findOne({ _id: suite.tenant.clientId as never })) as {
      subscriptions: {
        subscriptionId: string;
        secret: string;
        previousSecret: string | null;
        previousSecretUntil: Date | null;
      }[];
    } | null;
  return { base, unique, body, create, get, put, remove, list, created, settled, stored };
}
