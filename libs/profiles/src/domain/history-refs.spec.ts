import { partialData } from '../testing';
import type { HistorySnapshot, ProfileHistory } from './profile-history.schema';
import {
  contactRefKey,
  itemRefKey,
  parseHistoryRefs,
  PROFILE_REF_KEY,
  withHistoryRefs,
} from './history-refs';

const email = { EmailAddress: 'Pat@Example.com', EmailAddressType: 'Personal' };
const preference = { ProgramId: '7', ChannelId: 'Email', FilterId: '12' };
const consent = { ConsentType: 'Marketing', ConsentStatus: 1 };
const data = partialData({
  IsActive: true,
  Consents: [consent],
  ProfilePreferences: [],
  Emails: [{ ...email, EmailPreferences: [preference], Consents: [consent] }],
});

const entry = (n: number, fields: Partial<ProfileHistory>): ProfileHistory =>
  ({
    _id: `c|5|2|${n}`,
    clientId: 'c',
    profileId: 5,
    seq: 2,
    n,
    modifiedAt: '2026-01-01T00:00:00.000Z',
    snapshot: {},
    category: 'standard',
    ...fields,
  }) as ProfileHistory;

describe('history references', () => {
  const element = data.Emails[0];
  const container = { list: 'Emails' as const, fields: email };

  it('points each item a write changed at its entry', () => {
    const refs = parseHistoryRefs(
      withHistoryRefs(undefined, data, [
        entry(0, { category: 'standard', snapshot: { IsActive: true } }),
        entry(1, {
          category: 'contact',
          list: 'Emails',
          snapshot: { ...email } as HistorySnapshot,
        }),
        entry(2, {
          category: 'preference',
          list: 'EmailPreferences',
          container,
          snapshot: preference as HistorySnapshot,
        }),
        entry(3, {
          category: 'consent',
          list: 'Consents',
          container,
          snapshot: consent as HistorySnapshot,
        }),
        entry(4, { category: 'consent', list: 'Consents', snapshot: consent as HistorySnapshot }),
      ]),
    );
    expect(refs).toEqual({
      [PROFILE_REF_KEY]: 'c|5|2|0',
      [contactRefKey('Emails', element)]: 'c|5|2|1',
      [itemRefKey('EmailPreferences', preference, { list: 'Emails', element })]: 'c|5|2|2',
      [itemRefKey('Consents', consent, { list: 'Emails', element })]: 'c|5|2|3',
      [itemRefKey('Consents', consent)]: 'c|5|2|4',
    });
  });

  it('keeps earlier references and drops those of items the data no longer holds', () => {
    const before = JSON.stringify({
      [PROFILE_REF_KEY]: 'c|5|1|0',
      [itemRefKey('ProfilePreferences', preference)]: 'c|5|1|1',
    });
    expect(parseHistoryRefs(withHistoryRefs(before, data, []))).toEqual({
      [PROFILE_REF_KEY]: 'c|5|1|0',
    });
    expect(withHistoryRefs(before, undefined, [])).toBeUndefined();
  });

  it('reads nothing from missing or broken text', () => {
    expect(parseHistoryRefs(undefined)).toEqual({});
    expect(parseHistoryRefs('{broken')).toEqual({});
  });
});
