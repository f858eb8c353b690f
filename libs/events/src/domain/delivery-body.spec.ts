import type { ProfileEvent } from '@app/profiles';
import { Webhook } from 'standardwebhooks';
import { deliveryBody, signedHeaders } from './delivery-body';
import { newSecret } from './event-subscription';

const event: ProfileEvent = {
  id: 'c1|7|2|0',
  type: 'profile.updated',
  profileId: 7,
  seq: 2,
  n: 0,
  at: '2026-11-26T10:00:00.000Z',
  userId: 'u1',
  data: { ProfileId: 7, CustomerType: 'Customer' },
  previousData: { ProfileId: 7, CustomerType: 'Prospect' },
};
const subscription = { subscriptionId: 's1', excludeData: false, alternateIdType: null };

describe('deliveryBody', () => {
  it('the event as retrieved, with the subscription', () => {
    expect(JSON.parse(deliveryBody(subscription, event, []))).toEqual({
      SubscriptionId: 's1',
      EventId: '7-2-0',
      EventType: 'profile.updated',
      OccurredAt: '2026-11-26T10:00:00.000Z',
      ProfileId: 7,
      Sequence: 2,
      UserId: 'u1',
      Data: { ProfileId: 7, CustomerType: 'Customer' },
      PreviousData: { ProfileId: 7, CustomerType: 'Prospect' },
    });
  });

  it('ExcludeData leaves Data and PreviousData out', () => {
    const body = JSON.parse(deliveryBody({ ...subscription, excludeData: true }, event, []));
    expect(body.Data).toBeUndefined();
    expect(body.PreviousData).toBeUndefined();
    expect(body.EventId).toBe('7-2-0');
  });

  it('AlternateIdType names the profile by that alternate id instead of ProfileId', () => {
    const body = JSON.parse(
      deliveryBody({ ...subscription, alternateIdType: 'crm' }, event, [
        { AlternateIdType: 'CRM', AlternateId: 'A-1' },
      ]),
    );
    expect(body).toMatchObject({ AlternateIdType: 'CRM', AlternateId: 'A-1' });
    expect(body.ProfileId).toBeUndefined();
    expect(body.Data).toEqual({ CustomerType: 'Customer' });
    // A profile without one keeps its ProfileId.
    expect(
      JSON.parse(deliveryBody({ ...subscription, alternateIdType: 'Loyalty' }, event, []))
        .ProfileId,
    ).toBe(7);
  });
});

describe('signedHeaders', () => {
  const now = new Date();
  it('verifies with the Standard Webhooks library', () => {
    const secret = newSecret();
    const body = deliveryBody(subscription, event, []);
    const headers = signedHeaders(
      { secret, previousSecret: null, previousSecretUntil: null },
      '7-2-0',
      body,
      now,
    );
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ EventId: '7-2-0' });
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
  });

  it("signs with both secrets during a rotation's overlap, and only the new one after it", () => {
    const [current, previous] = [newSecret(), newSecret()];
    const body = '{"a":1}';
    const during = signedHeaders(
      {
        secret: current,
        previousSecret: previous,
        previousSecretUntil: new Date(now.getTime() + 1000),
      },
      'm1',
      body,
      now,
    );
    expect(during['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(body, during)).toEqual({ a: 1 });
    expect(new Webhook(current).verify(body, during)).toEqual({ a: 1 });
    const after = signedHeaders(
      {
        secret: current,
        previousSecret: previous,
        previousSecretUntil: new Date(now.getTime() - 1),
      },
      'm1',
      body,
      now,
    );
    expect(() => new Webhook(previous).verify(body, after)).toThrow();
  });
});
