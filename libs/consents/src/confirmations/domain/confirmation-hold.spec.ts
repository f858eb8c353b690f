import { ConsentStatus } from '@app/config';
import { confirmationIdOf, type ProfileData, type StoredConsent } from '@app/profiles';
import { partialData } from '@app/profiles/testing';
import {
  applyConfirmation,
  expirePendingConfirmation,
  holdForConfirmation,
  type ConsentConfirmWrite,
} from './confirmation-hold';

const AT = '2026-12-02T10:00:00.000Z';
const REQUIRED = { RequiresConfirmation: true };
const consent = (fields: Partial<StoredConsent> = {}): StoredConsent => ({
  ConsentType: 'News',
  IsActive: true,
  Edited: { CreateDate: AT, CreatedBy: 'u', ModifiedDate: AT, ModifiedBy: 'u' },
  ...fields,
});

describe('holdForConfirmation', () => {
  it('holds a new grant as NotSet with a pending mark derived from the write', () => {
    const held = holdForConfirmation(
      undefined,
      consent({ ConsentStatus: ConsentStatus.Granted, ConsentDate: AT, ConsentVersion: '1.0' }),
      REQUIRED,
      'pat@example.com',
      AT,
    );
    expect(held.ConsentStatus).toBe(ConsentStatus.NotSet);
    expect(held.ConsentDate).toBeUndefined();
    expect(held.PendingConfirmation).toEqual({
      Id: confirmationIdOf(AT, 'pat@example.com', 'News'),
      RequestedDate: AT,
      ConsentVersion: '1.0',
    });
    // The same write retried: the same id.
    expect(confirmationIdOf(AT, 'pat@example.com', 'news ')).toBe(held.PendingConfirmation!.Id);
  });

  it('keeps a stored status while the grant waits, and does not start a second confirmation', () => {
    const stored = consent({
      ConsentStatus: ConsentStatus.Revoked,
      ConsentDate: '2026-01-01T00:00:00.000Z',
      PendingConfirmation: { Id: 'first', RequestedDate: '2026-12-01T00:00:00.000Z' },
    });
    const held = holdForConfirmation(
      stored,
      consent({ ConsentStatus: ConsentStatus.Granted }),
      REQUIRED,
      'pat@example.com',
      AT,
    );
    expect(held.ConsentStatus).toBe(ConsentStatus.Revoked);
    expect(held.ConsentDate).toBe('2026-01-01T00:00:00.000Z');
    expect(held.PendingConfirmation?.Id).toBe('first');
  });

  it('lets a grant through for a type without confirmation, and a writer cannot set the marks', () => {
    const written = consent({
      ConsentStatus: ConsentStatus.Granted,
      PendingConfirmation: { Id: 'forged', RequestedDate: AT },
      Confirmation: { Method: 'DoubleOptIn', ConfirmedDate: AT, LinkId: 'forged' },
    });
    const settled = holdForConfirmation(undefined, written, {}, 'pat@example.com', AT);
    expect(settled.ConsentStatus).toBe(ConsentStatus.Granted);
    expect(settled.PendingConfirmation).toBeUndefined();
    expect(settled.Confirmation).toBeUndefined();
    // With confirmation required, a forged evidence does not let the grant through either.
    const held = holdForConfirmation(undefined, written, REQUIRED, 'pat@example.com', AT);
    expect(held.ConsentStatus).toBe(ConsentStatus.NotSet);
    expect(held.Confirmation).toBeUndefined();
  });

  it('applies a grant carrying its Confirmation when the write may carry it, holds it otherwise', () => {
    const evidence = { Method: 'DoubleOptIn', ConfirmedDate: AT, LinkId: 'abc' };
    const written = consent({ ConsentStatus: ConsentStatus.Granted, Confirmation: evidence });
    const carried = holdForConfirmation(undefined, written, REQUIRED, 'pat@example.com', AT, true);
    expect(carried.ConsentStatus).toBe(ConsentStatus.Granted);
    expect(carried.Confirmation).toEqual(evidence);
    expect(carried.PendingConfirmation).toBeUndefined();
    // Through the API (nothing carried) the same consent is held and its Confirmation dropped.
    const held = holdForConfirmation(undefined, written, REQUIRED, 'pat@example.com', AT);
    expect(held.ConsentStatus).toBe(ConsentStatus.NotSet);
    expect(held.Confirmation).toBeUndefined();
    expect(held.PendingConfirmation).toBeDefined();
    // Carried without a Confirmation: held as today.
    const bare = consent({ ConsentStatus: ConsentStatus.Granted });
    expect(
      holdForConfirmation(undefined, bare, REQUIRED, 'pat@example.com', AT, true)
        .PendingConfirmation,
    ).toBeDefined();
  });

  it("keeps a merge's carried request where the survivor had no state of its own, and only there", () => {
    const request = { Id: 'absorbed', RequestedDate: '2026-12-01T00:00:00.000Z' };
    const absorbed = consent({ ConsentStatus: ConsentStatus.NotSet, PendingConfirmation: request });
    // Nothing of the survivor's, or NotSet without a request: the request is taken over.
    for (const stored of [undefined, consent({ ConsentStatus: ConsentStatus.NotSet })]) {
      const kept = holdForConfirmation(stored, absorbed, REQUIRED, 'pat@example.com', AT, true);
      expect(kept).toMatchObject({
        ConsentStatus: ConsentStatus.NotSet,
        PendingConfirmation: request,
      });
    }
    // The survivor's own request stays; a survivor's answer is not overridden by a mark.
    const own = { Id: 'own', RequestedDate: AT };
    const ownKept = holdForConfirmation(
      consent({ ConsentStatus: ConsentStatus.NotSet, PendingConfirmation: own }),
      absorbed,
      REQUIRED,
      'pat@example.com',
      AT,
      true,
    );
    expect(ownKept.PendingConfirmation).toEqual(own);
    const granted = holdForConfirmation(
      consent({ ConsentStatus: ConsentStatus.Granted }),
      absorbed,
      REQUIRED,
      'pat@example.com',
      AT,
      true,
    );
    expect(granted.PendingConfirmation).toBeUndefined();
    // Not a write that may carry one: a writer cannot set the mark.
    expect(
      holdForConfirmation(undefined, absorbed, REQUIRED, 'pat@example.com', AT).PendingConfirmation,
    ).toBeUndefined();
  });

  it('cancels a pending confirmation on a denial, a revocation or a deactivation', () => {
    const stored = consent({
      ConsentStatus: ConsentStatus.NotSet,
      PendingConfirmation: { Id: 'p', RequestedDate: AT },
    });
    for (const written of [
      consent({ ConsentStatus: ConsentStatus.Denied }),
      consent({ ConsentStatus: ConsentStatus.Revoked }),
      consent({ ConsentStatus: ConsentStatus.NotSet, IsActive: false }),
    ])
      expect(
        holdForConfirmation(stored, written, REQUIRED, 'a@b.c', AT).PendingConfirmation,
      ).toBeUndefined();
    // A write that leaves the consent as it is keeps the confirmation pending.
    expect(
      holdForConfirmation(
        stored,
        consent({ ConsentStatus: ConsentStatus.NotSet }),
        REQUIRED,
        'a@b.c',
        AT,
      ).PendingConfirmation?.Id,
    ).toBe('p');
  });
});

