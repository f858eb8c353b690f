import type { ArgumentMetadata } from '@nestjs/common';
import { createApiValidationPipe } from '@app/shared';
import { EventSubscriptionBodyDto } from './event-subscription.dto';

/** The body as the global validation pipe checks it: the instance, or the 400's Message. */
async function checked(body: unknown): Promise<EventSubscriptionBodyDto | string> {
  const metadata: ArgumentMetadata = { type: 'body', metatype: EventSubscriptionBodyDto };
  try {
    return (await createApiValidationPipe().transform(body, metadata)) as EventSubscriptionBodyDto;
  } catch (error) {
    return (error as Error).message;
  }
}

const valid = {
  Name: 'CRM sync',
  Url: 'https://hooks.example.com/in',
  Subscriptions: [{ Entity: 'Profile', EventType: 'profile.created' }],
};

describe('EventSubscriptionBodyDto', () => {
  it('takes the smallest body and every field the notes name', async () => {
    expect(await checked(valid)).toBeInstanceOf(EventSubscriptionBodyDto);
    const full = {
      ...valid,
      Description: 'd',
      LocaleID: 'en-us',
      State: 'Active',
      IsActive: true,
      ExcludeData: true,
      DeliverPausedEvents: true,
      AlternateIdType: 'CRM',
      Subscriptions: [
        { Entity: 'Consent', EventType: '*', ConsentTypes: ['AllConsents'], Filters: ['12'] },
        { Entity: 'Contacts', EventType: 'contacts.email.updated', ContactTypes: ['Email'] },
      ],
    };
    expect(await checked(full)).toBeInstanceOf(EventSubscriptionBodyDto);
  });

  it.each([
    ['a blank Name', { ...valid, Name: '  ' }, 'Invalid Name (value "  "): must not be blank'],
    ['a Name over 100', { ...valid, Name: 'x'.repeat(101) }, 'Invalid Name (value "xxxxxxxx'],
    ['a Description over 1000', { ...valid, Description: 'x'.repeat(1001) }, 'Invalid Description'],
    ['a LocaleID over 20', { ...valid, LocaleID: 'x'.repeat(21) }, 'Invalid LocaleID'],
    ['a missing Url', { ...valid, Url: undefined }, 'Invalid Url (value missing)'],
    ['a Url over 2048', { ...valid, Url: 'x'.repeat(2049) }, 'Invalid Url'],
    ['no Subscriptions', { ...valid, Subscriptions: [] }, 'Invalid Subscriptions (value [])'],
    [
      '51 Subscriptions',
      { ...valid, Subscriptions: Array.from({ length: 51 }, () => valid.Subscriptions[0]) },
      'Invalid Subscriptions',
    ],
    [
      'an unknown Entity',
      { ...valid, Subscriptions: [{ Entity: 'Order', EventType: '*' }] },
      'Invalid Subscriptions[0].Entity (value "Order")',
    ],
    [
      'an unknown EventType',
      { ...valid, Subscriptions: [{ Entity: 'Profile', EventType: 'profile.exploded' }] },
      'Invalid Subscriptions[0].EventType (value "profile.exploded")',
    ],
    [
      'an unknown ContactTypes value',
      {
        ...valid,
        Subscriptions: [{ Entity: 'Contacts', EventType: '*', ContactTypes: ['Fax'] }],
      },
      'Invalid Subscriptions[0].ContactTypes (value ["Fax"])',
    ],
    [
      'an empty ConsentTypes list',
      { ...valid, Subscriptions: [{ Entity: 'Consent', EventType: '*', ConsentTypes: [] }] },
      'Invalid Subscriptions[0].ConsentTypes (value [])',
    ],
    ['an unknown State', { ...valid, State: 'Running' }, 'Invalid State (value "Running")'],
    ['a non-boolean IsActive', { ...valid, IsActive: 'no' }, 'Invalid IsActive (value "no")'],
    ['a Secret in the body', { ...valid, Secret: 'whsec_x' }, 'Unknown field Secret'],
    [
      'an unknown field of a selection',
      { ...valid, Subscriptions: [{ ...valid.Subscriptions[0], Extra: 1 }] },
      'Unknown field Subscriptions[0].Extra',
    ],
  ])('refuses %s', async (_label, body, message) => {
    const result = await checked(body);
    expect(typeof result).toBe('string');
    expect(result).toContain(message);
  });
});
