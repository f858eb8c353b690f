import {
  normaliseScope,
  type ProfileHistory,
  ProfileRules,
  type ProfileView,
  type StoredConsent,
} from '@app/profiles';
import {
  historyEntry,
  historyRecorder,
  historySummary as summary,
  profileAt,
  T1,
  T2,
} from '@app/profiles/testing';
import { consentTransitionWalk } from '../domain/consent-walk.fixtures';
import { CONSENT_PROFILE_RULES } from '../profile-rules/consent-profile-rules';
import { CONSENT_HISTORY, CONSENT_HISTORY_CATEGORY } from './consent-history';

/** The consent a consent entry holds. */
const consentOf = (entry: ProfileHistory) => entry.snapshot as StoredConsent;

const apply = historyRecorder(new ProfileRules([CONSENT_PROFILE_RULES]));

const CREATE_BODY = {
  CustomerType: 'Customer',
  Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
  ProfilePreferences: [{ ProgramId: 'P1', ChannelId: 'Email', FilterId: 'Weekly' }],
  Emails: [
    {
      EmailAddress: 'Ann@Example.com',
      EmailAddressType: 'Personal',
      EmailPreferences: [{ ProgramId: 'P1', ChannelId: 'Email', FilterId: 'F1' }],
      Consents: [{ ConsentType: 'Email', ConsentVersion: '1.0', ConsentStatus: 1 }],
    },
  ],
};

const created = () => apply(profileAt(undefined, 0), CREATE_BODY, 'create', 1, T1);

describe('consent history: what a write records', () => {
  it("records the consents of a create after the profile's own entries, of the profile then of each contact", () => {
    const { entries } = created();
    expect(summary(entries)).toEqual([
      ['standard', undefined, undefined, true],
      ['contact', 'Emails', undefined, true],
      ['consent', 'Consents', undefined, true],
      ['consent', 'Consents', 'Emails', true],
    ]);
    expect(entries.map((entry) => entry._id)).toEqual(entries.map((_, n) => `c1|7|1|${n}`));
    expect(entries[3].container).toEqual({
      list: 'Emails',
      fields: { EmailAddress: 'Ann@Example.com', EmailAddressType: 'Personal' },
    });
    expect(entries[2]).not.toHaveProperty('container');
    expect(entries[2].snapshot).toMatchObject({ ConsentType: 'Terms', ConsentStatus: 1 });
  });

  it('records only the consent a merge changed, in its contact element', () => {
    const { after } = created();
    const { entries } = apply(
      after,
      {
        Consents: [{ ConsentType: 'Terms', ConsentStatus: 1 }],
        Emails: [
          {
            EmailAddress: 'Ann@Example.com',
            Consents: [{ ConsentType: 'Email', ConsentStatus: 3 }],
          },
        ],
      },
      'merge',
      2,
      T2,
    );
    expect(summary(entries)).toEqual([['consent', 'Consents', 'Emails', true]]);
    expect(entries[0].snapshot).toMatchObject({ ConsentType: 'Email', ConsentStatus: 3 });
    expect(entries[0]._id).toBe('c1|7|2|0');
  });

  it('records the consents of a removed contact element as inactive, inside it', () => {
    const { after } = created();
    const body = JSON.parse(JSON.stringify(CREATE_BODY)) as Record<string, any>;
    delete body.Emails; // removed with its consent
    const { entries } = apply(after, body, 'overwrite', 2, T2);
    expect(summary(entries)).toEqual([
      ['contact', 'Emails', undefined, false],
      ['consent', 'Consents', 'Emails', false],
    ]);
    const consent = entries[1];
    expect(consentOf(consent).ConsentType).toBe('Email');
    expect(consentOf(consent).Edited).toMatchObject({ ModifiedDate: T2, ModifiedBy: 'bob' });
    expect(consent.container?.fields.EmailAddress).toBe('Ann@Example.com');
  });

  it('records each consent status change once, on the profile and on a contact element; a restatement records nothing', () => {
    const email = 'walk@example.com';
    const writes = consentTransitionWalk(email);
    let profile = profileAt(undefined, 0);
    const recorded: ProfileHistory[] = [];
    writes.forEach((body, index) => {
      const at = new Date(Date.parse(T1) + index * 1000).toISOString();
      const result = apply(profile, body, index ? 'merge' : 'create', index + 1, at);
      profile = result.after;
      recorded.push(...result.entries);
    });
    const consents = recorded.filter((entry) => entry.category === CONSENT_HISTORY_CATEGORY);
    const ofType = (type: string, inEmail = false) =>
      consents
        .filter((entry) => consentOf(entry).ConsentType === type && !!entry.container === inEmail)
        .map((entry) => consentOf(entry).ConsentStatus);
    expect(ofType('Terms')).toEqual([4, 2, 1, 3, 1]);
    expect(ofType('Mail')).toEqual([2, 1, 3, 1]);
    expect(ofType('Sms')).toEqual([1]);
    expect(ofType('Marketing')).toEqual([4, 1]);
    expect(ofType('Email', true)).toEqual([4, 2, 1, 3, 1]);
  });
});

