/*
 * Fake history rule modules for the specs of history and of reading a profile as of a time:
 * one category each, recording what the real rule modules (Consents', Preferences') record,
 * and a create body with an email whose preferences and consents they record.
 */
import { consentRule, preferenceRule } from '../domain/element-rules';
import { contactPreferences } from '../domain/profile-shape';
import type {
  HistoryChange,
  ProfileHistoryRule,
  ProfileRuleModule,
} from '../domain/profile-rules.port';

/** A rule module owning one history category, its entries as recorded. */
export function fakeHistoryModule(
  category: string,
  changes: ProfileHistoryRule['changes'],
  compare?: ProfileHistoryRule['compare'],
): ProfileRuleModule {
  return {
    name: `fake-${category}`,
    history: [
      {
        category,
        changes,
        canSee: () => true,
        toEntry: (entry) => entry.snapshot,
        ...(compare ? { compare } : {}),
      },
    ],
  };
}

/**
 * Records every preference of the profile and of its contact elements, whole (attributes and
 * associations part of it), in the list and contact element the profile names; with
 * `filterKeys`, a contact's preference entry carries `filter:<FilterId>` as its filter key.
 */
export function fakePreferenceHistory(
  category: string,
  { filterKeys = false }: { filterKeys?: boolean } = {},
): ProfileRuleModule {
  return fakeHistoryModule(category, (before, after, diff) => [
    ...diff
      .changedItems(before?.ProfilePreferences, after.ProfilePreferences, preferenceRule, {
        whole: true,
      })
      .map((snapshot): HistoryChange => ({ category, list: 'ProfilePreferences', snapshot })),
    ...diff.contacts.flatMap((contact) =>
      diff
        .changedItems(
          contactPreferences(contact.before),
          contactPreferences(contact.after),
          preferenceRule,
          { whole: true },
        )
        .map((snapshot): HistoryChange => ({
          category,
          list: contact.preferences,
          container: contact.container,
          ...(filterKeys ? { filterKey: `filter:${String(snapshot.FilterId)}` } : {}),
          snapshot,
        })),
    ),
  ]);
}

/** Records every changed consent of the profile and of its contact elements. */
export function fakeConsentHistory(category: string): ProfileRuleModule {
  return fakeHistoryModule(category, (before, after, diff) => [
    ...diff
      .changedItems(before?.Consents, after.Consents, consentRule)
      .map((snapshot): HistoryChange => ({ category, list: 'Consents', snapshot })),
    ...diff.contacts.flatMap((contact) =>
      diff
        .changedItems(contact.before?.Consents, contact.after?.Consents, consentRule)
        .map((snapshot): HistoryChange => ({
          category,
          list: 'Consents',
          container: contact.container,
          snapshot,
        })),
    ),
  ]);
}

/** A create with consents and preferences of the profile and of an email, and a phone. */
export const HISTORY_CREATE_BODY = {
  CustomerType: 'Customer',
  Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
  ProfilePreferences: [
    { ProgramId: 'P1', ChannelId: 'Email', FilterId: 'Weekly ', PreferenceType: 1 },
  ],
  Emails: [
    {
      EmailAddress: 'Ann@Example.com',
      EmailAddressType: 'Personal',
      EmailPreferences: [
        {
          ProgramId: 'P1',
          ChannelId: 'Email',
          FilterId: 'F1',
          PreferenceAttributes: [{ Key: 'Topic', Value: 'Sports' }],
          ConsentAssociations: [{ ConsentType: 'Email', ConsentVersion: '1.0' }],
        },
      ],
      Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
    },
  ],
  PhoneNumbers: [{ PhoneNumber: '+1 (555) 010-2030', PhoneType: 'Mobile' }],
};

/** HISTORY_CREATE_BODY with the profile's own fields too: a name, custom fields and a tag. */
export const OWN_FIELDS_CREATE_BODY = {
  ...HISTORY_CREATE_BODY,
  CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
  CustomFields: [
    { Name: 'Tier', Value: 'Gold' },
    { Name: 'c1', Value: 'x' },
  ],
  ProfileTags: [{ Name: 'vip' }],
};
