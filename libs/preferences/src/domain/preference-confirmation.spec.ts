import { confirmationIdOf, type ProfileData, type StoredPreference } from '@app/profiles';
import { partialData } from '@app/profiles/testing';
import {
  applyOptInConfirmation,
  expireOptInConfirmation,
  holdOptIn,
} from './preference-confirmation';

const AT = '2026-12-02T10:00:00.000Z';
const LATER = '2026-12-02T11:00:00.000Z';
const ctx = { at: LATER, userId: 'person:double-opt-in' };
const preference = (fields: Partial<StoredPreference> = {}): StoredPreference => ({
  ProgramId: '7',
  ChannelId: 'Email',
  FilterId: '12',
  PreferenceStatus: 'Active',
  IsActive: true,
  ...fields,
});

describe('holding an opt-in for confirmation (double opt-in of programs)', () => {
  it('holds a new opt-in: no PreferenceType, no expiry, a pending mark with the id of the write', () => {
    const held = holdOptIn(
      undefined,
      preference({ PreferenceType: 1, ExpirationDate: '2027-01-01T00:00:00.000Z' }),
      true,
      'pat@example.com',
      AT,
    );
    expect(held.PreferenceType).toBeUndefined();
    expect(held.ExpirationDate).toBeUndefined();
    expect(held.PreferenceStatus).toBeUndefined();
    expect(held.PendingConfirmation).toEqual({
      Id: confirmationIdOf(AT, 'pat@example.com', 'preference|7|email|12'),
      RequestedDate: AT,
    });
    // A retried write makes the same id.
    expect(
      holdOptIn(undefined, preference({ PreferenceType: 1 }), true, 'pat@example.com', AT)
        .PendingConfirmation!.Id,
    ).toBe(held.PendingConfirmation!.Id);
  });

  it('keeps a stored opt-out as it was until the opt-in is confirmed', () => {
    const stored = preference({ PreferenceType: 2, ExpirationDate: '2027-01-01T00:00:00.000Z' });
    const held = holdOptIn(stored, preference({ PreferenceType: 1 }), true, 'pat@example.com', AT);
    expect(held.PreferenceType).toBe(2);
    expect(held.ExpirationDate).toBe(stored.ExpirationDate);
    expect(held.PendingConfirmation?.RequestedDate).toBe(AT);
  });

  it('keeps the pending confirmation when the opt-in is restated (no second request)', () => {
    const pending = { Id: 'first', RequestedDate: AT };
    const stored = preference({ PendingConfirmation: pending });
    const held = holdOptIn(
      stored,
      preference({ PreferenceType: 1 }),
      true,
      'pat@example.com',
      LATER,
    );
    expect(held.PendingConfirmation).toEqual(pending);
    expect(held.PreferenceType).toBeUndefined();
  });

  it('cancels a pending confirmation on an opt-out or a deactivation', () => {
    const stored = preference({ PendingConfirmation: { Id: 'first', RequestedDate: AT } });
    const optOut = holdOptIn(
      stored,
      preference({ PreferenceType: 2 }),
      true,
      'pat@example.com',
      LATER,
    );
    expect(optOut.PreferenceType).toBe(2);
    expect(optOut.PendingConfirmation).toBeUndefined();
    const archived = holdOptIn(
      stored,
      preference({ PreferenceType: 1, IsActive: false }),
      true,
      'pat@example.com',
      LATER,
    );
    expect(archived.PendingConfirmation).toBeUndefined();
  });

  it('applies an opt-in at once on a filter without the setting, and a confirmed one stays', () => {
    const plain = holdOptIn(
      undefined,
      preference({ PreferenceType: 1 }),
      false,
      'pat@example.com',
      AT,
    );
    expect(plain.PreferenceType).toBe(1);
    expect(plain.PendingConfirmation).toBeUndefined();
    const stored = preference({
      PreferenceType: 1,
      Confirmation: { Method: 'DoubleOptIn', ConfirmedDate: AT },
    });
    const again = holdOptIn(
      stored,
      preference({ PreferenceType: 1 }),
      true,
      'pat@example.com',
      LATER,
    );
    expect(again.PreferenceType).toBe(1);
    expect(again.PendingConfirmation).toBeUndefined();
    expect(again.Confirmation).toEqual(stored.Confirmation);
  });

  it('ignores a PendingConfirmation or Confirmation a writer sends', () => {
    const written = holdOptIn(
      undefined,
      preference({
        PreferenceType: 1,
        PendingConfirmation: { Id: 'forged', RequestedDate: AT },
        Confirmation: { Method: 'DoubleOptIn', ConfirmedDate: AT },
      }),
      false,
      'pat@example.com',
      AT,
    );
    expect(written.PendingConfirmation).toBeUndefined();
    expect(written.Confirmation).toBeUndefined();
  });
});

describe('the confirm and expiry writes of an opt-in', () => {
  const data = (fields: Partial<StoredPreference>): ProfileData =>
    partialData({
      Emails: [
        {
          EmailAddress: 'Pat@example.com',
          IsActive: true,
          Consents: [],
          EmailPreferences: [preference(fields)],
        },
      ],
    });
  const target = {
    EmailAddress: 'pat@example.com',
    Preference: { ProgramId: '7', ChannelId: 'Email', FilterId: '12' },
    ConfirmationId: 'first',
  };
  const evidence = { Method: 'DoubleOptIn', ConfirmedDate: LATER, LinkId: 'first' };

  it('confirm: the opt-in applies with its evidence, once', () => {
    const pending = data({ PendingConfirmation: { Id: 'first', RequestedDate: AT } });
    const confirmed = applyOptInConfirmation(
      pending,
      { ...target, Evidence: evidence },
      () => '2027-02-01T00:00:00.000Z',
      ctx,
    )!;
    const [applied] = confirmed.Emails[0].EmailPreferences;
    expect(applied).toMatchObject({
      PreferenceType: 1,
      PreferenceStatus: 'Active',
      ExpirationDate: '2027-02-01T00:00:00.000Z',
      Confirmation: evidence,
    });
    expect(applied.PendingConfirmation).toBeUndefined();
    expect(
      applyOptInConfirmation(confirmed, { ...target, Evidence: evidence }, () => undefined, ctx),
    ).toBeUndefined();
  });

  it('confirm or expire of another confirmation changes nothing', () => {
    const pending = data({ PendingConfirmation: { Id: 'second', RequestedDate: AT } });
    expect(
      applyOptInConfirmation(pending, { ...target, Evidence: evidence }, () => undefined, ctx),
    ).toBeUndefined();
    expect(expireOptInConfirmation(pending, target, ctx)).toBeUndefined();
  });

  it('expire: the mark cleared, the preference as it was', () => {
    const pending = data({
      PreferenceType: 2,
      PendingConfirmation: { Id: 'first', RequestedDate: AT },
    });
    const [expired] = expireOptInConfirmation(pending, target, ctx)!.Emails[0].EmailPreferences;
    expect(expired.PreferenceType).toBe(2);
    expect(expired.PendingConfirmation).toBeUndefined();
  });
});
