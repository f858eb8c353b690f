import type { ProfileEvent } from '@app/profiles';
import { type CloudEvent, HTTP } from 'cloudevents';
import { Webhook } from 'standardwebhooks';
import { type DeliveryPayload, signedHeaders } from './delivery-body';
import { deliveryMessage } from './delivery-message';
import { newSecret } from './event-subscription';

const event: ProfileEvent = {
  id: 'c1|7|2|0',
  type: 'consent.updated',
  profileId: 7,
  seq: 2,
  n: 0,
  at: '2026-11-26T10:00:00.000Z',
  userId: 'u1',
  data: { ConsentType: 'Terms', ConsentStatus: 3 },
  previousData: { ConsentType: 'Terms', ConsentStatus: 1 },
};
const subscription = {
  subscriptionId: 's1',
  excludeData: false,
  alternateIdType: null,
  deliveryFormat: 'Standard' as const,
};

describe('deliveryMessage', () => {
  it('Standard (and a subscription stored before the field): the event as JSON', () => {
    for (const deliveryFormat of ['Standard', undefined] as const) {
      const message = deliveryMessage('acme', { ...subscription, deliveryFormat }, event, []);
      expect(message.contentType).toBe('application/json');
      expect(JSON.parse(message.body)).toMatchObject({ EventId: '7-2-0', SubscriptionId: 's1' });
    }
  });

  it('CloudEvents: a structured-mode event the official SDK reads, signed as Standard Webhooks', () => {
    const secret = newSecret();
    const message = deliveryMessage(
      'acme',
      { ...subscription, deliveryFormat: 'CloudEvents' },
      event,
      [],
    );
    expect(message.contentType).toBe('application/cloudevents+json; charset=utf-8');
    const headers = signedHeaders(
      { secret, previousSecret: null, previousSecretUntil: null },
      '7-2-0',
      message.body,
      new Date(),
      message.contentType,
    );
    expect(headers['content-type']).toBe(message.contentType);
    const received = HTTP.toEvent<DeliveryPayload>({ headers, body: message.body });
    const cloud = (Array.isArray(received) ? received[0] : received) as CloudEvent<DeliveryPayload>;
    expect(cloud.validate()).toBe(true);
    expect({
      specversion: cloud.specversion,
      id: cloud.id,
      source: cloud.source,
      type: cloud.type,
      subject: cloud.subject,
      time: cloud.time,
      datacontenttype: cloud.datacontenttype,
    }).toEqual({
      specversion: '1.0',
      id: '7-2-0',
      source: 'urn:pcp:client:acme',
      type: 'com.pcp.consent.updated',
      subject: '7',
      time: '2026-11-26T10:00:00.000Z',
      datacontenttype: 'application/json',
    });
    expect(cloud.data).toEqual(JSON.parse(deliveryMessage('acme', subscription, event, []).body));
    expect(new Webhook(secret).verify(message.body, headers)).toEqual(JSON.parse(message.body));
  });

  it('CloudEvents with AlternateIdType: the subject is the alternate id data names the profile by', () => {
    const message = deliveryMessage(
      'acme',
      { ...subscription, deliveryFormat: 'CloudEvents', alternateIdType: 'CRM' },
      event,
      [{ AlternateIdType: 'CRM', AlternateId: 'A-1' }],
    );
    expect(JSON.parse(message.body)).toMatchObject({
      subject: 'A-1',
      data: { AlternateIdType: 'CRM', AlternateId: 'A-1' },
    });
  });
});
