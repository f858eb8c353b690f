import { ConsentStatus } from '@app/config';
import { consentTransitionRefusal, isAllowedConsentTransition } from './consent-transitions';

const { Granted, Denied, Revoked, NotSet } = ConsentStatus;

describe('consent status transitions', () => {
  const allowed: [ConsentStatus | 'new', ConsentStatus][] = [
    ['new', Granted],
    ['new', Denied],
    ['new', NotSet],
    [NotSet, Granted],
    [NotSet, Denied],
    [Granted, Revoked],
    [Denied, Granted],
    [Revoked, Granted],
    // Restating a status, a re-consent among them.
    [Granted, Granted],
    [Denied, Denied],
    [Revoked, Revoked],
    [NotSet, NotSet],
  ];
  const refused: [ConsentStatus | 'new', ConsentStatus, RegExp][] = [
    ['new', Revoked, /^no consent → Revoked \(3\) is not allowed: .*never granted/],
    [NotSet, Revoked, /^NotSet \(4\) → Revoked \(3\) .*only a granted consent/],
    [Granted, Denied, /^Granted \(1\) → Denied \(2\) .*withdrawn with Revoked \(3\)/],
    [Granted, NotSet, /^Granted \(1\) → NotSet \(4\) .*cannot go back to NotSet/],
    [Denied, Revoked, /^Denied \(2\) → Revoked \(3\) .*only a granted consent/],
    [Denied, NotSet, /^Denied \(2\) → NotSet \(4\)/],
    [Revoked, Denied, /^Revoked \(3\) → Denied \(2\) .*Granted \(1\)/],
    [Revoked, NotSet, /^Revoked \(3\) → NotSet \(4\)/],
  ];

  it.each(allowed)('allows %s → %s', (from, to) => {
    expect(isAllowedConsentTransition(from, to)).toBe(true);
    expect(consentTransitionRefusal(from, to)).toBeNull();
  });

  it.each(refused)('refuses %s → %s, saying why', (from, to, message) => {
    expect(isAllowedConsentTransition(from, to)).toBe(false);
    expect(consentTransitionRefusal(from, to)).toMatch(message);
  });

  it('covers every pair of statuses', () => {
    const froms: (ConsentStatus | 'new')[] = ['new', Granted, Denied, Revoked, NotSet];
    const tos = [Granted, Denied, Revoked, NotSet];
    expect(allowed.length + refused.length).toBe(froms.length * tos.length);
  });
});
