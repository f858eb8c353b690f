import { CONSENT_PROFILE_RULES } from '@app/consents';
import { PREFERENCE_PROFILE_RULES } from '@app/preferences';
import { applyProfileWrite, profileEvents, ProfileRules } from '@app/profiles';
import { historyWrite, type Profile, profileAt, T1, T2 } from '@app/profiles/testing';

/*
 * The events of applied writes as the apps compose the rules (consents, preferences): what
 * each write kind produces, with Data and PreviousData, in a deterministic order and ids.
 */
const rules = new ProfileRules([CONSENT_PROFILE_RULES, PREFERENCE_PROFILE_RULES]);

const CREATE_BODY = {
  CustomerType: 'Customer',
  CustomerName: { FirstName: 'Ann', LastName: 'Lee' },
  AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'A-1' }],
  Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
  ProfilePreferences: [
    { ProgramId: 'P1', ChannelId: 'Email', FilterId: 'Weekly', PreferenceType: 1 },
  ],
  Emails: [
    {
      EmailAddress: 'ann@example.com',
      EmailAddressType: 'Personal',
      Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
    },
  ],
  CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
};

/** Applies `body` to `before` as write `seq` (the worker's way) and returns both sides. */
function write(
  before: Profile,
  body: Record<string, unknown>,
  mode: 'create' | 'merge' | 'overwrite',
  seq: number,
  at = T2,
) {
  const accepted = historyWrite(seq, mode, at);
  const data = applyProfileWrite(
    mode === 'create' ? undefined : before.data,
    body,
    mode === 'create' ? 'overwrite' : mode,
    { at, userId: accepted.userId },
  );
  const after = JSON.parse(JSON.stringify(profileAt(data, seq))) as Profile;
  return { after, events: profileEvents(before, after, accepted, rules) };
}

const created = () => write(profileAt(undefined, 0), CREATE_BODY, 'create', 1, T1);

/**
 * The events of a confirmation write (`kind`) that changed the created profile as `confirm`
 * does, and those of a merge that made the same change.
 */
function confirmationEvents(
  kind: 'consent-confirm' | 'preference-confirm',
  confirm: (data: NonNullable<Profile['data']>) => void,
) {
  const { after: before } = created();
  const data = JSON.parse(JSON.stringify(before.data)) as NonNullable<Profile['data']>;
  confirm(data);
  const after = JSON.parse(JSON.stringify(profileAt(data, 2))) as Profile;
  return {
    events: profileEvents(before, after, historyWrite(2, kind, T2), rules),
    merged: profileEvents(before, after, historyWrite(2, 'merge', T2), rules),
  };
}