const entry = (fields: Partial<ProfileHistory>) => historyEntry(CONSENT_HISTORY_CATEGORY, fields);

describe('CONSENT_HISTORY.compare', () => {
  const at = (seq: number, modifiedAt: string, snapshot: Record<string, unknown>, n = 0) =>
    entry({ seq, n, modifiedAt, snapshot });
  // The consent rule orders its own category (it must not fall back on the default).
  const compare = (a: ProfileHistory, b: ProfileHistory) => CONSENT_HISTORY.compare!(a, b);

  it('orders consents by type, then version (numeric-aware), then modified date', () => {
    const sorted = [
      at(1, T2, { ConsentType: 'Terms', ConsentVersion: '10.0' }),
      at(2, T2, { ConsentType: 'email', ConsentVersion: '1.0' }),
      at(3, T1, { ConsentType: 'Terms', ConsentVersion: '2.0' }),
      at(4, T1, { ConsentType: 'Email', ConsentVersion: '1.0' }),
    ]
      .sort(compare)
      .map((e) => e.seq);
    expect(sorted).toEqual([4, 2, 3, 1]);
  });

  it('orders the same consent by modified date, then write, then entry within it', () => {
    const terms = { ConsentType: 'Terms', ConsentVersion: '1.0' };
    const sorted = [at(3, T1, terms, 1), at(2, T2, terms), at(3, T1, terms, 0), at(1, T1, terms)]
      .sort(compare)
      .map((e) => e._id);
    expect(sorted).toEqual(['c1|7|1|0', 'c1|7|3|0', 'c1|7|3|1', 'c1|7|2|0']);
  });
});

describe('CONSENT_HISTORY.canSee', () => {
  const consent = (ConsentType: string) => entry({ snapshot: { ConsentType } as StoredConsent });

  it('applies the user group scope to consents by type', () => {
    const scoped: ProfileView = {
      implied: false,
      scope: normaliseScope({ consentTypes: ['Terms'], consents: 'read', preferences: 'read' }),
    };
    expect(CONSENT_HISTORY.canSee(scoped, consent('TERMS'))).toBe(true);
    expect(CONSENT_HISTORY.canSee(scoped, consent('Mail'))).toBe(false);
    expect(CONSENT_HISTORY.canSee({ implied: false }, consent('Mail'))).toBe(true);
  });

  it('shows none to a group without access to consents', () => {
    const none: ProfileView = {
      implied: false,
      scope: normaliseScope({ consents: 'none', preferences: 'read' }),
    };
    expect(CONSENT_HISTORY.canSee(none, consent('Terms'))).toBe(false);
  });
});

describe('CONSENT_HISTORY.toEntry', () => {
  const everything: ProfileView = { implied: true };

  it('wraps a contact consent in its element, by the fields that name it', () => {
    const part = CONSENT_HISTORY.toEntry(
      entry({
        list: 'Consents',
        container: {
          list: 'Addresses',
          fields: { AddressType: 'Home', Address1: '1 Main St', PostalCode: '62701' },
        },
        snapshot: { ConsentType: 'Mail', ConsentStatus: 3, IsActive: false, Key: 'mail' },
      }),
      everything,
    );
    expect(part).toEqual({
      Addresses: [
        {
          AddressType: 'Home',
          Address1: '1 Main St',
          PostalCode: '62701',
          Consents: [
            {
              ConsentType: 'Mail',
              ConsentStatus: 3,
              Expired: false,
              UpdatedVersionPending: false,
              IsActive: false,
            },
          ],
        },
      ],
    });
  });

  it("shows a profile's consent alone in its list, with its stamp", () => {
    const terms = {
      ConsentType: 'Terms',
      ConsentVersion: '2.0',
      ConsentStatus: 1,
      Expired: true,
      UpdatedVersionPending: true,
      Edited: { CreateDate: T1, CreatedBy: 'alice', ModifiedDate: T2, ModifiedBy: 'bob' },
    };
    const part = CONSENT_HISTORY.toEntry(entry({ list: 'Consents', snapshot: terms }), everything);
    // Every stored field, stamp included, and the entry's IsActive.
    expect(part).toEqual({ Consents: [{ ...terms, IsActive: true }] });
  });
});