/** Data with one active email, Pat's, holding one consent of `fields`. */
const withPatsConsent = (fields: Partial<StoredConsent>): ProfileData =>
  partialData({
    Emails: [{ EmailAddress: 'Pat@Example.com', IsActive: true, Consents: [consent(fields)] }],
  });

describe('applyConfirmation', () => {
  const data = (pendingId: string) =>
    withPatsConsent({
      ConsentStatus: ConsentStatus.NotSet,
      PendingConfirmation: { Id: pendingId, RequestedDate: AT, ConsentVersion: '2.0' },
    });
  const write = (ConfirmationId: string): ConsentConfirmWrite => ({
    EmailAddress: 'pat@example.com',
    ConsentType: 'NEWS',
    ConfirmationId,
    Evidence: {
      Method: 'DoubleOptIn',
      ConfirmedDate: '2026-12-02T11:00:00.000Z',
      LinkId: ConfirmationId,
      IpAddress: '127.0.0.1',
      UserAgent: 'UA',
    },
  });
  const settle = (_stored: StoredConsent, granted: StoredConsent) => ({ ...granted });
  const ctx = { at: '2026-12-02T11:00:01.000Z', userId: 'person:double-opt-in' };

  it('grants the held consent with its evidence and clears the mark', () => {
    const next = applyConfirmation(data('abc'), write('abc'), settle, ctx)!;
    const granted = next.Emails[0].Consents[0];
    expect(granted).toMatchObject({
      ConsentStatus: ConsentStatus.Granted,
      ConsentDate: '2026-12-02T11:00:00.000Z',
      ConsentVersion: '2.0',
      Confirmation: {
        Method: 'DoubleOptIn',
        LinkId: 'abc',
        IpAddress: '127.0.0.1',
        UserAgent: 'UA',
      },
    });
    expect(granted.PendingConfirmation).toBeUndefined();
    expect(granted.Edited.ModifiedBy).toBe('person:double-opt-in');
  });

  it('changes nothing for a confirmation the consent no longer waits for (used, replaced)', () => {
    expect(applyConfirmation(data('other'), write('abc'), settle, ctx)).toBeUndefined();
  });
});

describe('expirePendingConfirmation', () => {
  const data = (pendingId: string) =>
    withPatsConsent({
      ConsentStatus: ConsentStatus.Revoked,
      ConsentDate: '2026-01-01T00:00:00.000Z',
      PendingConfirmation: { Id: pendingId, RequestedDate: AT },
    });
  const write = { EmailAddress: 'pat@example.com', ConsentType: 'NEWS', ConfirmationId: 'abc' };
  const ctx = { at: '2026-12-05T11:00:00.000Z', userId: 'system:confirmation-expiry' };

  it('clears the mark and keeps the consent as it was (the grant never applied)', () => {
    const expired = expirePendingConfirmation(data('abc'), write, ctx)!.Emails[0].Consents[0];
    expect(expired.PendingConfirmation).toBeUndefined();
    expect(expired).toMatchObject({
      ConsentStatus: ConsentStatus.Revoked,
      ConsentDate: '2026-01-01T00:00:00.000Z',
    });
    expect(expired.Edited.ModifiedBy).toBe('system:confirmation-expiry');
  });

  it('changes nothing when the consent waits for another confirmation or none', () => {
    expect(expirePendingConfirmation(data('other'), write, ctx)).toBeUndefined();
  });
});