describe('profileEvents', () => {
  it('a create: profile.created with the whole profile, and the added consents, preferences and alternate ids', () => {
    const { events } = created();
    expect(events.map((event) => event.type)).toEqual([
      'profile.created',
      'consent.added',
      'consent.elementassociation.created',
      'preference.added',
      'contacts.alternateid.added',
    ]);
    expect(events.map((event) => event.id)).toEqual(events.map((_, n) => `c1|7|1|${n}`));
    const [profile, consent, elementConsent, preference] = events;
    expect(profile.data).toMatchObject({
      CustomerType: 'Customer',
      CustomFields: [{ Name: 'Tier', Value: 'Gold' }],
    });
    expect(profile.previousData).toBeUndefined();
    expect(consent).toMatchObject({
      consentType: 'Terms',
      data: { ConsentType: 'Terms', ConsentStatus: 1 },
    });
    expect(elementConsent).toMatchObject({
      consentType: 'Email',
      contactType: 'Email',
      container: { list: 'Emails', fields: { EmailAddress: 'ann@example.com' } },
    });
    expect(preference).toMatchObject({ filterId: 'Weekly', data: { ProgramId: 'P1' } });
    expect(events.every((event) => event.at === T1 && event.seq === 1)).toBe(true);
  });

  it('a merge: profile.updated with PreviousData, then one event per changed item with its previous state', () => {
    const { after } = created();
    const { events } = write(
      after,
      {
        CustomerName: { FirstName: 'Anne', LastName: 'Lee' },
        Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 2 }],
        Emails: [
          { EmailAddress: 'ann@example.com', EmailAddressType: 'Personal', IsDefault: true },
        ],
        CustomFields: [{ Name: 'Tier', Value: 'Silver' }],
      },
      'merge',
      2,
    );
    expect(events.map((event) => event.type)).toEqual([
      'profile.updated',
      'standardfield.firstname.updated',
      'customfield.updated',
      'contacts.email.updated',
      'consent.updated',
    ]);
    const byType = Object.fromEntries(events.map((event) => [event.type, event]));
    expect(byType['profile.updated'].previousData).toMatchObject({
      CustomerName: { FirstName: 'Ann' },
    });
    expect(byType['profile.updated'].data).toMatchObject({ CustomerName: { FirstName: 'Anne' } });
    expect(byType['standardfield.firstname.updated']).toMatchObject({
      data: { FirstName: 'Anne' },
      previousData: { FirstName: 'Ann' },
    });
    expect(byType['customfield.updated']).toMatchObject({
      customField: 'Tier',
      data: { Value: 'Silver' },
      previousData: { Value: 'Gold' },
    });
    expect(byType['consent.updated']).toMatchObject({
      data: { ConsentStatus: 2 },
      previousData: { ConsentStatus: 1 },
    });
    expect(byType['contacts.email.updated'].contactType).toBe('Email');
  });

  it('deactivations: consent.deactivated, the alternate id updated, profile.deactivated', () => {
    const { after } = created();
    const { events } = write(
      after,
      {
        IsActive: false,
        Consents: [
          { ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1, IsActive: false },
        ],
        AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'A-1', IsActive: false }],
      },
      'merge',
      2,
    );
    expect(events.map((event) => event.type)).toEqual([
      'profile.updated',
      'profile.deactivated',
      'consent.deactivated',
      'contacts.alternateid.updated',
    ]);
    expect(events[3]).toMatchObject({
      data: { AlternateId: 'A-1', IsActive: false },
      previousData: { IsActive: true },
    });
  });

  it('an overwrite is profile.replaced; a write that changes nothing has no event', () => {
    const { after } = created();
    const { ProfilePreferences: _dropped, ...withoutPreferences } = CREATE_BODY;
    const replaced = write(
      after,
      { ...withoutPreferences, CustomerType: 'Prospect' },
      'overwrite',
      2,
    );
    expect(replaced.events.map((event) => event.type)).toEqual([
      'profile.replaced',
      'contacts.customertype.updated',
      'preference.archived',
    ]);
    expect(replaced.events[2]).toMatchObject({
      filterId: 'Weekly',
      data: { IsActive: false },
      previousData: { IsActive: true },
    });
    expect(write(after, { CustomerType: 'Customer' }, 'merge', 2).events).toEqual([]);
  });

  it('a consent-confirm write: the consent updated, then consent.confirmed with its evidence', () => {
    const { events, merged } = confirmationEvents('consent-confirm', (data) => {
      data.Emails[0].Consents[0].Confirmation = {
        Method: 'DoubleOptIn',
        ConfirmedDate: T2,
        LinkId: 'link-1',
        IpAddress: '127.0.0.1',
      };
    });
    expect(events.map((event) => event.type)).toEqual([
      'profile.updated',
      'consent.elementassociation.updated',
      'consent.confirmed',
    ]);
    expect(events[2]).toMatchObject({
      consentType: 'Email',
      contactType: 'Email',
      data: { ConsentType: 'Email', Confirmation: { LinkId: 'link-1', ConfirmedDate: T2 } },
    });
    // The same change by another write (a merge carrying the consent over) confirms nothing.
    expect(merged.map((event) => event.type)).not.toContain('consent.confirmed');
  });

  it('a preference-confirm write: the preference updated, then preference.confirmed with its evidence', () => {
    const { events, merged } = confirmationEvents('preference-confirm', (data) => {
      data.ProfilePreferences[0].Confirmation = {
        Method: 'DoubleOptIn',
        ConfirmedDate: T2,
        LinkId: 'link-2',
      };
    });
    expect(events.map((event) => event.type)).toEqual([
      'profile.updated',
      'preference.updated',
      'preference.confirmed',
    ]);
    expect(events[2]).toMatchObject({
      filterId: 'Weekly',
      data: { FilterId: 'Weekly', Confirmation: { LinkId: 'link-2', ConfirmedDate: T2 } },
    });
    // The same change by another write (a merge carrying the preference over) confirms nothing.
    expect(merged.map((event) => event.type)).not.toContain('preference.confirmed');
  });

  it('a delete: profile.deleted naming only the profile id; the same write gives the same events', () => {
    const { after } = created();
    const deleted = { ...after, state: 'deleted' as const, data: undefined, appliedSeq: 2 };
    const accepted = historyWrite(2, 'delete', T2);
    const events = profileEvents(after, deleted, accepted, rules);
    expect(events).toEqual([
      expect.objectContaining({ id: 'c1|7|2|0', type: 'profile.deleted', data: { ProfileId: 7 } }),
    ]);
    expect(profileEvents(after, deleted, accepted, rules)).toEqual(events);
  });
});
