import request from 'supertest';
import { eventually } from '../harness/test-app';
import {
  HANDSHAKE_TIMEOUT_MS,
  type Subscription,
  useSubscriptionSuite,
} from './subscription-helpers';

/**
 * The handshake of event subscriptions (docs/events.md, "Subscriptions"), against the real
 * engine, Redis and one worker and a local receiver: a failed handshake and its reason, a
 * timeout, the handshake run again on Validate, and an old answer after a new Url.
 */
describe('Event subscriptions: handshakes', () => {
  const suite = useSubscriptionSuite();
  const { base, unique, body, get, put, remove, created, settled } = suite;

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
    const sent = suite.receiver.received.filter((r) => r.path === new URL(wrong.Url).pathname);
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
    suite.receiver.state.toggleOk = true;
    const res = await request(suite.app.http)
      .post(`${base()}/${sub.SubscriptionId}/Validate`)
      .set('Authorization', suite.auth);
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(
      `/Profiles/v4/${suite.tenant.clientId}/Events/Subscriptions/${sub.SubscriptionId}`,
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
      suite.receiver.received.some((r) => r.path === new URL(slow.Url).pathname) ? true : undefined,
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
});
